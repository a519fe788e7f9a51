import { describe, expect, it } from "@jest/globals";
import { describeCases, dispatchPayload, expectFixture } from "../kit/testing.js";
import freshping from "./index.js";

const here = new URL(".", import.meta.url);

describeCases(freshping, new URL("./fixtures/cases", import.meta.url));

describe("freshping: events the recorded cases lack", () => {
  it("posts a check that is back up", () => {
    expectFixture(freshping, here, "available__check_reachable", {
      topic: "Test Check",
      body: "https://example.com is back up and no longer unreachable.",
    });
  });

  it("leaves out the error code when a timed-out check has none", () => {
    expectFixture(freshping, here, "reporting_error__timeout_without_status", {
      topic: "API health",
      body: "https://api.example.com/health has just become unreachable.",
    });
  });

  it("filters on the check state", () => {
    const payload = {
      webhook_event_data: {
        check_state_name: "Available",
        check_name: "c",
        application_name: "a",
        request_url: "u",
      },
    };
    expect(dispatchPayload(freshping, undefined, payload, { only_events: '["reporting_error"]' }).kind).toBe(
      "filtered",
    );
  });

  it("rejects other check states as unsupported events", () => {
    const payload = { webhook_event_data: { check_state_name: "Paused" } };
    expect(() => dispatchPayload(freshping, undefined, payload)).toThrow(
      expect.objectContaining({ code: "UNSUPPORTED_WEBHOOK_EVENT_TYPE", eventType: "Paused" }),
    );
  });
});
