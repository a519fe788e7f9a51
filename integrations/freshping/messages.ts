import type { WebhookMessage, Wild } from "../kit/index.js";
import { truncateTopic } from "../kit/message-text.js";

/** Freshping's check states and Zulip's event names for them. */
export const STATE_EVENTS: Readonly<Record<string, string>> = {
  "Reporting Error": "reporting_error",
  Available: "available",
};

/** Freshping's "Test" button sends an Available check of the application "Webhook test". */
function isTest(data: Wild): boolean {
  return data.opt("application_name")?.str() === "Webhook test";
}

function topic(data: Wild): string {
  return isTest(data) ? "Freshping" : truncateTopic(data.get("check_name").str());
}

export function reportingError(p: Wild): WebhookMessage {
  const data = p.get("webhook_event_data");
  const code = data.opt("http_status_code");
  const url = data.get("request_url").str();
  return {
    topic: topic(data),
    body:
      code === undefined
        ? `${url} has just become unreachable.`
        : `${url} has just become unreachable.\nError code: ${code.int()}.`,
  };
}

export function available(p: Wild): WebhookMessage {
  const data = p.get("webhook_event_data");
  return {
    topic: topic(data),
    body: isTest(data)
      ? "Freshping webhook has been successfully configured."
      : `${data.get("request_url").str()} is back up and no longer unreachable.`,
  };
}
