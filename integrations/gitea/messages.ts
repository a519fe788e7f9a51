import type { Wild } from "../kit/index.js";
import {
  branchNameFromRef,
  createBranchMessage,
  issueEventMessage,
  pullRequestEventMessage,
  pushCommitsMessage,
  releaseEventMessage,
} from "../kit/templates/git.js";
import type { CommitData } from "../kit/templates/git.js";

/**
 * Message bodies for Gitea events. Gitea's payloads follow Gogs' format, and Zulip runs Gogs' view
 * for them (zerver/webhooks/gogs/view.py) with Gitea's own pull-request formatter.
 */

/** A user's handle: Gitea sends both `login` and `username` (Gogs only `username`). */
export function userName(user: Wild): string {
  const login = user.opt("login");
  return login !== undefined && login.str() !== "" ? login.str() : user.get("username").str();
}

function nullableStr(w: Wild | undefined): string | null {
  return w === undefined || w.isNull() ? null : w.str();
}

function issueUrl(p: Wild, number: number): string {
  return `${p.get("repository").get("html_url").str()}/issues/${number}`;
}

/** Commits in the common format; the credited name is the username, else the author's first name. */
function commitsOf(p: Wild): CommitData[] {
  return p
    .get("commits")
    .items()
    .map((c) => {
      const author = c.get("author");
      const username = nullableStr(author.opt("username")) ?? "";
      return {
        name: username !== "" ? username : (author.get("name").str().trim().split(/\s+/)[0] ?? ""),
        sha: c.get("id").str(),
        url: c.get("url").str(),
        message: c.get("message").str(),
      };
    });
}

export function pushBody(p: Wild): string {
  return pushCommitsMessage({
    userName: userName(p.get("sender")),
    compareUrl: nullableStr(p.opt("compare_url")),
    branchName: branchNameFromRef(p.get("ref").str()),
    commits: commitsOf(p),
  });
}

export function createBody(p: Wild): string {
  const ref = p.get("ref").str();
  return createBranchMessage(
    userName(p.get("sender")),
    `${p.get("repository").get("html_url").str()}/src/${ref}`,
    ref,
  );
}

export function pullRequestBody(p: Wild, includeTitle: boolean): string {
  const pr = p.get("pull_request");
  const merged = pr.opt("merged")?.bool() === true;
  return pullRequestEventMessage({
    userName: merged ? userName(pr.get("merged_by")) : userName(p.get("sender")),
    action: merged ? "merged" : p.get("action").str(),
    url: pr.get("html_url").str(),
    number: pr.get("number").int(),
    targetBranch: pr.get("head").get("ref").str(),
    baseBranch: pr.get("base").get("ref").str(),
    assignee: pr.opt("assignee") === undefined ? null : userName(pr.get("assignee")),
    title: includeTitle ? pr.get("title").str() : null,
  });
}

export function issuesBody(p: Wild, includeTitle: boolean): string {
  const issue = p.get("issue");
  const number = issue.get("number").int();
  const action = p.get("action").str();
  const assignee = issue.opt("assignee") === undefined ? null : userName(issue.get("assignee"));
  return issueEventMessage({
    userName: userName(p.get("sender")),
    action,
    url: issueUrl(p, number),
    number,
    message: nullableStr(issue.opt("body")),
    assignee,
    assigneeUpdated: action === "assigned" ? assignee : null,
    title: includeTitle ? issue.get("title").str() : null,
  });
}

export function issueCommentBody(p: Wild, includeTitle: boolean): string {
  const issue = p.get("issue");
  const comment = p.get("comment");
  const number = issue.get("number").int();
  const action = p.get("action").str();
  const url = comment.get("html_url").str();
  return issueEventMessage({
    userName: userName(p.get("sender")),
    action: action === "created" ? `[commented](${url}) on` : `${action} a [comment](${url}) on`,
    url: issueUrl(p, number),
    number,
    message: nullableStr(comment.opt("body")),
    title: includeTitle ? issue.get("title").str() : null,
  });
}

export function releaseBody(p: Wild): string {
  const release = p.get("release");
  return releaseEventMessage({
    userName: userName(release.get("author")),
    action: p.get("action").str(),
    tagName: release.get("tag_name").str(),
    releaseName: release.get("name").str(),
    url: p.get("repository").get("html_url").str(),
  });
}
