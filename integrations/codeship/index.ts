import { defineIntegration } from "../kit/index.js";
import type { WebhookMessage, Wild } from "../kit/index.js";
import { truncateTopic } from "../kit/templates/git.js";

const STATUS_WORDS: Readonly<Record<string, string>> = {
  testing: "started",
  error: "failed",
  success: "succeeded",
};

/** "[Build](url) triggered by alice on main branch succeeded." */
export function buildMessage(p: Wild): WebhookMessage {
  const build = p.get("build");
  const status = build.get("status").str();
  const words = STATUS_WORDS[status] ?? `has ${status} status`;
  return {
    topic: truncateTopic(build.get("project_name").str()),
    body:
      `[Build](${build.get("build_url").str()}) triggered by ${build.get("committer").str()} ` +
      `on ${build.get("branch").str()} branch ${words}.`,
  };
}

/** Codeship: POST /api/v1/external/codeship, from a project's webhook notification. */
export default defineIntegration({
  name: "codeship",
  displayName: "Codeship",
  categories: ["continuous-integration", "deployment"],
  description: "Build status changes from Codeship.",
  classify: () => "build",
  // Zulip passes no event type for this integration: only_events / exclude_events never apply.
  unfilteredEvents: ["build"],
  events: { build: (p) => buildMessage(p) },
});
