import { defineIntegration } from "../kit/index.js";
import { isoToSeconds } from "../kit/message-text.js";

/**
 * Insping: POST /api/v1/external/insping from an Insping webhook; a website check changing state.
 * The timestamp becomes a Zulip time mention (seconds precision).
 */
export default defineIntegration({
  name: "insping",
  displayName: "Insping",
  categories: ["monitoring"],
  description: "Website availability checks changing state in Insping.",
  classify: () => "state_change",
  events: {
    state_change: (p) => {
      const d = p.get("webhook_event_data");
      return {
        topic: "insping",
        body:
          `State changed to **${d.get("check_state_name").text()}**:\n` +
          `* **URL**: ${d.get("request_url").text()}\n` +
          `* **Response time**: ${d.get("response_time").int()} ms\n` +
          `* **Timestamp**: <time:${isoToSeconds(d.get("request_start_time").text())}>`,
      };
    },
  },
  unfilteredEvents: ["state_change"],
});
