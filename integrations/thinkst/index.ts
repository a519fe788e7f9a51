import { defineIntegration } from "../kit/index.js";
import { canaryKind, incidentMessage } from "./messages.js";

/**
 * Thinkst Canary console webhooks: incidents on Canaries (devices) and on Canarytokens created in
 * the console, told apart by `AlertType`. Zulip passes no event type, so filters never drop them.
 */
export default defineIntegration({
  name: "thinkst",
  displayName: "Thinkst",
  categories: ["monitoring"],
  description: "Posts Thinkst Canary and Canarytoken incidents from the Canary console.",
  classify: ({ payload }) => canaryKind(payload),
  events: {
    canary: (p) => incidentMessage(p),
    canarytoken: (p) => incidentMessage(p),
  },
  unfilteredEvents: ["canary", "canarytoken"],
});
