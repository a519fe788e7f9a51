import {
  InvalidPayloadError,
  UnsupportedWebhookEventTypeError,
  WebhookMisconfiguredError,
} from "../../src/errors.js";
import { defineIntegration } from "../kit/index.js";
import type { WebhookMessage, Wild } from "../kit/index.js";
import { truncateTopic } from "../kit/message-text.js";

const DISPLAY_NAME = "UptimeRobot";

/** Zulip's event names: UptimeRobot's `alert_type_friendly_name` ("Up" / "Down"), lower-cased. */
function eventOf(p: Wild): string {
  const friendly = p.get("alert_type_friendly_name").text();
  if (friendly === "Up") return "up";
  if (friendly === "Down") return "down";
  throw new UnsupportedWebhookEventTypeError(friendly, DISPLAY_NAME);
}

/** Zulip's notice to the bot's owner about an alert contact whose JSON template lacks fields. */
export const MISCONFIGURED_PAYLOAD_NOTICE = `
Hi there! Your bot {bot_name} just received a UptimeRobot payload that is missing
some data that Zulip requires. This usually indicates a configuration issue
in your UptimeRobot webhook settings. Please make sure that you set the required parameters
when configuring the UptimeRobot webhook. Contact {support_email} if you
need further help!
`;

/**
 * A message from a payload that must hold every field UptimeRobot's alert contact template sends.
 * A misconfigured alert contact (fields missing from its template) is answered "Invalid payload",
 * and the bot's owner is told (rate limited), as Zulip does.
 */
function checked(render: (p: Wild) => WebhookMessage): (p: Wild) => WebhookMessage {
  return (p) => {
    try {
      return render(p);
    } catch (err) {
      if (err instanceof InvalidPayloadError) {
        throw new WebhookMisconfiguredError(MISCONFIGURED_PAYLOAD_NOTICE, "Invalid payload");
      }
      throw err;
    }
  };
}

function monitor(p: Wild): string {
  return `${p.get("monitor_friendly_name").text()} (${p.get("monitor_url").text()})`;
}

/** UptimeRobot: a monitor going down or coming back up, in a topic named after the monitor. */
export default defineIntegration({
  name: "uptimerobot",
  displayName: DISPLAY_NAME,
  categories: ["monitoring"],
  description: "Posts when an UptimeRobot monitor goes down or comes back up.",
  classify: ({ payload }) => eventOf(payload),
  events: {
    up: checked((p) => ({
      topic: truncateTopic(p.get("monitor_friendly_name").text()),
      body:
        `${monitor(p)} is back UP (${p.get("alert_details").text()}).\n` +
        `It was down for ${p.get("alert_friendly_duration").text()}.`,
    })),
    down: checked((p) => ({
      topic: truncateTopic(p.get("monitor_friendly_name").text()),
      body: `${monitor(p)} is DOWN (${p.get("alert_details").text()}).`,
    })),
  },
});
