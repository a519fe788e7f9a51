import { describe, expect, it } from "@jest/globals";
import { botTester } from "../kit/testing.js";
import helloworld from "./index.js";

describe("helloworld", () => {
  it("answers anything with beep boop", () =>
    botTester(helloworld).verifyDialog([
      ["", "beep boop"],
      ["help", "beep boop"],
      ["foo", "beep boop"],
    ]));

  it("replies in the same stream and topic and waves at the message", async () => {
    const tester = botTester(helloworld);
    const actions = await tester.send("hi", { id: 42 });
    expect(actions).toEqual([
      {
        kind: "send",
        id: 1001,
        message: { type: "stream", to: "test stream", topic: "test topic", content: "beep boop" },
      },
      { kind: "react", messageId: 42, emojiName: "wave" },
    ]);
  });

  it("replies to all recipients of a direct message", async () => {
    const actions = await botTester(helloworld).send("hi", {
      type: "private",
      display_recipient: [
        { id: 10, email: "foo@example.com", full_name: "Foo Test User" },
        { id: 20, email: "test-bot@example.com", full_name: "Test Bot" },
      ],
      subject: "",
    });
    expect(actions[0]).toEqual({
      kind: "send",
      id: 1001,
      message: { type: "private", to: ["foo@example.com", "test-bot@example.com"], content: "beep boop" },
    });
  });
});
