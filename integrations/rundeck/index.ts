import { defineIntegration } from "../kit/index.js";
import type { WebhookMessage, Wild } from "../kit/index.js";
import { truncateTopic } from "../kit/message-text.js";

/** "[Job](link) execution [#3](link) for project <what>. :<emoji>:" in a topic named after the job. */
function executionMessage(p: Wild, what: string, emoji: string): WebhookMessage {
  const execution = p.get("execution");
  const job = execution.get("job");
  const name = job.get("name").str();
  return {
    topic: truncateTopic(name),
    body:
      `[${name}](${job.get("permalink").str()}) execution [#${execution.get("id").int()}]` +
      `(${execution.get("href").str()}) for ${execution.get("project").str()} ${what}. :${emoji}:`,
  };
}

/**
 * Rundeck job notifications (Send Webhook, JSON): an execution started (or was scheduled), is
 * running longer than average, succeeded or failed. Event names are the execution's status; Zulip
 * passes none, so filters never drop them. Other statuses (aborted, timed out, …) are unsupported.
 */
export default defineIntegration({
  name: "rundeck",
  displayName: "Rundeck",
  categories: ["deployment"],
  description: "Posts Rundeck job executions: started, running long, succeeded, failed.",
  classify: ({ payload }) => payload.at("execution", "status").str(),
  events: {
    running: (p) =>
      p.opt("trigger")?.str() === "avgduration"
        ? executionMessage(p, "is running long", "time_ticking")
        : executionMessage(p, "has started", "running"),
    scheduled: (p) => executionMessage(p, "has started", "running"),
    succeeded: (p) => executionMessage(p, "has succeeded", "check"),
    failed: (p) => executionMessage(p, "has failed", "cross_mark"),
  },
  unfilteredEvents: ["running", "scheduled", "succeeded", "failed"],
});
