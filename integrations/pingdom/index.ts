import { defineIntegration } from "../kit/index.js";
import type { Handler } from "../kit/index.js";
import { truncateTopic } from "../kit/message-text.js";

/** The check types Zulip posts (they are its event names). */
export const CHECK_TYPES = [
  "HTTP",
  "HTTP_CUSTOM",
  "HTTPS",
  "SMTP",
  "POP3",
  "IMAP",
  "PING",
  "DNS",
  "UDP",
  "PORT_TCP",
] as const;

/** A check changing state; going from UP to DOWN quotes Pingdom's long description. */
const stateChange: Handler = (p) => {
  const previous = p.get("previous_state").text();
  const current = p.get("current_state").text();
  const head =
    `Service ${p.get("check_params").get("hostname").text()} changed its ${p.get("check_type").text()} ` +
    `status from ${previous} to ${current}`;
  const body =
    current === "DOWN" && previous === "UP"
      ? `${head}:\n\n\`\`\` quote\n${p.get("long_description").text()}\n\`\`\``
      : `${head}.`;
  return { topic: truncateTopic(`${p.get("check_name").text()} status.`), body };
};

/**
 * Pingdom: POST /api/v1/external/pingdom from a webhook integration (Integrations → Add
 * integration → Webhook) attached to uptime checks.
 */
export default defineIntegration({
  name: "pingdom",
  displayName: "Pingdom",
  categories: ["monitoring"],
  description: "Pingdom uptime checks changing state (up, down).",
  classify: ({ payload }) => payload.get("check_type").text(),
  events: Object.fromEntries(CHECK_TYPES.map((t) => [t, stateChange])),
});
