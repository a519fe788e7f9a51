import { defineIntegration } from "../kit/index.js";
import { normalizeBody, truncateTopic } from "../kit/message-text.js";

/**
 * GoSquared: traffic alerts (a spike or dip in concurrent visitors) and live chat messages. The
 * payload carries no event name; it is inferred from its fields, as Zulip does.
 */
export default defineIntegration({
  name: "gosquared",
  displayName: "GoSquared",
  categories: ["marketing"],
  description: "Posts GoSquared traffic alerts and live chat messages.",
  classify: ({ payload }): string => {
    if (payload.has("concurrents") && payload.has("siteDetails")) return "traffic_spike";
    if (payload.has("message") && payload.has("person")) return "chat_message";
    return "unknown_event";
  },
  events: {
    traffic_spike: (p) => {
      const domain = p.at("siteDetails", "domain").str();
      const account = p.at("siteDetails", "acct").str();
      return {
        topic: truncateTopic(`GoSquared - ${domain}`),
        body: `[${domain}](https://www.gosquared.com/now/${account}) has ${p.get("concurrents").int()} visitors online.`,
      };
    },
    chat_message: (p) => {
      // Private messages (between an agent and one visitor) are not posted.
      if (p.get("message").opt("private")?.bool() === true) return null;
      return {
        topic: truncateTopic(`Live chat session - ${p.at("message", "session", "title").str()}`),
        body: normalizeBody(
          `The ${p.at("person", "status").str()} **${p.at("person", "_anon", "name").str()}** messaged:\n\n` +
            "``` quote\n" +
            `${p.at("message", "content").str()}\n` +
            "```",
        ),
      };
    },
  },
});
