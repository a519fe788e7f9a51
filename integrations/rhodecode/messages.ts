import { isBranchNotifiable } from "../kit/branches.js";
import type { WebhookMessage, Wild } from "../kit/index.js";
import { branchTopic, pushCommitsMessage, truncateTopic } from "../kit/templates/git.js";
import type { CommitData } from "../kit/templates/git.js";

/** RhodeCode's webhook events, worded as Zulip's RhodeCode integration words them. */

/**
 * The pushed branch: the first of `push.branches`, or, when a branch was deleted (RhodeCode then
 * lists no branch), the name in the commit id `delete_branch=>NAME`.
 */
export function pushBranchName(p: Wild): string {
  const push = p.get("event").get("push");
  const first = push.opt("branches")?.items()[0];
  if (first !== undefined) return first.get("name").str();
  const rawId = push.get("commits").index(0).get("raw_id").str();
  return rawId.split("=>")[1] ?? rawId;
}

/**
 * A push. `branches` (the URL option) keeps only pushes to the listed branches.
 */
export function repoPush(p: Wild, branches: readonly string[] | undefined): WebhookMessage | null {
  const event = p.get("event");
  const branch = pushBranchName(p);
  if (!isBranchNotifiable(branch, branches)) return null;
  const commits: CommitData[] = event
    .get("push")
    .get("commits")
    .items()
    .map((c) => ({
      name: c.get("author").str(),
      sha: c.get("raw_id").str(),
      url: c.get("url").str(),
      message: c.get("message").str(),
    }));
  return {
    topic: truncateTopic(branchTopic(event.get("repo").get("repo_name").str(), branch)),
    body: pushCommitsMessage({
      userName: event.get("actor").get("username").str(),
      compareUrl: null,
      branchName: branch,
      commits,
    }),
  };
}
