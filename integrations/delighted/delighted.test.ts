import { describe, expect, it } from "@jest/globals";
import {
  casePayload,
  describeCases,
  describeSignature,
  dispatchPayload,
  expectFixture,
} from "../kit/testing.js";
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

// Hex HMAC-SHA256 with the private API key "delighted-private-api-key", from `openssl dgst -sha256 -hmac`.
describeSignature(delighted, {
  title: "X-Delighted-Webhook-Signature",
  header: "x-delighted-webhook-signature",
  secret: "delighted-private-api-key",
  body: '{"event_type":"survey_response.created"}',
  signature: "sha256=fc461ad923c79563b2b866dca7be357fcb0f3555da16103381b8fb6d917a40f6",
  rejects: ["fc461ad923c79563b2b866dca7be357fcb0f3555da16103381b8fb6d917a40f6"],
});
