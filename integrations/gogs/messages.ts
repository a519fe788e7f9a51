import { isBranchNotifiable } from "../kit/branches.js";
import { Wild } from "../kit/index.js";
import type { WebhookMessage } from "../kit/index.js";
import {
  branchNameFromRef,
  branchTopic,
  createBranchMessage,
  issueEventMessage,
  prOrIssueTopic,
  pullRequestEventMessage,
  pushCommitsMessage,
  releaseEventMessage,
  releaseTopic,
  removeBranchMessage,
  truncateTopic,
} from "../kit/templates/git.js";
import type { CommitData } from "../kit/templates/git.js";

/**
 * Message bodies for Gogs events, worded as Zulip's Gogs integration words them
 * (zerver/webhooks/gogs/view.py). Pure functions of the payload.
 */

const msg = (topic: string, body: string): WebhookMessage => ({ topic: truncateTopic(topic), body });

/** A Gogs user's handle: `username` (Gogs also sends it as `login`). */
function handle(user: Wild, prefer: "username" | "login" = "username"): string {
  const other = prefer === "username" ? "login" : "username";
  const first = user.opt(prefer);
  if (first !== undefined && first.str() !== "") return first.str();
  return user.opt(other)?.str() ?? user.get(prefer).str();
}

const repoName = (p: Wild): string => p.get("repository").get("name").str();
const repoUrl = (p: Wild): string => p.get("repository").get("html_url").str();

/** Commits in the common format; credited to the author's username, else the first word of the name. */
function commitsOf(p: Wild): CommitData[] {
  return (p.opt("commits")?.items() ?? []).map((c) => {
    const author = c.get("author");
    const username = Wild.strOrNull(author.opt("username")) ?? "";
    return {
      name: username !== "" ? username : (author.get("name").str().trim().split(/\s+/)[0] ?? ""),
      sha: c.get("id").str(),
      url: c.get("url").str(),
      message: c.get("message").str(),
    };
  });
}

/** A push; `branches` (the URL option) keeps only pushes to the listed branches. */
export function push(p: Wild, branches: readonly string[] | undefined): WebhookMessage | null {
  const branch = branchNameFromRef(p.get("ref").str());
  if (!isBranchNotifiable(branch, branches)) return null;
  const body = pushCommitsMessage({
    userName: handle(p.get("sender")),
    compareUrl: Wild.strOrNull(p.opt("compare_url")),
    branchName: branch,
    commits: commitsOf(p),
  });
  return msg(branchTopic(repoName(p), branch), body);
}

/** A branch (or tag) was created. */
export function create(p: Wild): WebhookMessage {
  const ref = p.get("ref").str();
  return msg(
    branchTopic(repoName(p), ref),
    createBranchMessage(handle(p.get("sender")), `${repoUrl(p)}/src/${ref}`, ref),
  );
}

/**
 * A deleted branch or tag (newer Gogs versions send `delete`): "kostekIV deleted branch
 * `feature`.", in the topic of the repository and the ref. Zulip's Gogs view (main, December
 * 2025) has no `delete` event and no test for one: the wording is the git template's branch removal.
 */
export function remove(p: Wild): WebhookMessage {
  const ref = p.get("ref").str();
  const kind = p.get("ref_type").str() === "tag" ? "tag" : "branch";
  const body =
    kind === "branch"
      ? removeBranchMessage(handle(p.get("sender"), "login"), `\`${ref}\``)
      : `${handle(p.get("sender"), "login")} deleted tag \`${ref}\`.`;
  return msg(branchTopic(repoName(p), ref), body);
}

export function pullRequest(p: Wild, includeTitle: boolean): WebhookMessage {
  const pr = p.get("pull_request");
  const merged = pr.opt("merged")?.bool() === true;
  const action = merged ? "merged" : p.get("action").str();
  const userName = merged ? handle(pr.get("merged_by")) : handle(pr.opt("user") ?? p.get("sender"));
  const assignee = pr.opt("assignee");
  const body = pullRequestEventMessage({
    userName,
    action,
    url: pr.get("html_url").str(),
    number: pr.get("number").int(),
    targetBranch: action === "edited" ? null : pr.get("head_branch").str(),
    baseBranch: action === "edited" ? null : pr.get("base_branch").str(),
    assigneeUpdated: assignee === undefined ? null : handle(assignee, "login"),
    title: includeTitle ? pr.get("title").str() : null,
  });
  return msg(prOrIssueTopic(repoName(p), "PR", pr.get("id").int(), pr.get("title").str()), body);
}

function issueTopic(p: Wild): string {
  const issue = p.get("issue");
  return prOrIssueTopic(repoName(p), "issue", issue.get("number").int(), issue.get("title").str());
}

export function issues(p: Wild, includeTitle: boolean): WebhookMessage {
  const issue = p.get("issue");
  const number = issue.get("number").int();
  const action = p.get("action").str();
  const assigneeW = issue.opt("assignee");
  const assignee = assigneeW === undefined ? null : handle(assigneeW, "login");
  const body = issueEventMessage({
    userName: handle(p.get("sender"), "login"),
    action,
    url: `${repoUrl(p)}/issues/${number}`,
    number,
    message: Wild.strOrNull(issue.opt("body")),
    assignee,
    assigneeUpdated: action === "assigned" ? assignee : null,
    title: includeTitle ? issue.get("title").str() : null,
  });
  return msg(issueTopic(p), body);
}

export function issueComment(p: Wild, includeTitle: boolean): WebhookMessage {
  const issue = p.get("issue");
  const comment = p.get("comment");
  const number = issue.get("number").int();
  const action = p.get("action").str();
  const url = comment.get("html_url").str();
  const body = issueEventMessage({
    userName: handle(p.get("sender"), "login"),
    action: action === "created" ? `[commented](${url}) on` : `${action} a [comment](${url}) on`,
    url: `${repoUrl(p)}/issues/${number}`,
    number,
    message: Wild.strOrNull(comment.opt("body")),
    title: includeTitle ? issue.get("title").str() : null,
  });
  return msg(issueTopic(p), body);
}

export function release(p: Wild): WebhookMessage {
  const rel = p.get("release");
  const tag = rel.get("tag_name").str();
  const name = rel.get("name").str();
  const body = releaseEventMessage({
    userName: handle(rel.get("author")),
    action: p.get("action").str(),
    tagName: tag,
    releaseName: name,
    url: repoUrl(p),
  });
  return msg(releaseTopic(repoName(p), tag, name), body);
}
