import { describe, expect, it } from "@jest/globals";
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
