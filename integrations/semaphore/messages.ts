import type { WebhookMessage, Wild } from "../kit/index.js";
import { truncateTopic } from "../kit/templates/git.js";

/**
 * Semaphore CI notifications, worded as Zulip's Semaphore integration words them. Semaphore
 * Classic payloads have an `event` (build, deploy); Semaphore 2.0 payloads describe a pipeline of
 * a workflow started by a branch push, a pull request or a tag (`revision.reference_type`).
 */

/** Python's `key in dict`. */
function hasKey(p: Wild, key: string): boolean {
  return p.isObject() && p.keys().includes(key);
}

export const isClassic = (p: Wild): boolean => hasKey(p, "event");

/** The event: Classic's `event`, or 2.0's `revision.reference_type`. */
export function semaphoreEvent(p: Wild): string {
  return isClassic(p) ? p.get("event").str() : p.get("revision").get("reference_type").str();
}

const shortSha = (sha: string): string => sha.slice(0, 11);
const firstLine = (text: string): string => text.split(/\r\n|\r|\n/)[0] ?? "";

function topic(project: string, branch: string | null): string {
  return truncateTopic(branch ? `${project}/${branch}` : project);
}

/** Semaphore Classic: a build, a deploy, or any other event as "{event}: {result}". */
export function classic(p: Wild): WebhookMessage {
  const event = p.get("event").str();
  const result = p.get("result").text();
  const commit = p.get("commit");
  const commitLine = (): string =>
    `* **Commit**: [${shortSha(commit.get("id").str())}: ${firstLine(commit.get("message").str())}]` +
    `(${commit.get("url").str()})\n* **Author**: ${commit.get("author_email").str()}`;
  let body: string;
  if (event === "build") {
    body = `[Build ${p.get("build_number").text()}](${p.get("build_url").str()}) ${result}:\n` + commitLine();
  } else if (event === "deploy") {
    body =
      `[Deploy ${p.get("number").text()}](${p.get("html_url").str()}) of ` +
      `[build ${p.get("build_number").text()}](${p.get("build_html_url").str()}) ${result}:\n` +
      `${commitLine()}\n* **Server**: ${p.get("server_name").str()}`;
  } else {
    body = `${event}: ${result}`;
  }
  return { topic: topic(p.get("project_name").str(), p.get("branch_name").str()), body };
}

function isGithub(repoUrl: string): boolean {
  try {
    return new URL(repoUrl).hostname === "github.com";
  } catch {
    return false;
  }
}

/** Semaphore 2.0: a pipeline's result for a branch push, a pull request or a tag. */
export function semaphore2(p: Wild): WebhookMessage {
  const repoUrl = p.get("repository").get("url").str();
  const project = p.get("project").get("name").str();
  const org = p.get("organization").get("name").str();
  const revision = p.get("revision");
  const author = revision.get("sender").get("login").str();
  const authorUrl = `https://github.com/${author}`;
  const pipeline = p.get("pipeline");
  const head =
    `[${pipeline.get("name").str()}](https://${org}.semaphoreci.com/workflows/${p.get("workflow").get("id").str()}) ` +
    `pipeline **${pipeline.get("result").str()}**`;
  const gh = isGithub(repoUrl);
  const authorLine = gh ? `* **Author**: [${author}](${authorUrl})` : `* **Author**: ${author}`;
  const event = revision.get("reference_type").str();
  if (event === "branch") {
    const sha = revision.get("commit_sha").str();
    const message = firstLine(revision.get("commit_message").str());
    const branch = revision.get("branch").get("name").str();
    const commitLine = gh
      ? `* **Commit**: [(${shortSha(sha)})](${repoUrl}/commit/${sha}) ${message}`
      : `* **Commit**: (${shortSha(sha)}) ${message}`;
    return {
      topic: topic(project, branch),
      body: `${head}:\n${commitLine}\n* **Branch**: ${branch}\n${authorLine}`,
    };
  }
  if (event === "pull_request") {
    const pr = revision.get("pull_request");
    const branch = pr.get("branch_name").str();
    const number = pr.get("number").text();
    const title = pr.get("name").str();
    const prLine = gh
      ? `* **Pull request**: [${title}](${repoUrl}/pull/${number})`
      : `* **Pull request**: ${title} (#${number})`;
    return {
      topic: topic(project, branch),
      body: `${head}:\n${prLine}\n* **Branch**: ${branch}\n${authorLine}`,
    };
  }
  if (event === "tag") {
    const tag = revision.get("tag").get("name").str();
    const tagLine = gh ? `* **Tag**: [${tag}](${repoUrl}/tree/${tag})` : `* **Tag**: ${tag}`;
    return { topic: topic(project, null), body: `${head}:\n${tagLine}\n${authorLine}` };
  }
  return { topic: topic(project, null), body: `${head} for ${event} event` };
}
