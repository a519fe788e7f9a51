import { defineIntegration } from "../kit/index.js";
import type { WebhookMessage, Wild } from "../kit/index.js";
import { truncateTopic } from "../kit/templates/git.js";

/**
 * "[`963eb239c7b`](repo/commit/963eb239c7b) on branch `main`" for the build's first material, or
 * undefined when it is not a Git material (an upstream pipeline, Subversion, …).
 */
function commitDetails(pipeline: Wild): string | undefined {
  const cause = pipeline.opt("build-cause")?.items()[0];
  const git = cause?.opt("material")?.opt("git-configuration");
  const revision = cause?.opt("modifications")?.items()[0]?.opt("revision");
  if (git === undefined || revision === undefined) return undefined;
  const sha = revision.str().slice(0, 11);
  return `[\`${sha}\`](${git.get("url").str()}/commit/${sha}) on branch \`${git.get("branch").str()}\``;
}

/** "- **Failed**: `a`, `b`" per job result, in the order the results first appear. */
function jobsDetails(stage: Wild): string {
  const byResult = new Map<string, string[]>();
  for (const job of stage.opt("jobs")?.items() ?? []) {
    const result = job.get("result").str();
    byResult.set(result, [...(byResult.get(result) ?? []), `\`${job.get("name").str()}\``]);
  }
  return [...byResult].map(([result, jobs]) => `- **${result}**: ${jobs.join(", ")}`).join("\n");
}

/** A stage scheduled (state "Building") or completed (with its result and its jobs). */
export function stageMessage(p: Wild): WebhookMessage {
  const pipeline = p.get("data").get("pipeline");
  const stage = pipeline.get("stage");
  const name = `${pipeline.get("name").str()} / ${stage.get("name").str()}`;
  const state = stage.get("state").str().toLowerCase();
  const started = `- **Started**: <time:${stage.get("create-time").str()}>`;
  const details = commitDetails(pipeline);
  const commit = details === undefined ? "" : `\n- **Commit**: ${details}`;
  if (state === "building") {
    return { topic: truncateTopic(name), body: `**Pipeline ${state}**: ${name}${commit}\n${started}` };
  }
  const result = stage.get("result").str();
  const emoji = result === "Passed" ? ":green_circle:" : ":red_circle:";
  const jobs = jobsDetails(stage);
  const body =
    `${emoji} **Build ${state}**: ${name}${commit}\n${started}\n` +
    `- **Finished**: <time:${stage.get("last-transition-time").str()}>` +
    (jobs === "" ? "" : `\n${jobs}`);
  return { topic: truncateTopic(name), body };
}

/**
 * GoCD: POST /api/v1/external/gocd, from GoCD's WebHook Notifier plugin. Stage status changes are
 * posted; agent notifications (`type: agent`) are accepted silently.
 */
export default defineIntegration({
  name: "gocd",
  displayName: "GoCD",
  categories: ["continuous-integration"],
  description: "Pipeline stages scheduled and completed (with each job's result) from GoCD.",
  classify: ({ payload }) => payload.get("type").str(),
  // Zulip passes no event type for this integration: only_events / exclude_events never apply.
  unfilteredEvents: ["stage"],
  events: { stage: (p) => stageMessage(p) },
  ignoredEvents: ["*"],
});
