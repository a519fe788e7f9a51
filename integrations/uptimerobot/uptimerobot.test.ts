import { describe, expect, it } from "@jest/globals";
import { WebhookMisconfiguredError } from "../../src/errors.js";
import { dispatchWebhook, fixtureRequest } from "../kit/index.js";
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
      body: "Web Server (server1.example.com) is DOWN (Host Is Unreachable).",
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

  it("tells the bot's owner, as Zulip does, when the monitor's name is missing (Zulip's fixture)", () => {
    const caught = expectError(() =>
      dispatchWebhook(
        uptimerobot,
        fixtureRequest(
          uptimerobot,
          new URL(".", import.meta.url),
          "uptimerobot_invalid_payload_with_missing_data",
        ),
      ),
    );
    expect(caught).toBeInstanceOf(WebhookMisconfiguredError);
    expect(caught.toJSON()).toMatchObject({ msg: "Invalid payload" });
    expect((caught as WebhookMisconfiguredError).notice.trim()).toBe(
      "Hi there! Your bot {bot_name} just received a UptimeRobot payload that is missing\n" +
        "some data that Zulip requires. This usually indicates a configuration issue\n" +
        "in your UptimeRobot webhook settings. Please make sure that you set the required parameters\n" +
        "when configuring the UptimeRobot webhook. Contact {support_email} if you\n" +
        "need further help!",
    );
  });
});
