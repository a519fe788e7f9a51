import { describe, expect, it } from "@jest/globals";
import { dispatchWebhook } from "../kit/index.js";
import type { DispatchOutcome } from "../kit/index.js";
import { describeCases, expectError } from "../kit/testing.js";
import slackIncoming from "./index.js";

describeCases(slackIncoming, new URL("./fixtures/cases", import.meta.url));

function post(body: string, contentType: string, params: Record<string, string> = {}): DispatchOutcome {
  const form = contentType.startsWith("application/x-www-form-urlencoded")
    ? Object.fromEntries(new URLSearchParams(body))
    : undefined;
  return dispatchWebhook(slackIncoming, {
    headers: { "content-type": contentType },
    params: { stream: "slack", ...params, ...(form ?? {}) },
    rawBody: Buffer.from(body, "utf8"),
    form,
  });
}

describe("slack_incoming: requests the recorded cases lack", () => {
  it("reads the form field `payload` when the body is not JSON", () => {
    const body = new URLSearchParams({
      payload: JSON.stringify({ channel: "@alerts", text: "*Deploy* done" }),
    });
    expect(post(body.toString(), "application/x-www-form-urlencoded")).toEqual({
      kind: "messages",
      event: "default",
      messages: [{ topic: "alerts", body: "**Deploy** done" }],
      reply: { ok: true },
    });
  });

  it("requires `payload` when the body is not JSON, answering in Slack's error shape", () => {
    const caught = expectError(() => post("text=hello", "application/x-www-form-urlencoded"));
    expect(caught.httpStatus).toBe(400);
    expect(caught.code).toBe("REQUEST_VARIABLE_MISSING");
    expect(caught.toJSON()).toEqual({ ok: false, error: "Missing 'payload' argument" });
  });

  it("answers an empty request in Slack's error shape too (Zulip's test_message_without_payload)", () => {
    const caught = expectError(() => post("", "application/x-www-form-urlencoded"));
    expect(caught.httpStatus).toBe(400);
    expect(caught.toJSON()).toEqual({ ok: false, error: "Missing 'payload' argument" });
  });

  it("prefixes the icon emoji and lets the URL topic win over the channel", () => {
    const payload = JSON.stringify({
      channel: "#ops",
      icon_emoji: ":ghost:",
      text: "<https://x.example|link> _now_",
    });
    expect(post(payload, "application/json", { topic: "Custom" })).toEqual({
      kind: "messages",
      event: "default",
      messages: [{ topic: "Custom", body: ":ghost: [link](https://x.example) *now*" }],
      reply: { ok: true },
    });
  });

  it("renders legacy attachment fields", () => {
    const payload = JSON.stringify({
      attachments: [
        {
          title: "Build 12",
          fields: [
            { title: "Status", value: "passed", short: true },
            { title: "Branch", value: "" },
            { value: "no title" },
          ],
          footer: "CI",
        },
      ],
    });
    expect(post(payload, "application/json")).toEqual({
      kind: "messages",
      event: "default",
      messages: [{ topic: "", body: "## Build 12\n\n**Status**: passed\n**Branch**\nno title\n\nCI" }],
      reply: { ok: true },
    });
  });

  it("posts nothing when nothing can be shown", () => {
    expect(
      post(JSON.stringify({ blocks: [{ type: "actions", elements: [] }] }), "application/json").kind,
    ).toBe("ignored");
  });
});

describe("slack_incoming: a urlencoded body nobody parsed", () => {
  it("still finds the payload field in the raw body", () => {
    const outcome = dispatchWebhook(slackIncoming, {
      headers: { "content-type": "application/x-www-form-urlencoded" },
      params: { stream: "slack" },
      rawBody: Buffer.from("payload=%7B%22text%22%3A%22Hello%2C%20world.%22%7D", "utf8"),
    });
    expect(outcome).toEqual({
      kind: "messages",
      event: "default",
      messages: [{ topic: "", body: "Hello, world." }],
      reply: { ok: true },
    });
  });
});
