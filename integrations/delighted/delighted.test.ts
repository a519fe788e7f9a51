import { describe, expect, it } from "@jest/globals";
import { verifySignature } from "../../src/domain/webhooks/signatures.js";
import { JsonableError } from "../../src/errors.js";
import { casePayload, describeCases, dispatchPayload, expectFixture } from "../kit/testing.js";
import delighted from "./index.js";

const cases = new URL("./fixtures/cases", import.meta.url);
const here = new URL(".", import.meta.url);

describeCases(delighted, cases);

describe("delighted: beyond the recorded cases", () => {
  it("posts a new response without a comment", () => {
    expectFixture(delighted, here, "survey_response.created__no_comment", {
      topic: "Survey response",
      body: "Kudos! You have a new promoter. Score of 10/10 from charlie_gravis@example.com.",
    });
  });

  it("stays silent on unsubscribes", () => {
    expectFixture(delighted, here, "unsubscribe.created__person", null);
  });

  it("is never dropped by only_events (Zulip names no Delighted events)", () => {
    const p = casePayload(cases, "test_feedback_message_promoter");
    expect(dispatchPayload(delighted, undefined, p, { only_events: '["nothing"]' }).kind).toBe("messages");
  });
});

describe("delighted: X-Delighted-Webhook-Signature", () => {
  const body = '{"event_type":"survey_response.created"}';
  // Hex HMAC-SHA256 with the private API key "delighted-private-api-key", from `openssl dgst -sha256 -hmac`.
  const check = (signature: string, secret = "delighted-private-api-key"): string => {
    const scheme = delighted.signature;
    if (scheme === undefined) throw new Error("no scheme");
    try {
      verifySignature(
        scheme,
        secret,
        {
          rawBody: Buffer.from(body),
          header: (n) => (n.toLowerCase() === "x-delighted-webhook-signature" ? signature : undefined),
          url: "https://chat.example.com/api/v1/external/delighted",
        },
        0,
      );
      return "ok";
    } catch (err) {
      return err instanceof JsonableError ? err.code : String(err);
    }
  };

  it("accepts the private API key's signature and rejects others", () => {
    expect(check("sha256=fc461ad923c79563b2b866dca7be357fcb0f3555da16103381b8fb6d917a40f6")).toBe("ok");
    expect(check("sha256=fc461ad923c79563b2b866dca7be357fcb0f3555da16103381b8fb6d917a40f6", "other")).toBe(
      "INVALID_WEBHOOK_SIGNATURE",
    );
    expect(check("fc461ad923c79563b2b866dca7be357fcb0f3555da16103381b8fb6d917a40f6")).toBe(
      "INVALID_WEBHOOK_SIGNATURE",
    );
  });
});
