import { defineIntegration } from "../kit/index.js";
import { truncateTopic } from "../kit/message-text.js";

/**
 * Crashlytics (Fabric) web hooks: the set-up `verification` event, and issues whose impact
 * changed (any other `event`), in a topic `<display id>: <title>`.
 */
export default defineIntegration({
  name: "crashlytics",
  displayName: "Crashlytics",
  categories: ["monitoring"],
  description: "Posts Crashlytics issues and how many devices they impact.",
  classify: ({ payload }) => (payload.get("event").str() === "verification" ? "verification" : "issue"),
  events: {
    verification: () => ({ topic: "Setup", body: "Webhook has been successfully configured." }),
    issue: (p) => {
      const issue = p.get("payload");
      return {
        topic: truncateTopic(`${issue.get("display_id").int()}: ${issue.get("title").str()}`),
        body:
          `[Issue](${issue.get("url").str()}) impacts at least ` +
          `${issue.get("impacted_devices_count").int()} device(s).`,
      };
    },
  },
  unfilteredEvents: ["verification", "issue"],
});
