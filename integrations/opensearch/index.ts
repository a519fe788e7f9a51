import { defineIntegration, text } from "../kit/index.js";
import { normalizeBody, truncateTopic } from "../kit/message-text.js";

/**
 * OpenSearch alerting notifications: the body is plain text (whatever the Content-Type says). A
 * first line `topic: <name>` chooses the topic; otherwise it is "OpenSearch alerts".
 */
export default defineIntegration({
  name: "opensearch",
  displayName: "OpenSearch",
  categories: ["monitoring"],
  description: "Posts OpenSearch alerting notifications (plain-text message templates).",
  body: text(),
  events: {
    alert: (p) => {
      const payload = p.str();
      const endOfLine = payload.indexOf("\n");
      if (payload.startsWith("topic:") && endOfLine !== -1) {
        return {
          topic: truncateTopic(payload.slice(6, endOfLine).trim()),
          body: normalizeBody(payload.slice(endOfLine + 1)),
        };
      }
      return { topic: "OpenSearch alerts", body: normalizeBody(payload) };
    },
  },
  unfilteredEvents: ["alert"],
});
