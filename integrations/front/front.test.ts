import { describe, expect, it } from "@jest/globals";
import {
  casePayload,
  describeCases,
  describeSignature,
  dispatchPayload,
  expectError,
  expectFixture,
  onlyMessage,
} from "../kit/testing.js";
import front from "./index.js";

const cases = new URL("./fixtures/cases", import.meta.url);
const here = new URL(".", import.meta.url);

describeCases(front, cases);

describe("front: events the recorded cases do not show", () => {
  it("posts inbound and outbound messages with their subject", () => {
    expectFixture(front, here, "inbound__email", {
      topic: "cnv_keocka",
      body:
        "[Inbound message](https://app.frontapp.com/open/msg_1176s2q) from **calculon@momsbot.com** to **support@planet-express.com**:\n" +
        "```quote\n*Subject*: Re: Being a robot is great, but...\n```",
    });
    expectFixture(front, here, "outbound__email", {
      topic: "cnv_keocka",
      body:
        "[Outbound message](https://app.frontapp.com/open/msg_1176s3r) from **support@planet-express.com** to **calculon@momsbot.com**:\n" +
        "```quote\n*Subject*: Re: Being a robot is great, but...\n```",
    });
  });

  it("posts archived, reopened and restored conversations", () => {
    expectFixture(front, here, "archive__archived", {
      topic: "cnv_keo696",
      body: "Archived by **Leela Turanga**.",
    });
    expectFixture(front, here, "reopen__reopened", {
      topic: "cnv_keo696",
      body: "Reopened by **Leela Turanga**.",
    });
    expectFixture(front, here, "restore__restored", {
      topic: "cnv_keo696",
      body: "Restored by **Leela Turanga**.",
    });
  });

  it("names a rule that acted", () => {
    expectFixture(front, here, "archive__by_rule", {
      topic: "cnv_keo696",
      body: "Archived by **'Archive spam' rule**.",
    });
  });

  it("names the teammate assigned by someone else", () => {
    expectFixture(front, here, "assign__teammate", {
      topic: "cnv_keocka",
      body: "**Leela Turanga** assigned **Bender Rodriguez**.",
    });
  });

  it("names an API source by its type", () => {
    const p = casePayload(cases, "test_conversation_deleted");
    p["source"] = { _meta: { type: "api" }, data: null };
    expect(onlyMessage(dispatchPayload(front, undefined, p))).toEqual({
      topic: "cnv_keo696",
      body: "Deleted by **(api)**.",
    });
  });

  it("names a Gmail source by its type (Zulip's gmail fixture)", () => {
    expectFixture(front, here, "archive__by_gmail", {
      topic: "cnv_keo696",
      body: "Archived by **(gmail)**.",
    });
  });

  it("answers an unknown type with Zulip's error", () => {
    const caught = expectError(() =>
      dispatchPayload(front, undefined, casePayload(cases, "test_unknown_webhook_request")),
    );
    expect(caught.httpStatus).toBe(400);
    expect(caught.toJSON()).toMatchObject({
      result: "error",
      msg: "Unknown webhook request",
    });
  });

  it("filters with Front's event types", () => {
    const p = casePayload(cases, "test_comment");
    expect(dispatchPayload(front, undefined, p, { only_events: '["tag", "untag"]' }).kind).toBe("filtered");
  });

  it("echoes X-Front-Challenge when an application webhook is set up", () => {
    const bot = { id: 9, email: "front-bot@example.com", fullName: "Front Bot" };
    const header = (name: string): string | undefined =>
      name.toLowerCase() === "x-front-challenge" ? "7f1c0a" : undefined;
    expect(front.handshake?.({ method: "POST", params: {}, header, bot })).toEqual({
      status: 200,
      contentType: "text/plain",
      body: "7f1c0a",
    });
    expect(front.handshake?.({ method: "POST", params: {}, header: () => undefined, bot })).toBeUndefined();
  });
});

// base64 HMAC-SHA1 with the API secret "front-api-secret", from `openssl dgst -sha1 -hmac -binary | base64`.
describeSignature(front, {
  title: "X-Front-Signature",
  header: "x-front-signature",
  secret: "front-api-secret",
  body: '{"type":"archive","conversation":{"id":"cnv_keo696"}}',
  signature: "7lZOld/xjEsRun9peIG9EkYJ9wU=",
  rejects: [undefined],
});
