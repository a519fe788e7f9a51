import { describe, expect, it } from "@jest/globals";
import { casePayload, describeCases, dispatchPayload, expectFixture } from "../kit/testing.js";
import rundeck from "./index.js";

const cases = new URL("./fixtures/cases", import.meta.url);

describeCases(rundeck, cases);

describe("rundeck: executions the recorded cases lack", () => {
  it("posts a failed execution", () => {
    expectFixture(rundeck, new URL(".", import.meta.url), "failed__failure", {
      topic: "Global Log Filter Usage",
      body:
        "[Global Log Filter Usage](http://localhost:4440/project/welcome-project-community/job/show/a0296d93-4b10-48d7-8b7d-86ad3f603b85) " +
        "execution [#7](http://localhost:4440/project/welcome-project-community/execution/show/7) " +
        "for welcome-project-community has failed. :cross_mark:",
    });
  });

  it("rejects statuses Zulip does not describe (aborted, timed out) as unsupported", () => {
    const payload = casePayload(cases, "test_success_message");
    (payload["execution"] as Record<string, unknown>)["status"] = "aborted";
    expect(() => dispatchPayload(rundeck, undefined, payload)).toThrow(
      expect.objectContaining({ code: "UNSUPPORTED_WEBHOOK_EVENT_TYPE", eventType: "aborted" }),
    );
  });

  it("is never dropped by only_events (Zulip gives it no event type)", () => {
    const payload = casePayload(cases, "test_success_message");
    expect(dispatchPayload(rundeck, undefined, payload, { only_events: '["failed"]' }).kind).toBe("messages");
  });
});
