import { isBranchNotifiable } from "../kit/branches.js";
import type { WebhookMessage, Wild } from "../kit/index.js";
import {
  branchTopic,
  prOrIssueTopic,
  pullRequestEventMessage,
  pushCommitsMessage,
  truncateTopic,
} from "../kit/templates/git.js";
import type { CommitData } from "../kit/templates/git.js";

/** Azure DevOps (Repos) service-hook events, worded as Zulip's Azure DevOps integration words them. */

const stripHeads = (ref: string): string => ref.replace("refs/heads/", "");

const resource = (p: Wild): Wild => p.get("resource");
const repoName = (p: Wild): string => resource(p).get("repository").get("name").str();
const repoUrl = (p: Wild): string => resource(p).get("repository").get("remoteUrl").str();

/** The pushed branch (of the first ref update). */
export function pushBranch(p: Wild): string {
  return stripHeads(resource(p).get("refUpdates").index(0).get("name").str());
}

/**
 * `git.push`. `branches` (the URL option) keeps only pushes to the listed branches.
 */
export function push(p: Wild, branches: readonly string[] | undefined): WebhookMessage | null {
  const branch = pushBranch(p);
  if (!isBranchNotifiable(branch, branches)) return null;
  const update = resource(p).get("refUpdates").index(0);
  const compareUrl =
    `${repoUrl(p)}/branchCompare?baseVersion=GC${update.get("oldObjectId").str()}` +
    `&targetVersion=GC${update.get("newObjectId").str()}&_a=files`;
  const commits: CommitData[] = (resource(p).opt("commits")?.items() ?? []).map((c) => {
    const id = c.get("commitId").str();
    return {
      name: c.get("author").get("name").str(),
      sha: id,
      url: `${repoUrl(p)}/commit/${id}`,
      message: c.get("comment").str(),
    };
  });
  return {
    topic: truncateTopic(branchTopic(repoName(p), branch)),
    body: pushCommitsMessage({
      userName: resource(p).get("pushedBy").get("displayName").str(),
      compareUrl,
      branchName: branch,
      commits,
    }),
  };
}

function prTopic(p: Wild): string {
  const r = resource(p);
  return truncateTopic(prOrIssueTopic(repoName(p), "PR", r.get("pullRequestId").int(), r.get("title").str()));
}

function prCommon(p: Wild): { userName: string; url: string; number: number; title: string } {
  const r = resource(p);
  return {
    userName: r.get("createdBy").get("displayName").str(),
    url: r.get("_links").get("web").get("href").str(),
    number: r.get("pullRequestId").int(),
    title: r.get("title").str(),
  };
}

export function pullRequestCreated(p: Wild): WebhookMessage {
  const r = resource(p);
  const description = r.opt("description");
  const body = pullRequestEventMessage({
    ...prCommon(p),
    action: "created",
    targetBranch: stripHeads(r.get("sourceRefName").str()),
    baseBranch: stripHeads(r.get("targetRefName").str()),
    message: description === undefined || description.str() === "" ? null : description.str(),
  });
  return { topic: prTopic(p), body };
}

/**
 * `git.pullrequest.merged` is also sent when a merge was only attempted (a conflict, or a check
 * after an update): only a completed, succeeded merge is posted.
 */
export function pullRequestMerged(p: Wild): WebhookMessage | null {
  const r = resource(p);
  if (r.get("status").str() !== "completed" || r.get("mergeStatus").str() !== "succeeded") return null;
  const body = pullRequestEventMessage({
    ...prCommon(p),
    action: "merged",
    targetBranch: stripHeads(r.get("sourceRefName").str()),
    baseBranch: stripHeads(r.get("targetRefName").str()),
  });
  return { topic: prTopic(p), body };
}

export function pullRequestUpdated(p: Wild): WebhookMessage {
  const body = pullRequestEventMessage({
    ...prCommon(p),
    action: "updated",
    message: p.get("detailedMessage").get("markdown").str(),
  });
  return { topic: prTopic(p), body };
}
