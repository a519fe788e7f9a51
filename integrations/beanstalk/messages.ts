import { isBranchNotifiable } from "../kit/branches.js";
import type { WebhookMessage, Wild } from "../kit/index.js";
import { branchTopic, pushCommitsMessage, truncateTopic } from "../kit/templates/git.js";
import type { CommitData } from "../kit/templates/git.js";

/**
 * Beanstalk's web hooks, worded as Zulip's Beanstalk integration words them. Beanstalk hosts Git
 * and Subversion repositories; only Git pushes carry a `uri`.
 */

/** Python's `key in dict`. */
function hasKey(p: Wild, key: string): boolean {
  return p.isObject() && p.keys().includes(key);
}

export const isGitPush = (p: Wild): boolean => hasKey(p, "uri");

/**
 * A Git push; `branches` (the URL option) keeps only pushes to the listed branches.
 */
export function gitPush(p: Wild, branches: readonly string[] | undefined): WebhookMessage | null {
  if (!isBranchNotifiable(p.get("branch").str(), branches)) return null;
  const branch = p
    .get("ref")
    .str()
    .replace(/^refs\/heads\//, "");
  const commits: CommitData[] = (p.opt("commits")?.items() ?? []).map((c) => ({
    name: c.get("author").get("name").str(),
    sha: c.get("id").str(),
    url: c.get("url").str(),
    message: c.get("message").str(),
  }));
  const repository = p.get("repository");
  return {
    topic: truncateTopic(branchTopic(repository.get("name").str(), branch)),
    body: pushCommitsMessage({
      userName: p.get("pusher_name").str(),
      compareUrl: repository.get("url").str(),
      branchName: branch,
      commits,
    }),
  };
}

/** A Subversion commit: "Leo Franchi pushed [revision 3](url):\n\n> first line". */
export function svnCommit(p: Wild): WebhookMessage {
  const revision = p.get("revision").int();
  const firstLine = p.get("message").str().split("\n")[0] ?? "";
  return {
    topic: `svn r${revision}`,
    body:
      `${p.get("author_full_name").str()} pushed [revision ${revision}](${p.get("changeset_url").str()}):` +
      `\n\n> ${firstLine}`,
  };
}
