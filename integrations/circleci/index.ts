import { defineIntegration } from "../kit/index.js";
import type { Wild } from "../kit/index.js";
import { truncateTopic } from "../kit/message-text.js";

/** How a job's or workflow's final status reads after "has" / "was". */
function formattedStatus(status: string): string {
  switch (status) {
    case "success":
      return "has succeeded";
    case "failed":
      return "has failed";
    case "error":
      return "has failed with an error";
    case "canceled":
      return "was canceled";
    case "unauthorized":
      return "was unauthorized";
    default:
      return `has status ${status}`;
  }
}

function shortSha(sha: string): string {
  return sha.slice(0, 11);
}

/** Where the pipeline ran: the commit (subject, branch, author), a tag, or a branch's HEAD. */
function triggerDetails(p: Wild): string {
  const pipeline = p.get("pipeline");
  const vcs = pipeline.opt("vcs");
  if (vcs === undefined) {
    // GitLab projects: the VCS details come in the trigger parameters.
    const gitlab = pipeline.optAt("trigger_parameters", "gitlab");
    if (gitlab === undefined) return "";
    const sha = gitlab.get("commit_sha").str();
    const url = `${gitlab.get("web_url").str()}/-/commit/${sha}`;
    const title = gitlab.opt("commit_title")?.str();
    const branch = gitlab.opt("branch")?.str();
    const author = gitlab.opt("commit_author_name")?.str();
    if (title !== undefined && branch !== undefined && author !== undefined) {
      return `Triggered on [\`${shortSha(sha)}: ${title}\`](${url}) on branch \`${branch}\` by ${author}.`;
    }
    return branch !== undefined
      ? `Triggered on \`${branch}\`'s HEAD on [${shortSha(sha)}](${url}).`
      : `Triggered on the latest tag on [${shortSha(sha)}](${url}).`;
  }
  const revision = vcs.get("revision").str();
  const repoUrl = vcs.get("origin_repository_url").str();
  const provider = vcs.opt("provider_name")?.str() ?? "";
  const commitPath = provider === "bitbucket" ? "commits" : provider === "gitlab" ? "-/commit" : "commit";
  const commitUrl = `${repoUrl}/${commitPath}/${revision}`;
  const commit = vcs.opt("commit");
  const subject = commit?.opt("subject")?.str();
  const branch = vcs.opt("branch")?.str();
  if (subject !== undefined) {
    const author = commit?.optAt("author", "name")?.str() ?? "";
    return (
      `Triggered on [\`${shortSha(revision)}: ${subject}\`](${commitUrl})` +
      (branch !== undefined ? ` on branch \`${branch}\`` : "") +
      (author !== "" ? ` by ${author}` : "") +
      "."
    );
  }
  if (branch !== undefined)
    return `Triggered on \`${branch}\`'s HEAD on [${shortSha(revision)}](${commitUrl}).`;
  return `Triggered on the latest tag on [${shortSha(revision)}](${commitUrl}).`;
}

function withTrigger(p: Wild, headline: string): { topic: string; body: string } {
  const details = triggerDetails(p);
  return {
    topic: truncateTopic(p.get("project").get("name").str()),
    body: details === "" ? headline : `${headline}\n\n${details}`,
  };
}

/** CircleCI: finished jobs and workflows, in a topic named after the project. */
export default defineIntegration({
  name: "circleci",
  displayName: "CircleCI",
  categories: ["continuous-integration"],
  description: "Posts CircleCI job and workflow results with the commit that triggered them.",
  // circleci-signature is "v1=" and the hex HMAC-SHA256 of the body with the webhook's secret.
  signature: { kind: "hmac", header: "circleci-signature", algorithm: "sha256", prefix: "v1=" },
  classify: ({ payload }) => payload.get("type").str(),
  events: {
    ping: (p) => ({
      topic: "Test event",
      body: `Webhook '${p.get("webhook").get("name").str()}' test event successful.`,
    }),
    "job-completed": (p) => {
      const job = p.get("job");
      return withTrigger(
        p,
        `Job \`${job.get("name").str()}\` within Pipeline #${p.get("pipeline").get("number").text()} ` +
          `${formattedStatus(job.get("status").str())}.`,
      );
    },
    "workflow-completed": (p) => {
      const workflow = p.get("workflow");
      return withTrigger(
        p,
        `Workflow [\`${workflow.get("name").str()}\`](${workflow.get("url").str()}) ` +
          `within Pipeline #${p.get("pipeline").get("number").text()} ${formattedStatus(workflow.get("status").str())}.`,
      );
    },
  },
});
