import { describe, expect, it } from "@jest/globals";
import { dispatchWebhook } from "../kit/index.js";
import type { DispatchOutcome } from "../kit/index.js";
import { describeCases, expectError, expectFixture } from "../kit/testing.js";
import uptimerobot from "./index.js";

describeCases(uptimerobot, new URL("./fixtures/cases", import.meta.url));

function post(payload: unknown, params: Record<string, string> = {}): DispatchOutcome {
  return dispatchWebhook(uptimerobot, {
    headers: { "content-type": "application/json" },
    params: { stream: "uptimerobot", ...params },
    rawBody: Buffer.from(JSON.stringify(payload), "utf8"),
  });
}

const monitor = (type: string): unknown => ({
  monitor_url: "server1.example.com",
  monitor_friendly_name: "Web Server",
  alert_type: type === "Down" ? "1" : "2",
  alert_type_friendly_name: type,
  alert_details: "Connection Timeout",
  alert_friendly_duration: "5 minutes",
});

describe("uptimerobot: events the recorded cases lack", () => {
  it("posts a monitor going down (Zulip's monitor_down payload)", () => {
    expectFixture(uptimerobot, new URL(".", import.meta.url), "uptimerobot_monitor_down", {
      topic: "Web Server",
      body: "Web Server (server1.example.com) is DOWN (Host Is Not Reachable).",
    });
  });

  it("posts a monitor going down", () => {
    expect(post(monitor("Down"))).toEqual({
      kind: "messages",
      event: "down",
      messages: [
        { topic: "Web Server", body: "Web Server (server1.example.com) is DOWN (Connection Timeout)." },
      ],
    });
  });

  it("filters on up/down", () => {
    expect(post(monitor("Down"), { only_events: '["up"]' }).kind).toBe("filtered");
  });

  it("rejects an alert type other than Up or Down", () => {
    const caught = expectError(() => post(monitor("SSL expiry")));
    expect(caught.toJSON()).toMatchObject({
      code: "UNSUPPORTED_WEBHOOK_EVENT_TYPE",
      event_type: "SSL expiry",
      webhook_name: "UptimeRobot",
    });
  });
});

describe("uptimerobot: a misconfigured alert contact", () => {
  it("answers Invalid payload when a field of the template is missing", () => {
    const caught = expectError(() =>
      post({ monitor_friendly_name: "Web Server", alert_type_friendly_name: "Down" }),
    );
    expect(caught.toJSON()).toEqual({
      result: "error",
      msg: "Invalid payload",
      code: "BAD_REQUEST",
    });
  });
});
