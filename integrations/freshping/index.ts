import { defineIntegration } from "../kit/index.js";
import { STATE_EVENTS, available, reportingError } from "./messages.js";

/**
 * Freshping uptime checks: a check became unreachable or is back up. Zulip's event names come from
 * the check's state (`Reporting Error` → `reporting_error`, `Available` → `available`).
 */
export default defineIntegration({
  name: "freshping",
  displayName: "Freshping",
  categories: ["monitoring"],
  description: "Posts when a Freshping check becomes unreachable and when it is back up.",
  classify: ({ payload }) => {
    const state = payload.at("webhook_event_data", "check_state_name").str();
    // Other states (Paused, …) are unsupported events named as Freshping names them.
    return STATE_EVENTS[state] ?? state;
  },
  events: {
    reporting_error: (p) => reportingError(p),
    available: (p) => available(p),
  },
});
