import { describe, expect, it } from "@jest/globals";
import { NoBotConfigError } from "../kit/index.js";
import { botTester } from "../kit/testing.js";
import followup from "./index.js";

describe("followup", () => {
  it("posts the message to the followup stream, topic = sender", async () => {
    const tester = botTester(followup, { config: { stream: "followup" } });
    const actions = await tester.send("foo");
    expect(actions).toEqual([
      {
        kind: "send",
        id: 1001,
        message: {
          type: "stream",
          to: "followup",
          topic: "foo@example.com",
          content: "from foo@example.com: foo",
        },
      },
    ]);
  });

  it("uses the stream named in its config section", async () => {
    const tester = botTester(followup, { config: { stream: "issues" } });
    const actions = await tester.send("fix the build");
    expect(actions).toEqual([
      {
        kind: "send",
        id: 1001,
        message: {
          type: "stream",
          to: "issues",
          topic: "foo@example.com",
          content: "from foo@example.com: fix the build",
        },
      },
    ]);
  });

  it("asks for a message when given none, and explains itself on help", () =>
    botTester(followup, { config: { stream: "followup" } }).verifyDialog([
      ["", "Please specify the message you want to send to followup stream after @mention-bot"],
      [
        "help",
        "This plugin will allow users to flag messages as being follow-up items.\n" +
          'Users should preface messages with "@mention-bot".\n' +
          "\n" +
          'Before running this, make sure to create a stream called "followup" that your API user can send to.',
      ],
    ]));

  it("refuses to start without a [followup] config section", async () => {
    await expect(botTester(followup).send("foo")).rejects.toThrow(NoBotConfigError);
    await expect(botTester(followup).send("foo")).rejects.toThrow(
      "Bot 'followup' needs a [followup] section in its bot config file (--bot-config-file)",
    );
  });
});
