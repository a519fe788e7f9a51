import { describe, expect, it } from "@jest/globals";
import { dispatchWebhook } from "../kit/index.js";
import { expectFixture } from "../kit/testing.js";
import slackIncoming from "./index.js";

const here = new URL(".", import.meta.url);

/**
 * Zulip's own Slack incoming-webhook fixtures beyond the recorded cases, with Zulip's messages. An
 * empty topic is the server's "(no topic)". Timestamps are written as the recorded cases show them
 * (`<time:2022-06-23T00:48:26+00:00>`; Zulip's newest tests write `<time:1655945306>`).
 */
const ZULIP: [string, { topic: string; body: string } | null][] = [
  [
    "default__blocks",
    {
      topic: "",
      body:
        "Danny Torrence left the following review for your property:\n\n" +
        "[Overlook Hotel](https://example.com) \n :star: \n Doors had too many axe holes, guest in room 237 was far too rowdy, whole place felt stuck in the 1920s.\n\n" +
        "[Haunted hotel image](https://is5-ssl.mzstatic.com/image/thumb/Purple3/v4/d3/72/5c/d3725c8f-c642-5d69-1904-aa36e4297885/source/256x256bb.jpg)\n\n" +
        "**Average Rating**\n1.0",
    },
  ],
  [
    "default__attachment_fields",
    {
      topic: "",
      body:
        "Build bla bla succeeded\n\n**Requested by**: Some user\n**Duration**: 00:02:03\n" +
        "**Build pipeline**: ConsumerAddressModule\n**Title with null value**\n**Title without value**\n" +
        "Value with null title\nValue without title",
    },
  ],
  [
    "default__attachment_pieces_ts_null",
    {
      topic: "",
      body:
        "## [Sample title.](https://www.google.com)\n\nSample pretext.\n\nSample text.\n\n" +
        "[](https://pbs.twimg.com/profile_images/625633822235693056/lNGUneLX_400x400.jpg)\n\nSample footer.",
    },
  ],
  [
    "default__attachment_pieces_text_null",
    {
      topic: "",
      body:
        "## [Sample title.](https://www.google.com)\n\nSample pretext.\n\n" +
        "[](https://pbs.twimg.com/profile_images/625633822235693056/lNGUneLX_400x400.jpg)\n\nSample footer.\n\n<time:2022-06-23T00:48:26+00:00>",
    },
  ],
  ["default__null_text", null],
];

describe("slack_incoming: Zulip's other fixtures", () => {
  for (const [name, expected] of ZULIP) {
    it(`handles ${name} as Zulip does`, () => {
      expectFixture(slackIncoming, here, name, expected, { stream: "slack_incoming" });
    });
  }

  it("reads Zulip's form-encoded fixture (urlencoded_text.txt)", () => {
    const body =
      "payload=%7B%22username%22%3A%22DeployBot%22%2C%22icon_url%22%3A%22https%3A%2F%2Fraw.githubusercontent.com%2Fphallstrom%2Fslackistrano%2Fmaster%2Fimages%2Fslackistrano.png%22%2C%22icon_emoji%22%3A%22%3Azap%3A%22%2C%22text%22%3A%22chris+has+started+deploying+project+tag+v0.0.2rc10+to+staging%22%2C%22channel%22%3A%22%23devops%22%7D\n";
    const form = Object.fromEntries(new URLSearchParams(body));
    const outcome = dispatchWebhook(slackIncoming, {
      headers: { "content-type": "application/x-www-form-urlencoded" },
      params: { stream: "slack_incoming", ...form },
      rawBody: Buffer.from(body, "utf8"),
      form,
    });
    expect(outcome).toMatchObject({
      kind: "messages",
      messages: [
        {
          topic: "devops",
          body: ":zap: chris has started deploying project tag v0.0.2rc10 to staging",
        },
      ],
    });
  });

  it("turns Slack's *bold* pairs into Zulip's as Zulip's formatting test does", () => {
    const outcome = dispatchWebhook(slackIncoming, {
      headers: { "content-type": "application/json" },
      params: { stream: "slack_incoming" },
      rawBody: Buffer.from(JSON.stringify({ text: "*foo* *bar*" })),
    });
    expect(outcome).toMatchObject({ kind: "messages", messages: [{ topic: "", body: "**foo** **bar**" }] });
  });
});
