import { describe, expect, it } from "@jest/globals";
import { Wild } from "../kit/index.js";
import { describeCases, dispatchPayload, expectFixture } from "../kit/testing.js";
import zapier from "./index.js";

// The auth check is answered by the handshake, tested below.
describeCases(zapier, new URL("./fixtures/cases", import.meta.url), (c) => c.case_id !== "test_auth");

const bot = { id: 31, email: "webhook-bot@zulip.com", fullName: "Zulip Webhook Bot" };
const noHeaders = (): undefined => undefined;

function errorOf(run: () => unknown): unknown {
  try {
    run();
  } catch (err) {
    return (err as { toJSON(): unknown }).toJSON();
  }
  return undefined;
}

describe("zapier: the Zulip app's auth check", () => {
  it("answers with the bot's name, email and id", () => {
    expect(
      zapier.handshake?.({
        method: "POST",
        params: { stream: "zapier" },
        header: noHeaders,
        payload: new Wild({ type: "auth" }),
        bot,
      }),
    ).toEqual({
      status: 200,
      body: {
        result: "success",
        msg: "",
        full_name: "Zulip Webhook Bot",
        email: "webhook-bot@zulip.com",
        id: 31,
      },
    });
  });

  it("lets messages through to the handler", () => {
    const req = {
      method: "POST" as const,
      params: {},
      header: noHeaders,
      payload: new Wild({ topic: "t", content: "c" }),
      bot,
    };
    expect(zapier.handshake?.(req)).toBeUndefined();
  });
});

describe("zapier: messages", () => {
  it("keeps the content as sent, apart from trailing whitespace", () => {
    expectFixture(zapier, new URL(".", import.meta.url), "message__subject_and_content", {
      topic: "New email from zulip@zulip.com",
      body: "Your email content is: \nMy Email content.",
    });
  });

  it("answers as Zulip for a missing topic or content", () => {
    expect(errorOf(() => dispatchPayload(zapier, undefined, { content: "c" }))).toEqual({
      result: "error",
      msg: "Topic can't be empty",
      code: "BAD_REQUEST",
    });
    expect(errorOf(() => dispatchPayload(zapier, undefined, { subject: "s", content: 3 }))).toEqual({
      result: "error",
      msg: "Malformed payload",
      code: "BAD_REQUEST",
    });
    expect(errorOf(() => dispatchPayload(zapier, undefined, { subject: "s" }))).toEqual({
      result: "error",
      msg: "Content can't be empty",
      code: "BAD_REQUEST",
    });
  });
});
