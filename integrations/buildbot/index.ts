import { defineIntegration } from "../kit/index.js";
import type { WebhookMessage, Wild } from "../kit/index.js";
import { truncateTopic } from "../kit/templates/git.js";

/** Buildbot's result codes (http://docs.buildbot.net/latest/developer/results.html), by index. */
const RESULTS = ["success", "warnings", "failure", "skipped", "exception", "retry", "cancelled"];

/** The topic: the build's project, or "general" when it has none. */
function topic(p: Wild): string {
  const project = p.opt("project");
  return truncateTopic(project === undefined || project.text() === "" ? "general" : project.text());
}

function buildLink(p: Wild): string {
  return `[#${p.get("buildid").text()}](${p.get("url").str()})`;
}

export function buildStarted(p: Wild): WebhookMessage {
  return {
    topic: topic(p),
    body: `Build ${buildLink(p)} for **${p.get("buildername").str()}** started.`,
  };
}

export function buildFinished(p: Wild): WebhookMessage {
  // A code outside Buildbot's list (a newer Buildbot's, or -1) is reported as unknown.
  const code = p.opt("results")?.value;
  const status = (typeof code === "number" ? RESULTS[code] : undefined) ?? "unknown";
  return {
    topic: topic(p),
    body: `Build ${buildLink(p)} (result: ${status}) for **${p.get("buildername").str()}** finished.`,
  };
}

/**
 * Buildbot: POST /api/v1/external/buildbot, sent by Buildbot's `HttpStatusPush` reporter with
 * Zulip's format (`buildbot.reporters.zulip.ZulipStatusPush`). The event is the payload's `event`.
 */
export default defineIntegration({
  name: "buildbot",
  displayName: "Buildbot",
  categories: ["continuous-integration"],
  description: "Builds started and finished (with their result) from Buildbot.",
  classify: ({ payload }) => payload.get("event").str(),
  events: {
    new: (p) => buildStarted(p),
    finished: (p) => buildFinished(p),
  },
});
