import { branchesOption, isBranchNotifiable } from "../kit/branches.js";
import { MissingHttpEventHeaderError, UnsupportedWebhookEventTypeError } from "../../src/errors.js";
import { defineIntegration } from "../kit/index.js";
import { Wild } from "../kit/index.js";
import type { Handler, WebhookMessage } from "../kit/index.js";
import {
  branchTopic,
  commitCommentMessage,
  endsWithPunctuation,
  forcePushCommitsMessage,
  issueEventMessage,
  prOrIssueTopic,
  pullRequestEventMessage,
  pushCommitsMessage,
  pushTagMessage,
  removeBranchMessage,
  shortSha,
  truncateTopic,
} from "../kit/templates/git.js";

/** The client name Zulip's messages use for this integration ("… by the Bitbucket2 webhook"). */
const WEBHOOK_NAME = "Bitbucket2";

/** `pullrequest:<action>` values of X-Event-Key this integration reports. */
const PULL_REQUEST_ACTIONS = [
  "approved",
  "unapproved",
  "created",
  "updated",
  "rejected",
  "fulfilled",
  "comment_created",
  "comment_updated",
  "comment_deleted",
];

/** Python's `key in dict`: the key is present, whatever its value. */
function hasKey(p: Wild, key: string): boolean {
  return p.isObject() && p.keys().includes(key);
}

/**
 * Zulip's `get_type`: Bitbucket Cloud names the event in X-Event-Key, but Zulip tells most events
 * apart by the payload's shape and needs the header only for pull requests and `repo:updated`.
 */
export function bitbucket2EventType(header: string | undefined, p: Wild): string {
  if (hasKey(p, "push")) return "push";
  if (hasKey(p, "fork")) return "fork";
  if (hasKey(p, "comment") && hasKey(p, "commit")) return "commit_comment";
  if (hasKey(p, "commit_status")) return "change_commit_status";
  if (hasKey(p, "issue")) {
    if (hasKey(p, "changes")) return "issue_updated";
    if (hasKey(p, "comment")) return "issue_commented";
    return "issue_created";
  }
  if (header === undefined) {
    const err = new MissingHttpEventHeaderError("X-Event-Key");
    err.webhookName = "BitBucket";
    throw err;
  }
  if (hasKey(p, "pullrequest")) {
    const action = /^pullrequest:(.*)$/.exec(header)?.[1];
    if (action !== undefined && PULL_REQUEST_ACTIONS.includes(action)) return `pull_request_${action}`;
  } else if (header === "repo:updated") {
    return header;
  }
  throw new UnsupportedWebhookEventTypeError(header, WEBHOOK_NAME);
}

// ---------------------------------------------------------------------------------------------
// Payload readers
// ---------------------------------------------------------------------------------------------

/**
 * A user's name. Since GDPR, Bitbucket sends no username, only `display_name` or `nickname`; with
 * neither, "Unknown user".
 */
export function userInfo(user: Wild): string {
  if (hasKey(user, "display_name")) return user.get("display_name").str();
  if (hasKey(user, "nickname")) return user.get("nickname").str();
  return "Unknown user";
}

function actorInfo(p: Wild): string {
  return userInfo(p.get("actor"));
}

function htmlUrl(w: Wild): string {
  return w.at("links", "html", "href").str();
}

function repoName(p: Wild): string {
  return p.get("repository").get("name").str();
}

/** The commit's author: their Bitbucket account, else the first word of `author.raw`. */
function commitAuthorName(commit: Wild): string {
  const author = commit.get("author");
  if (hasKey(author, "user")) return userInfo(author.get("user"));
  return author.get("raw").str().trim().split(/\s+/)[0] ?? "";
}

/** The new state of a push change, or the old one for deletions. */
function changeRef(change: Wild): Wild {
  const next = change.get("new");
  return Wild.truthy(next) ? next : change.get("old");
}

function isTagChange(change: Wild): boolean {
  return changeRef(change).get("type").str() === "tag";
}

/** The branch of the push's last change (null for tags), which the `branches` option filters. */
function pushBranchName(p: Wild): string | null {
  const changes = p.get("push").get("changes").items();
  const last = changes[changes.length - 1];
  if (last === undefined || isTagChange(last)) return null;
  return changeRef(last).get("name").str();
}

// ---------------------------------------------------------------------------------------------
// Pushes
// ---------------------------------------------------------------------------------------------

function pushTagBody(p: Wild, change: Wild): string {
  const pushed = Wild.truthy(change.get("new"));
  const tag = pushed ? change.get("new") : change.get("old");
  return pushTagMessage(actorInfo(p), tag.get("name").str(), htmlUrl(tag), pushed ? "pushed" : "removed");
}

function normalPushBody(p: Wild, change: Wild): string {
  const commits = change
    .get("commits")
    .items()
    .map((c) => ({
      name: commitAuthorName(c),
      sha: c.get("hash").str(),
      url: htmlUrl(c),
      message: c.get("message").str(),
    }));
  return pushCommitsMessage({
    userName: actorInfo(p),
    compareUrl: htmlUrl(change),
    branchName: change.get("new").get("name").str(),
    commits,
    isTruncated: change.get("truncated").bool(),
  });
}

/** One message per change: tags pushed or removed, branches deleted, force-pushed or pushed to. */
function pushMessages(p: Wild, branches: string[] | undefined): WebhookMessage[] | null {
  const changes = p.get("push").get("changes").items();
  if (changes.length === 0) return null;
  const branch = pushBranchName(p);
  if (branch !== null && !isBranchNotifiable(branch, branches)) return null;
  const repo = repoName(p);
  return changes.map((change) => {
    if (isTagChange(change)) return { topic: truncateTopic(repo), body: pushTagBody(p, change) };
    const topic = truncateTopic(branchTopic(repo, changeRef(change).get("name").str()));
    let body: string;
    if (!Wild.truthy(change.get("new"))) {
      body = removeBranchMessage(actorInfo(p), change.get("old").get("name").str());
    } else if (change.get("forced").bool()) {
      const head = change.get("new");
      body = forcePushCommitsMessage(
        actorInfo(p),
        htmlUrl(change),
        head.get("name").str(),
        head.get("target").get("hash").str(),
      );
    } else {
      body = normalPushBody(p, change);
    }
    return { topic, body };
  });
}

// ---------------------------------------------------------------------------------------------
// Other events: one message each
// ---------------------------------------------------------------------------------------------

type BodyFunction = (p: Wild, includeTitle: boolean) => string;

const forkBody: BodyFunction = (p) => {
  const fork = p.get("fork");
  return `${actorInfo(p)} forked the repository into [${fork.get("full_name").str()}](${htmlUrl(fork)}).`;
};

const commitCommentBody: BodyFunction = (p) => {
  const comment = p.get("comment");
  const commit = comment.get("commit");
  return commitCommentMessage(
    actorInfo(p),
    `[commented](${htmlUrl(comment)})`,
    htmlUrl(commit),
    commit.get("hash").str(),
    comment.at("content", "raw").str(),
  );
};

/** A build system reporting on a commit: "[System key](url) changed status of [sha](…) to STATE." */
const commitStatusBody: BodyFunction = (p) => {
  const status = p.get("commit_status");
  const commitId = status.at("links", "commit", "href").str().split("/").pop() ?? "";
  const commitInfo = `[${shortSha(commitId)}](${htmlUrl(p.get("repository"))}/commits/${commitId})`;
  return `[System ${status.get("key").str()}](${status.get("url").str()}) changed status of ${commitInfo} to ${status.get("state").str()}.`;
};

function issueActionBody(action: string): BodyFunction {
  return (p, includeTitle) => {
    const issue = p.get("issue");
    let assignee: string | undefined;
    let message: string | undefined;
    if (action === "created") {
      const who = issue.opt("assignee");
      if (Wild.truthy(who) && who !== undefined) assignee = userInfo(who);
      message = issue.at("content", "raw").str();
    }
    return issueEventMessage({
      userName: actorInfo(p),
      action,
      url: htmlUrl(issue),
      number: issue.get("id").int(),
      message,
      assignee,
      title: includeTitle ? issue.get("title").str() : undefined,
    });
  };
}

const issueCommentedBody: BodyFunction = (p, includeTitle) =>
  issueActionBody(`[commented](${htmlUrl(p.get("comment"))}) on`)(p, includeTitle);

/** Approved, unapproved, rejected (declined) or merged ("fulfilled", with its branches). */
function pullRequestActionBody(action: string): BodyFunction {
  return (p, includeTitle) => {
    const pr = p.get("pullrequest");
    const merged = action === "merged";
    return pullRequestEventMessage({
      userName: actorInfo(p),
      action,
      url: htmlUrl(pr),
      number: pr.get("id").int(),
      targetBranch: merged ? pr.at("source", "branch", "name").str() : undefined,
      baseBranch: merged ? pr.at("destination", "branch", "name").str() : undefined,
      title: includeTitle ? pr.get("title").str() : undefined,
    });
  };
}

/** Created (with its branches) or updated: the description, and the first reviewer as assignee. */
function pullRequestCreatedOrUpdatedBody(action: string): BodyFunction {
  return (p, includeTitle) => {
    const pr = p.get("pullrequest");
    const reviewers = pr.opt("reviewers")?.items() ?? [];
    const created = action === "created";
    return pullRequestEventMessage({
      userName: actorInfo(p),
      action,
      url: htmlUrl(pr),
      number: pr.get("id").int(),
      targetBranch: created ? pr.at("source", "branch", "name").str() : undefined,
      baseBranch: created ? pr.at("destination", "branch", "name").str() : undefined,
      message: pr.get("description").str(),
      assignee: reviewers[0] === undefined ? undefined : userInfo(reviewers[0]),
      title: includeTitle ? pr.get("title").str() : undefined,
    });
  };
}

function pullRequestCommentBody(action: string): BodyFunction {
  return (p, includeTitle) => {
    const pr = p.get("pullrequest");
    return pullRequestEventMessage({
      userName: actorInfo(p),
      action: `${action} on`,
      url: htmlUrl(pr),
      number: pr.get("id").int(),
      message: p.get("comment").at("content", "raw").str(),
      title: includeTitle ? pr.get("title").str() : undefined,
    });
  };
}

const pullRequestCommentCreatedBody: BodyFunction = (p, includeTitle) =>
  pullRequestCommentBody(`[commented](${htmlUrl(p.get("comment"))})`)(p, includeTitle);

function pullRequestCommentChangedBody(action: string): BodyFunction {
  return (p, includeTitle) =>
    pullRequestCommentBody(`${action} a [comment](${htmlUrl(p.get("comment"))})`)(p, includeTitle);
}

/** The repository settings changed: one line per field, "from **old** to **new**" when it had one. */
const repoUpdatedBody: BodyFunction = (p) => {
  const repo = repoName(p);
  const actor = actorInfo(p);
  const changes = p.get("changes");
  let body = "";
  for (const field of ["website", "name", "links", "language", "full_name", "description"]) {
    const change = changes.opt(field);
    const next = change?.opt("new");
    const old = change?.opt("old");
    if (!Wild.truthy(next) || next === undefined || typeof next.value !== "string") continue;
    const label = field === "full_name" ? "full name" : field;
    const value = next.str();
    const line =
      Wild.truthy(old) && old !== undefined
        ? `${actor} changed the ${label} of the **${repo}** repo from **${old.text()}** to **${value}**`
        : `${actor} changed the ${label} of the **${repo}** repo to **${value}**`;
    body += `${endsWithPunctuation(value) ? line : `${line}.`}\n`;
  }
  return body;
};

/** Zulip's GET_SINGLE_MESSAGE_BODY_DEPENDING_ON_TYPE_MAPPER. */
const BODIES = {
  fork: forkBody,
  commit_comment: commitCommentBody,
  change_commit_status: commitStatusBody,
  issue_updated: issueActionBody("updated"),
  issue_created: issueActionBody("created"),
  issue_commented: issueCommentedBody,
  pull_request_created: pullRequestCreatedOrUpdatedBody("created"),
  pull_request_updated: pullRequestCreatedOrUpdatedBody("updated"),
  pull_request_approved: pullRequestActionBody("approved"),
  pull_request_unapproved: pullRequestActionBody("unapproved"),
  pull_request_fulfilled: pullRequestActionBody("merged"),
  pull_request_rejected: pullRequestActionBody("rejected"),
  pull_request_comment_created: pullRequestCommentCreatedBody,
  pull_request_comment_updated: pullRequestCommentChangedBody("updated"),
  pull_request_comment_deleted: pullRequestCommentChangedBody("deleted"),
  "repo:updated": repoUpdatedBody,
} satisfies Record<string, BodyFunction>;

/** Bitbucket's event names (Zulip's ALL_EVENT_TYPES): the keys of the event table. */
type Bitbucket2Event = "push" | keyof typeof BODIES;

/** `{repo} / PR #{id} {title}` for pull requests, `{repo} / issue #{id} {title}`, else the repo. */
function eventTopic(type: string, p: Wild): string {
  const repo = repoName(p);
  if (type.startsWith("pull_request")) {
    const pr = p.get("pullrequest");
    return prOrIssueTopic(repo, "PR", pr.get("id").int(), pr.get("title").str());
  }
  if (type.startsWith("issue")) {
    const issue = p.get("issue");
    return prOrIssueTopic(repo, "issue", issue.get("id").int(), issue.get("title").str());
  }
  return repo;
}

/** The event types `only_events` / `exclude_events` match (Zulip's ALL_EVENT_TYPES). */
export const BITBUCKET2_EVENT_TYPES = ["push", ...Object.keys(BODIES)] as Bitbucket2Event[];

interface Bitbucket2Options extends Record<string, unknown> {
  branches?: string[];
}

function singleMessageHandler(type: string, body: BodyFunction): Handler<Bitbucket2Options> {
  return (p, ctx): WebhookMessage => ({
    topic: truncateTopic(eventTopic(type, p).trim()),
    body: body(p, ctx.customTopic !== undefined).trimEnd(),
  });
}

export default defineIntegration<Bitbucket2Options, Bitbucket2Event>({
  name: "bitbucket2",
  displayName: "Bitbucket",
  categories: ["version-control"],
  description:
    "Posts Bitbucket Cloud pushes, tags, branch deletions, pull requests and their comments and approvals, issues, forks, commit statuses and repository changes.",
  // With a secret in the bot's config (bitbucket2_secret or webhook_secret): Bitbucket's HMAC-SHA256.
  signature: { kind: "hmac", header: "X-Hub-Signature", algorithm: "sha256", prefix: "sha256=" },
  // The header is needed only for the events the payload does not tell apart (pull requests).
  eventHeader: { name: "X-Event-Key", optional: true },
  classify: ({ header, payload }) => bitbucket2EventType(header, payload),
  options: {
    branches: branchesOption,
  },
  events: {
    push: (p, ctx) => pushMessages(p, ctx.options.branches),
    ...(Object.fromEntries(
      Object.entries(BODIES).map(([type, body]) => [type, singleMessageHandler(type, body)]),
    ) as Record<keyof typeof BODIES, Handler<Bitbucket2Options>>),
  },
});
