import { AnomalousWebhookPayloadError } from "../../src/errors.js";
import { defineIntegration } from "../kit/index.js";
import type { Wild } from "../kit/index.js";
import { truncateTopic } from "../kit/message-text.js";

const DISPLAY_NAME = "Statuspage";

function topic(name: string, p: Wild): string {
  return truncateTopic(`${name}: ${p.get("page").get("status_description").text()}`);
}

/**
 * Statuspage: POST /api/v1/external/statuspage from a page's webhook subscription (Notifications →
 * Webhook). Incident updates and component status changes; anything else is not a Statuspage event.
 */
export default defineIntegration({
  name: "statuspage",
  displayName: DISPLAY_NAME,
  categories: ["monitoring", "customer-support"],
  description: "Incident updates and component status changes from an Atlassian Statuspage page.",
  classify: ({ payload }) => {
    if (payload.has("incident")) return "incident";
    if (payload.has("component")) return "component";
    throw new AnomalousWebhookPayloadError(DISPLAY_NAME);
  },
  events: {
    incident: (p) => {
      const incident = p.get("incident");
      const name = incident.get("name").text();
      return {
        topic: topic(name, p),
        body:
          `**${name}**:\n* State: **${incident.get("status").text()}**\n` +
          `* Description: ${incident.get("incident_updates").index(0).get("body").text()}`,
      };
    },
    component: (p) => {
      const name = p.get("component").get("name").text();
      const update = p.get("component_update");
      return {
        topic: topic(name, p),
        body:
          `**${name}** has changed status from **${update.get("old_status").text()}** ` +
          `to **${update.get("new_status").text()}**.`,
      };
    },
  },
});
