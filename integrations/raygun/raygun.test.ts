import { describe, expect, it } from "@jest/globals";
import { describeCases, dispatchPayload, expectFixture } from "../kit/testing.js";
import raygun from "./index.js";

const here = new URL(".", import.meta.url);
const app = "* **Application details**: [application name](http://app.raygun.io/application-url)";

describeCases(raygun, new URL("./fixtures/cases", import.meta.url));

describe("raygun: events the recorded cases lack", () => {
  it("posts an error assigned to a user", () => {
    expectFixture(raygun, here, "error_activity__assigned_to_user", {
      topic: "test",
      body:
        "Amy Loondon assigned [Error](https://app.raygun.com/error-url) to Kyle Kenny:\n" +
        `* **Timestamp**: <time:1970-01-28T01:49:36+00:00>\n${app}`,
    });
  });

  it("posts a one-minute follow-up with the error's message", () => {
    expectFixture(raygun, here, "error_notification__one_minute_followup", {
      topic: "test",
      body:
        "One minute [follow-up error](http://app.raygun.io/error-url):\n" +
        "* **Message**: Timeout while connecting\n" +
        "* **First occurred**: <time:1970-01-28T01:49:36+00:00>\n" +
        "* **Last occurred**: <time:1970-01-28T01:50:36+00:00>\n" +
        `* 3 users affected with 12 total occurrences\n${app}`,
    });
  });

  it("prints custom data sorted by key, as Python's str() shows it; null tags and user are left out", () => {
    expectFixture(raygun, here, "error_notification__new_error_custom_data", {
      topic: "test",
      body:
        "New [Error](http://app.raygun.io/error-url) occurred:\n" +
        "* **Message**: Cannot read property 'x' of undefined\n" +
        "* **First occurred**: <time:1970-01-28T01:49:36+00:00>\n" +
        "* **Last occurred**: <time:1970-01-28T01:49:36+00:00>\n" +
        "* 1 users affected with 1 total occurrences\n" +
        "* **attempts**: 2\n" +
        "* **details**: {'code': 'E42', 'retry': False}\n" +
        "* **flags**: ['a', True, None]\n" +
        "* **ratio**: 1.0\n" +
        "* **zone**: eu-1\n" +
        app,
    });
  });

  it("rejects activity and notification types it does not describe", () => {
    const activity = { event: "error_activity", eventType: "Deleted", error: { url: "u", user: "x" } };
    expect(() => dispatchPayload(raygun, undefined, activity)).toThrow(
      expect.objectContaining({
        code: "UNSUPPORTED_WEBHOOK_EVENT_TYPE",
        message: "The 'Deleted' event isn't currently supported by the Raygun webhook",
      }),
    );
    expect(() => dispatchPayload(raygun, undefined, { event: "deployment", eventType: "x" })).toThrow(
      expect.objectContaining({ code: "UNSUPPORTED_WEBHOOK_EVENT_TYPE", eventType: "deployment" }),
    );
  });

  it("filters on the event", () => {
    const activity = { event: "error_activity", eventType: "StatusChanged" };
    expect(dispatchPayload(raygun, undefined, activity, { only_events: '["error_notification"]' }).kind).toBe(
      "filtered",
    );
  });
});

describe("raygun: Zulip's other fixtures", () => {
  it("posts a one-minute follow-up without a message", () => {
    expectFixture(raygun, here, "error_notification__one_minute_followup_error", {
      topic: "test",
      body:
        "One minute [follow-up error](http://app.raygun.io/error-url):\n" +
        "* **First occurred**: <time:1970-01-28T01:49:36+00:00>\n" +
        "* **Last occurred**: <time:1970-01-28T01:49:36+00:00>\n" +
        "* 1 users affected with 1 total occurrences\n" +
        "* **Application details**: [application name](http://app.raygun.io/application-url)",
    });
  });
});
