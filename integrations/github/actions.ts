import type { WebhookMessage, Wild } from "../kit/index.js";
import { truncateTopic } from "../kit/templates/git.js";
import { nullableStr, repositoryName, repositoryUrl } from "./payload.js";

/**
 * GitHub Actions and checks, beyond Zulip: a finished workflow run with its conclusion and a link,
 * a failed (or timed out) job named with the step that failed, a finished check suite. Runs in
 * progress and successful jobs post nothing (the run's message says it).
 */

/** How a conclusion reads after the run's name (GitHub's documented values). */
function outcome(conclusion: string | null): string {
  switch (conclusion) {
    case "success":
      return "succeeded";
    case "failure":
      return "failed";
    case "cancelled":
      return "was cancelled";
    case "timed_out":
      return "timed out";
    case "skipped":
      return "was skipped";
    case "neutral":
      return "completed (neutral)";
    case "action_required":
      return "requires action";
    case "stale":
      return "is stale";
    case "startup_failure":
      return "failed to start";
    case null:
      return "completed";
    default:
      return `completed (${conclusion})`;
  }
}

function commitLink(p: Wild, sha: string): string {
  return `[${sha.slice(0, 11)}](${repositoryUrl(p)}/commit/${sha})`;
}

function branchPart(branch: string | null): string {
  return branch === null || branch === "" ? "" : ` on branch \`${branch}\``;
}

const actionsTopic = (p: Wild): string => truncateTopic(`${repositoryName(p)} / Actions`);

/** `workflow_run` completed: "Workflow run [CI #42](…) on branch `main` failed. ([sha](…))". */
export function workflowRunMessage(p: Wild): WebhookMessage | null {
  if (p.opt("action")?.str() !== "completed") return null;
  const run = p.get("workflow_run");
  const name = run.opt("name")?.str() ?? p.optAt("workflow", "name")?.str() ?? "workflow";
  const number = run.opt("run_number")?.int();
  const label = number === undefined ? name : `${name} #${number}`;
  const attempt = run.opt("run_attempt")?.int() ?? 1;
  const retry = attempt > 1 ? ` (attempt ${attempt})` : "";
  const sha = run.get("head_sha").str();
  return {
    topic: actionsTopic(p),
    body:
      `Workflow run [${label}](${run.get("html_url").str()})${retry}${branchPart(nullableStr(run.opt("head_branch")))} ` +
      `${outcome(nullableStr(run.opt("conclusion")))}. (${commitLink(p, sha)})`,
  };
}

/** `workflow_job` completed with a failure or a timeout: the job and its failed step. */
export function workflowJobMessage(p: Wild): WebhookMessage | null {
  if (p.opt("action")?.str() !== "completed") return null;
  const job = p.get("workflow_job");
  const conclusion = nullableStr(job.opt("conclusion"));
  if (conclusion !== "failure" && conclusion !== "timed_out") return null;
  const failedStep = (job.opt("steps")?.items() ?? []).find((s) => {
    const c = nullableStr(s.opt("conclusion"));
    return c === "failure" || c === "timed_out";
  });
  const workflow = nullableStr(job.opt("workflow_name"));
  const sha = job.get("head_sha").str();
  return {
    topic: actionsTopic(p),
    body:
      `Job [${job.get("name").str()}](${job.get("html_url").str()})` +
      (workflow === null ? "" : ` of workflow ${workflow}`) +
      `${branchPart(nullableStr(job.opt("head_branch")))} ${outcome(conclusion)}` +
      (failedStep === undefined ? "" : ` at step **${failedStep.get("name").str()}**`) +
      `. (${commitLink(p, sha)})`,
  };
}

/** `check_suite` completed: the app's suite for a commit, linked to the commit's checks. */
export function checkSuiteMessage(p: Wild): WebhookMessage | null {
  if (p.opt("action")?.str() !== "completed") return null;
  const suite = p.get("check_suite");
  const sha = suite.get("head_sha").str();
  const app = suite.optAt("app", "name")?.str() ?? "GitHub";
  return {
    topic: truncateTopic(`${repositoryName(p)} / checks`),
    body:
      `[Check suite](${repositoryUrl(p)}/commit/${sha}/checks) of ${app}` +
      `${branchPart(nullableStr(suite.opt("head_branch")))} ${outcome(nullableStr(suite.opt("conclusion")))}. ` +
      `(${commitLink(p, sha)})`,
  };
}
