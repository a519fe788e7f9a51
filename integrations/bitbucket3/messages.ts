import { isBranchNotifiable } from "../kit/branches.js";
import { UnsupportedWebhookEventTypeError } from "../../src/errors.js";
import type { WebhookMessage, Wild } from "../kit/index.js";
import {
  branchTopic,
  commitCommentMessage,
  createBranchMessage,
  endsWithPunctuation,
  prOrIssueTopic,
  pullRequestEventMessage,
  pushTagMessage,
  removeBranchMessage,
  truncateTopic,
} from "../kit/templates/git.js";

/**
 * Message bodies for Bitbucket Server (Bitbucket Data Center) events, worded as Zulip's
 * `bitbucket3` integration words them. Every function is pure: payload in, text out.
 */

const msg = (topic: string, body: string): WebhookMessage => ({ topic: truncateTopic(topic), body });

/** `[name](profile url)` of whoever caused the event. */
export function userLink(p: Wild): string {
  const actor = p.get("actor");
  return `[${actor.get("name").str()}](${selfHref(actor)})`;
}

/** The first `links.self[].href` of a Bitbucket Server entity. */
function selfHref(entity: Wild): string {
  return entity.get("links").get("self").index(0).get("href").str();
}

export function ping(): WebhookMessage {
  return msg(
    "Bitbucket Server Ping",
    "Congratulations! The Bitbucket Server webhook was configured successfully!",
  );
}

/** A comment on a commit: "commented", "edited their comment", "deleted their comment". */
export function repoComment(p: Wild, action: string): WebhookMessage {
  const repo = p.get("repository");
  const sha = p.get("commit").str();
  // The repository's self link ends in "browse"; commits live beside it.
  const repoUrl = selfHref(repo);
  const commitUrl = `${repoUrl.endsWith("browse") ? repoUrl.slice(0, -"browse".length) : repoUrl}commits/${sha}`;
  let text = p.get("comment").get("text").str();
  if (action === "deleted their comment") text = `~~${text}~~`;
  return msg(repo.get("name").str(), commitCommentMessage(userLink(p), action, commitUrl, sha, text));
}

export function repoForked(p: Wild): WebhookMessage {
  const fork = p.get("repository");
  const body =
    `User ${p.get("actor").get("displayName").str()}(login: ${userLink(p)}) forked the repository ` +
    `into [${fork.get("name").str()}](${selfHref(fork)}).`;
  return msg(fork.get("origin").get("name").str(), body);
}

/** A repository renamed (the only change Bitbucket Server reports with repo:modified). */
export function repoModified(p: Wild): WebhookMessage {
  const oldName = p.get("old").get("name").str();
  const newName = p.get("new").get("name").str();
  const body = `${userLink(p)} changed the name of the **${oldName}** repo from **${oldName}** to **${newName}**`;
  return msg(newName, endsWithPunctuation(newName) ? body : `${body}.`);
}

function branchChange(p: Wild, change: Wild, eventKey: string): WebhookMessage {
  const type = change.get("type").str();
  const repo = p.get("repository").get("name").str();
  const branch = change.get("ref").get("displayId").str();
  const user = userLink(p);
  let body: string;
  if (type === "ADD") body = createBranchMessage(user, null, branch);
  else if (type === "UPDATE")
    body = `${user} pushed to branch ${branch}. Head is now ${change.get("toHash").str()}.`;
  else if (type === "DELETE") body = removeBranchMessage(user, branch);
  else throw new UnsupportedWebhookEventTypeError(`${eventKey}.${type}`);
  return msg(branchTopic(repo, branch), body);
}

function tagChange(p: Wild, change: Wild, eventKey: string): WebhookMessage {
  const type = change.get("type").str();
  const action = type === "ADD" ? "pushed" : type === "DELETE" ? "removed" : undefined;
  if (action === undefined) throw new UnsupportedWebhookEventTypeError(`${eventKey}.${type}`);
  const tag = change.get("ref").get("displayId").str();
  return msg(p.get("repository").get("name").str(), pushTagMessage(userLink(p), tag, null, action));
}

/**
 * One message per changed ref. `branches` (the URL option, the kit's shared branch filter) keeps
 * only changes to the listed branches.
 */
export function refsChanged(
  p: Wild,
  eventKey: string,
  branches: readonly string[] | undefined,
): WebhookMessage[] {
  const out: WebhookMessage[] = [];
  for (const change of p.get("changes").items()) {
    const ref = change.get("ref");
    const type = ref.get("type").str();
    if (type === "BRANCH") {
      const branch = ref.get("displayId").str();
      if (!isBranchNotifiable(branch, branches)) continue;
      out.push(branchChange(p, change, eventKey));
    } else if (type === "TAG") {
      out.push(tagChange(p, change, eventKey));
    } else {
      throw new UnsupportedWebhookEventTypeError(`${eventKey}.${type}`);
    }
  }
  return out;
}

/** "[a](…)", "[a](…) and [b](…)", "[a](…), [b](…) and [c](…)"; undefined without reviewers. */
function reviewersString(pr: Wild): string | undefined {
  const links = (pr.opt("reviewers")?.items() ?? []).map((r) => {
    const user = r.get("user");
    return `[${user.get("name").str()}](${selfHref(user)})`;
  });
  if (links.length === 0) return undefined;
  if (links.length === 1) return links[0];
  return `${links.slice(0, -1).join(", ")} and ${links[links.length - 1] ?? ""}`;
}

function prTopic(pr: Wild): string {
  return prOrIssueTopic(
    pr.get("toRef").get("repository").get("name").str(),
    "PR",
    pr.get("id").int(),
    pr.get("title").str(),
  );
}

function nullableText(w: Wild | undefined): string | null {
  return w === undefined || w.isNull() ? null : w.str();
}

/** Pull-request events: opened, modified, merged, declined, deleted, approved, … */
export function pullRequest(p: Wild, action: string, includeTitle: boolean): WebhookMessage {
  const pr = p.get("pullRequest");
  const user = userLink(p);
  const url = selfHref(pr);
  const number = pr.get("id").int();
  const title = includeTitle ? pr.get("title").str() : null;
  let body: string;
  if (action === "opened" || action === "modified") {
    const opened = action === "opened";
    body = pullRequestEventMessage({
      userName: user,
      action,
      url,
      number,
      targetBranch: opened ? pr.get("fromRef").get("displayId").str() : null,
      baseBranch: opened ? pr.get("toRef").get("displayId").str() : null,
      message: nullableText(pr.opt("description")),
      reviewer: reviewersString(pr) ?? null,
      title,
    });
  } else if (action === "merged") {
    body = pullRequestEventMessage({
      userName: user,
      action,
      url,
      number,
      targetBranch: pr.get("fromRef").get("displayId").str(),
      baseBranch: pr.get("toRef").get("displayId").str(),
      title,
    });
  } else if (action === "needs_work") {
    const link = title === null ? `[PR #${number}](${url})` : `[PR #${number} ${title}](${url})`;
    body = `${user} marked ${link} as "needs work".`;
  } else if (action === "reviewers_updated") {
    body = reviewersUpdated(pr, user, url, number, title);
  } else {
    body = pullRequestEventMessage({ userName: user, action, url, number, title });
  }
  return msg(prTopic(pr), body);
}

function reviewersUpdated(pr: Wild, user: string, url: string, number: number, title: string | null): string {
  const reviewers = reviewersString(pr);
  const link = title === null ? `[PR #${number}](${url})` : `[PR #${number} ${title}](${url})`;
  if (reviewers === undefined) {
    // Zulip ends the titled form with "." only when the title does not end with punctuation.
    if (title === null) return `${user} removed all reviewers from ${link}.`;
    return `${user} removed all reviewers from ${link}${endsWithPunctuation(title) ? "" : "."}`;
  }
  return `${user} reassigned ${link} to ${reviewers}.`;
}

/** Comments on a pull request: "commented on", "edited their comment on", "deleted their comment on". */
export function pullRequestComment(p: Wild, action: string, includeTitle: boolean): WebhookMessage {
  const pr = p.get("pullRequest");
  let text = p.get("comment").get("text").str();
  if (action === "deleted their comment on") text = `~~${text}~~`;
  return msg(
    prTopic(pr),
    pullRequestEventMessage({
      userName: userLink(p),
      action,
      url: selfHref(pr),
      number: pr.get("id").int(),
      message: text,
      title: includeTitle ? pr.get("title").str() : null,
    }),
  );
}
