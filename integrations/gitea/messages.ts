import { Wild } from "../kit/index.js";
import { prOrIssueTopic, pullRequestEventMessage } from "../kit/templates/git.js";

/**
 * Gitea's payloads follow Gogs' format, and Zulip runs Gogs' view for them: every event but pull
 * requests is Gogs' (../gogs/messages.ts). Pull requests have Gitea's own formatter: the branches
 * are `head.ref` and `base.ref`, and the assignee is named.
 */

/** A user's handle: Gitea sends both `login` and `username` (Gogs only `username`). */
function userName(user: Wild): string {
  const login = user.opt("login");
  return login !== undefined && login.str() !== "" ? login.str() : user.get("username").str();
}

/**
 * A pull request event. An edit names no branches; an assignment names who was assigned
 * ("kostekIV assigned kostekIV to [PR #5](…)"), as well as the assignee.
 */
export function pullRequestBody(p: Wild, includeTitle: boolean): string {
  const pr = p.get("pull_request");
  const merged = pr.opt("merged")?.bool() === true;
  const action = merged ? "merged" : p.get("action").str();
  const edited = action === "edited";
  const assignee = pr.opt("assignee") === undefined ? null : userName(pr.get("assignee"));
  return pullRequestEventMessage({
    userName: merged ? userName(pr.get("merged_by")) : userName(p.get("sender")),
    action,
    url: pr.get("html_url").str(),
    number: pr.get("number").int(),
    targetBranch: edited ? null : pr.get("head").get("ref").str(),
    baseBranch: edited ? null : pr.get("base").get("ref").str(),
    assignee,
    assigneeUpdated: action === "assigned" ? assignee : null,
    title: includeTitle ? pr.get("title").str() : null,
  });
}

/**
 * A comment on a pull request (an `issue_comment` that Gitea marks `X-Gitea-Event-Type:
 * pull_request_comment`): in the pull request's topic, its link naming the pull request and its
 * title, quoting the comment.
 */
export function pullRequestComment(p: Wild): { topic: string; body: string } {
  const pr = p.get("issue");
  const comment = p.get("comment");
  const number = pr.get("number").int();
  const title = pr.get("title").str();
  const url = comment.get("html_url").str();
  const action = p.get("action").str();
  const body = pullRequestEventMessage({
    userName: userName(p.get("sender")),
    action: action === "created" ? `[commented](${url}) on` : `${action} a [comment](${url}) on`,
    url: pr.get("html_url").str(),
    number,
    message: Wild.strOrNull(comment.opt("body")),
    title,
  });
  return { topic: prOrIssueTopic(p.get("repository").get("name").str(), "PR", number, title), body };
}
