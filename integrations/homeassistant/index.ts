import { defineIntegration } from "../kit/index.js";
import { normalizeBody, truncateTopic } from "../kit/message-text.js";

/**
 * Home Assistant's RESTful notify service: `message` is the body; `topic` (the service's
 * `title_param_name: topic`) the topic, "homeassistant" without one.
 */
export default defineIntegration({
  name: "homeassistant",
  displayName: "HomeAssistant",
  categories: ["misc"],
  description: "Posts Home Assistant notifications sent with the RESTful notify platform.",
  events: {
    notification: (p) => ({
      topic: truncateTopic(p.opt("topic")?.str() ?? "homeassistant"),
      body: normalizeBody(p.get("message").str()),
    }),
  },
  unfilteredEvents: ["notification"],
});
