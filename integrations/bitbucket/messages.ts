import { isBranchNotifiable } from "../kit/branches.js";
import type { WebhookMessage, Wild } from "../kit/index.js";
import { branchTopic, pushCommitsMessage, truncateTopic } from "../kit/templates/git.js";
import type { CommitData } from "../kit/templates/git.js";

/**
 * Bitbucket's old "POST" service (Bitbucket Cloud before webhooks 2.0): one form field `payload`
 * holding the push as JSON. Worded as Zulip's `bitbucket` integration words it.
 */

/** A JSON value as Python's `str.format` would print it (None for null/absent). */
function pyText(w: Wild | undefined): string {
  if (w === undefined || w.isNull()) return "None";
  return w.text();
}

/**
 * A push. Bitbucket sends no commits for a forced push (nothing useful to list). `branches` (the URL option) keeps only
 * pushes to the listed branches.
 */
export function push(p: Wild, branches: readonly string[] | undefined): WebhookMessage | null {
  const repository = p.get("repository");
  const user = p.opt("user");
  const commits = p.get("commits").items();
  const canonUrl = pyText(p.opt("canon_url"));
  const absoluteUrl = pyText(repository.opt("absolute_url"));
  if (commits.length === 0) {
    const who = user === undefined ? "Someone" : user.text();
    return {
      topic: truncateTopic(repository.get("name").str()),
      body: `${who} [force pushed](${p.get("canon_url").str()}${repository.get("absolute_url").str()}).`,
    };
  }
  const branch = commits[commits.length - 1]?.get("branch").str() ?? "";
  if (!isBranchNotifiable(branch, branches)) return null;
  const data: CommitData[] = commits.map((c) => ({
    // The commit's author when Bitbucket names one, else the pusher, else "Someone".
    name: c.opt("author")?.text() ?? user?.text() ?? "Someone",
    sha: pyText(c.opt("raw_node")),
    message: pyText(c.opt("message")),
    url: `${canonUrl}${absoluteUrl}commits/${pyText(c.opt("raw_node"))}`,
  }));
  return {
    topic: truncateTopic(branchTopic(repository.get("name").str(), branch)),
    body: pushCommitsMessage({
      userName: user === undefined ? "Someone" : user.text(),
      compareUrl: null,
      branchName: branch,
      commits: data,
    }),
  };
}
