import type { Wild } from "../kit/index.js";
import { pullRequestEventMessage } from "../kit/templates/git.js";

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
