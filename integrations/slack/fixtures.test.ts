import { describe, expect, it } from "@jest/globals";
import { dispatchWebhook } from "../kit/stages.js";
import { expectError } from "../kit/testing.js";
import slack from "./index.js";

/** Zulip's legacy `message_info.txt` fixture (an outgoing webhook's form body). */
const MESSAGE_INFO: Record<string, string> = {
  token: "aotJImaVOVEVWssawxmegDWt",
  team_id: "T3W8CTX0F",
  team_domain: "gsoc2017",
  service_id: "133126759712",
  channel_id: "C3W8CTZFZ",
  channel_name: "general",
  timestamp: "1485947263.000010",
  user_id: "U3W8CTX2T",
  user_name: "slack_user",
  text: "test",
};

function post(fields: Record<string, string>): ReturnType<typeof dispatchWebhook> {
  return dispatchWebhook(slack, {
    headers: { "content-type": "application/x-www-form-urlencoded" },
    params: { stream: "slack" },
    rawBody: Buffer.from(new URLSearchParams(fields).toString(), "utf8"),
  });
}

function without(name: string): Record<string, string> {
  return Object.fromEntries(Object.entries(MESSAGE_INFO).filter(([k]) => k !== name));
}

describe("slack: Zulip's other legacy tests", () => {
  it("posts to the default topic with only the stream parameter", () => {
    expect(post(MESSAGE_INFO)).toMatchObject({
      kind: "messages",
      messages: [{ topic: "Message from Slack", body: "**slack_user**: test" }],
    });
  });

  it.each(["user_name", "channel_name"])("answers a missing %s as Zulip does", (name) => {
    expect(expectError(() => post(without(name))).toJSON()).toMatchObject({
      result: "error",
      msg: `Missing '${name}' argument`,
    });
  });
});
