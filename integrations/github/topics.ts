import type { WebhookContext, Wild } from "../kit/index.js";
import { prOrIssueTopic, truncateTopic } from "../kit/templates/git.js";
import { isPullRequestIssue } from "./messages.js";
import { organizationName, repositoryName } from "./payload.js";
import type { GitHubOptions } from "./types.js";

/** Topics (Zulip's get_topic_based_on_type) and the message shape every GitHub event posts. */

/** Whether the item's title goes in the body: the user chose the topic. */
export const includeTitle = (ctx: WebhookContext<GitHubOptions>): boolean => ctx.customTopic !== undefined;

export const msg = (topic: string, body: string): { topic: string; body: string } => ({
  topic: truncateTopic(topic),
  body,
});

export const repoTopic = (p: Wild): string => repositoryName(p);

export function pullRequestTopic(p: Wild): string {
  const pr = p.get("pull_request");
  return prOrIssueTopic(repositoryName(p), "PR", pr.get("number").int(), pr.get("title").str());
}

export function issueTopic(p: Wild): string {
  const issue = p.get("issue");
  const type = isPullRequestIssue(issue) ? "PR" : "issue";
  return prOrIssueTopic(repositoryName(p), type, issue.get("number").int(), issue.get("title").str());
}

export function discussionTopic(p: Wild): string {
  const d = p.get("discussion");
  return `${repositoryName(p)} discussion #${d.get("number").int()}: ${d.get("title").str()}`;
}

export function deploymentTopic(p: Wild): string {
  return `${repositoryName(p)} / Deployment on ${p.get("deployment").get("environment").str()}`;
}

/**
 * A webhook's first delivery names what it watches: a repository, an organization, or (a GitHub
 * Sponsors listing's hook, with neither) the sponsors, whose topic Sponsors events share.
 */
export function pingTopic(p: Wild): string {
  if (p.has("repository")) return repoTopic(p);
  if (p.has("organization")) return organizationName(p);
  return "sponsors";
}
