import { defineIntegration } from "../kit/index.js";
import { truncateTopic } from "../kit/message-text.js";

/** Errbit: a problem (error class and message) occurred in an app, topic `<app> / <environment>`. */
export default defineIntegration({
  name: "errbit",
  displayName: "Errbit",
  categories: ["monitoring"],
  description: "Posts Errbit problems, grouped by app and environment.",
  events: {
    problem: (p) => {
      const problem = p.get("problem");
      return {
        topic: truncateTopic(`${problem.get("app_name").str()} / ${problem.get("environment").str()}`),
        body:
          `[${problem.get("error_class").str()}](${problem.get("url").str()}): ` +
          `"${problem.get("message").str()}" occurred.`,
      };
    },
  },
  unfilteredEvents: ["problem"],
});
