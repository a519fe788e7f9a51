import type { Wild } from "../kit/index.js";
import {
  commitCommentMessage,
  issueEventMessage,
  pullRequestEventMessage,
  pushCommitsMessage,
  pushTagMessage,
  quoteContent,
  releaseEventMessage,
  removeBranchMessage,
} from "../kit/templates/git.js";
import type { CommitData } from "../kit/templates/git.js";
import { branchName, optText, projectHomepage, pusherName, repoName, tagName, userName } from "./payload.js";

/**
 * Builds the Markdown body of one GitLab event. `includeTitle` is true when the URL chose the topic:
 * the topic then no longer names the issue or merge request, so the link does.
 */
export type BodyFunction = (p: Wild, includeTitle: boolean) => string;

/** The SHA GitLab reports as `after` when a branch was deleted. */
const EMPTY_SHA = "0000000000000000000000000000000000000000";

// ---------------------------------------------------------------------------------------------
// Pushes and tags
// ---------------------------------------------------------------------------------------------

/** Push Hook: the commits pushed (compare link, committers), a new empty branch, or a deletion. */
export const pushBody: BodyFunction = (p) => {
  const after = optText(p, "after");
  if (after === EMPTY_SHA) return removeBranchMessage(pusherName(p), branchName(p));
  const compareUrl = `${projectHomepage(p)}/-/compare/${p.get("before").str()}...${p.get("after").str()}`;
  const commits: CommitData[] = p
    .get("commits")
    .items()
    .map((c) => ({
      name: c.get("author").get("name").str(),
      sha: c.get("id").str(),
      message: c.get("message").str(),
      url: c.get("url").str(),
    }));
  return pushCommitsMessage({ userName: pusherName(p), compareUrl, branchName: branchName(p), commits });
};

/** Tag Push Hook: a tag pushed, or removed (no `checkout_sha`). */
export const tagPushBody: BodyFunction = (p) =>
  pushTagMessage(
    pusherName(p),
    tagName(p),
    null,
    optText(p, "checkout_sha") !== undefined ? "pushed" : "removed",
  );

/** Test Hook: the "Test" button of GitLab's webhook settings. */
export const testHookBody: BodyFunction = (p) =>
  `Webhook for **${repoName(p)}** has been configured successfully! :tada:`;

// ---------------------------------------------------------------------------------------------
// Issues and merge requests
// ---------------------------------------------------------------------------------------------

/**
 * The assignees' full names: `assignees` (GitLab ≥ 11) or the single legacy `assignee`. Zulip puts
 * the name where git.py expects a username, for consistency with the rest of the message.
 */
function assignees(p: Wild): { username: string }[] {
  const list = p.opt("assignees");
  if (list !== undefined && list.items().length > 0) {
    return list.items().map((a) => ({ username: a.get("name").str() }));
  }
  const single = p.opt("assignee");
  return single === undefined ? [] : [{ username: single.get("name").str() }];
}

function titleIf(w: Wild, includeTitle: boolean): string | undefined {
  return includeTitle ? w.get("title").str() : undefined;
}

/** Issue opened: the description (hidden `<!-- -->` comments removed) and the assignees. */
export const issueCreatedBody: BodyFunction = (p, includeTitle) => {
  const attrs = p.get("object_attributes");
  const raw = optText(attrs, "description");
  const description = raw?.replace(/<!--[\s\S]*?-->/g, "").trimEnd();
  return issueEventMessage({
    userName: userName(p),
    action: "created",
    url: attrs.get("url").str(),
    number: attrs.get("iid").int(),
    message: description,
    assignees: assignees(p),
    title: titleIf(attrs, includeTitle),
  });
};

/** Issue closed, reopened or updated. */
export function issueEventBody(action: string): BodyFunction {
  return (p, includeTitle) => {
    const attrs = p.get("object_attributes");
    return issueEventMessage({
      userName: userName(p),
      action,
      url: attrs.get("url").str(),
      number: attrs.get("iid").int(),
      title: titleIf(attrs, includeTitle),
    });
  };
}

/** Merge request approved, unapproved, closed, reopened, merged (with its branches), or new commits. */
export function mergeRequestEventBody(action: string): BodyFunction {
  return (p, includeTitle) => {
    const mr = p.get("object_attributes");
    const merged = action === "merged";
    return pullRequestEventMessage({
      userName: userName(p),
      action,
      url: mr.get("url").str(),
      number: mr.get("iid").int(),
      targetBranch: merged ? mr.get("source_branch").str() : undefined,
      baseBranch: merged ? mr.get("target_branch").str() : undefined,
      type: "MR",
      title: titleIf(mr, includeTitle),
    });
  };
}

/** Merge request opened (with its branches) or updated: the description and the assignees. */
export function mergeRequestOpenOrUpdatedBody(action: string): BodyFunction {
  return (p, includeTitle) => {
    const mr = p.get("object_attributes");
    const created = action === "created";
    return pullRequestEventMessage({
      userName: userName(p),
      action,
      url: mr.get("url").str(),
      number: mr.get("iid").int(),
      targetBranch: created ? mr.get("source_branch").str() : undefined,
      baseBranch: created ? mr.get("target_branch").str() : undefined,
      message: optText(mr, "description"),
      assignees: assignees(p),
      type: "MR",
      title: titleIf(mr, includeTitle),
    });
  };
}

/** Merge request updated: new commits pushed (`oldrev` set), else its details changed. */
export const mergeRequestUpdatedBody: BodyFunction = (p, includeTitle) =>
  optText(p.get("object_attributes"), "oldrev") !== undefined
    ? mergeRequestEventBody("added commit(s) to")(p, includeTitle)
    : mergeRequestOpenOrUpdatedBody("updated")(p, includeTitle);

// ---------------------------------------------------------------------------------------------
// Comments (Note Hook)
// ---------------------------------------------------------------------------------------------

function commentedAction(p: Wild): string {
  return `[commented](${p.get("object_attributes").get("url").str()})`;
}

/** Comment on a commit. */
export const commentedCommitBody: BodyFunction = (p) => {
  const commit = p.get("commit");
  return commitCommentMessage(
    userName(p),
    commentedAction(p),
    commit.get("url").str(),
    commit.get("id").str(),
    p.get("object_attributes").get("note").str(),
  );
};

/** Comment on a merge request (older payloads lack the MR's `url`: it is then built). */
export const commentedMergeRequestBody: BodyFunction = (p, includeTitle) => {
  const mr = p.get("merge_request");
  const iid = mr.get("iid").int();
  return pullRequestEventMessage({
    userName: userName(p),
    action: `${commentedAction(p)} on`,
    url: optText(mr, "url") ?? `${projectHomepage(p)}/-/merge_requests/${iid}`,
    number: iid,
    message: p.get("object_attributes").get("note").str(),
    type: "MR",
    title: titleIf(mr, includeTitle),
  });
};

/** Comment on an issue, confidential or not (the `url` is built when the payload lacks it). */
export const commentedIssueBody: BodyFunction = (p, includeTitle) => {
  const issue = p.get("issue");
  const iid = issue.get("iid").int();
  return pullRequestEventMessage({
    userName: userName(p),
    action: `${commentedAction(p)} on`,
    url: optText(issue, "url") ?? `${projectHomepage(p)}/-/issues/${iid}`,
    number: iid,
    message: p.get("object_attributes").get("note").str(),
    type: "issue",
    title: titleIf(issue, includeTitle),
  });
};

/** Comment on a snippet; snippets carry their own `url` only since GitLab 16.1. */
export const commentedSnippetBody: BodyFunction = (p, includeTitle) => {
  const snippet = p.get("snippet");
  const id = snippet.get("id").int();
  const url = snippet.opt("url")?.str() ?? `${p.get("project").get("web_url").str()}/-/snippets/${id}`;
  return pullRequestEventMessage({
    userName: userName(p),
    action: `${commentedAction(p)} on`,
    url,
    number: id,
    message: p.get("object_attributes").get("note").str(),
    type: "snippet",
    title: titleIf(snippet, includeTitle),
  });
};

/** A design's file name and page, from the comment's `position.new_path` ("designs/issue-1/x.png"). */
export function designInfo(p: Wild): { name: string; url: string } {
  const comment = p.get("object_attributes");
  const position = comment.opt("position") ?? comment.get("original_position");
  const path = position.get("new_path").str();
  const match = /(?:^|\/)issue-(\d+)\/(.+)$/.exec(path);
  const name = match?.[2] ?? path.split("/").pop() ?? path;
  const issue = match?.[1] ?? String(p.optAt("issue", "iid")?.int() ?? "");
  return { name, url: `${projectHomepage(p)}/-/issues/${issue}/designs/${name}` };
}

/** Comment on a design (an image attached to an issue). */
export const commentedDesignBody: BodyFunction = (p) => {
  const comment = p.get("object_attributes");
  const design = designInfo(p);
  const commentUrl = optText(comment, "url") ?? `${design.url}#note_${comment.get("id").int()}`;
  const note = optText(comment, "note");
  const head = `${userName(p)} [commented](${commentUrl}) on design [${design.name}](${design.url})`;
  return note === undefined ? `${head}.` : `${head}:\n${quoteContent(note)}`;
};

// ---------------------------------------------------------------------------------------------
// Wiki, CI, releases, feature flags, deployments, tokens
// ---------------------------------------------------------------------------------------------

/** Wiki page created or updated. */
export function wikiPageBody(action: string): BodyFunction {
  return (p) => {
    const page = p.get("object_attributes");
    return `${userName(p)} ${action} [wiki page "${page.get("title").str()}"](${page.get("url").str()}).`;
  };
}

/** Job Hook (formerly Build Hook): a job created, started or finished. */
export const buildBody: BodyFunction = (p) => {
  const status = p.get("build_status").str();
  const action =
    status === "created" ? "was created" : status === "running" ? "started" : `changed status to ${status}`;
  return `Build ${p.get("build_name").str()} from ${p.get("build_stage").str()} stage ${action}.`;
};

/** Pipeline Hook: its status and each job's, with links to built artifacts. */
export const pipelineBody: BodyFunction = (p) => {
  const attrs = p.get("object_attributes");
  const status = attrs.get("status").str();
  const action =
    status === "pending" ? "was created" : status === "running" ? "started" : `changed status to ${status}`;
  const home = projectHomepage(p);
  const id = attrs.get("id").int();
  let builds = "";
  for (const build of p.get("builds").items()) {
    const buildUrl = `${home}/-/jobs/${build.get("id").int()}`;
    const artifact = optText(build.opt("artifacts_file"), "filename");
    const artifactLine =
      artifact === undefined
        ? ""
        : `  * built artifact: *${artifact}* [[Browse](${buildUrl}/artifacts/browse)|[Download](${buildUrl}/artifacts/download)]\n`;
    builds += `* [${build.get("name").str()}](${buildUrl}) - ${build.get("status").str()}\n${artifactLine}`;
  }
  return `[Pipeline (${id})](${home}/-/pipelines/${id}) ${action} with build(s):\n${builds.slice(0, -1)}.`;
};

/** "create" → "created", "update" → "updated", "delete" → "deleted". */
function pastTense(action: string): string {
  return action.endsWith("e") ? `${action}d` : `${action}ed`;
}

/** Release Hook: a release created or updated (with its notes), or deleted. */
export const releaseBody: BodyFunction = (p) => {
  const action = p.get("action").str();
  const deleted = action === "delete";
  let body = releaseEventMessage({
    action: pastTense(action),
    tagName: p.get("tag").str(),
    releaseName: p.get("name").str(),
    url: deleted ? null : p.get("url").str(),
  });
  const description = deleted ? undefined : optText(p, "description");
  if (description !== undefined) body += quoteContent(description);
  return body;
};

/** Feature Flag Hook: a flag switched on or off. */
export const featureFlagBody: BodyFunction = (p) => {
  const flag = p.get("object_attributes");
  const action = flag.get("active").bool() ? "activated" : "deactivated";
  const url = `${projectHomepage(p)}/-/feature_flags`;
  return `${p.get("user").get("username").str()} ${action} the feature flag [${flag.get("name").str()}](${url}).`;
};

/** Deployment Hook: a deployment started (with its commit), or finished. */
export const deploymentBody: BodyFunction = (p) => {
  const status = p.get("status").str();
  const url = p.get("deployable_url").str();
  if (status === "running") {
    const user = `[${p.get("user").get("name").str()}](${p.get("user_url").str()})`;
    const commitUrl = p.get("commit_url").str();
    const sha = (optText(p, "short_sha") ?? commitUrl.split("/").pop() ?? "").slice(0, 7);
    return `${user} started a new [deployment](${url}):\n> [${sha}](${commitUrl}) ${p.get("commit_title").str()}`;
  }
  const outcome: Record<string, string> = {
    success: "was successful",
    failed: "failed",
    canceled: "was canceled",
  };
  return `The [deployment](${url}) ${outcome[status] ?? `changed status to ${status}`}.`;
};

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "2024-01-26" → "Jan 26, 2024" (other text is kept as GitLab sent it). */
function formatExpiry(date: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(date);
  const month = m === null ? undefined : MONTHS[Number(m[2]) - 1];
  return m === null || month === undefined ? date : `${month} ${m[3]}, ${m[1]}`;
}

/**
 * The access-token settings page of the token's project or group. Group payloads carry no URL:
 * the page is built on gitlab.com from the group's `full_path`, as Zulip does.
 */
function accessTokensUrl(p: Wild): string {
  const project = p.opt("project");
  if (project !== undefined) return `${project.get("web_url").str()}/-/settings/access_tokens`;
  const group = p.get("group");
  const groupUrl = optText(group, "group_url") ?? `https://gitlab.com/groups/${group.get("full_path").str()}`;
  return `${groupUrl}/-/settings/access_tokens`;
}

/** Resource Access Token Hook: a project or group access token about to expire. */
export const resourceAccessTokenBody: BodyFunction = (p) => {
  const token = p.get("object_attributes");
  const expiry = formatExpiry(token.get("expires_at").text());
  return `The access token [${token.get("name").str()}](${accessTokensUrl(p)}) will expire on ${expiry}.`;
};

// ---------------------------------------------------------------------------------------------
// Emoji reactions (Emoji Hook: `event_type` award or revoke)
// ---------------------------------------------------------------------------------------------

/** What an emoji reaction was put on: its kind, number, title and page (GitLab's `awardable_type`). */
export interface Awardable {
  type: "issue" | "MR" | "snippet" | "comment" | "commit" | "item";
  number: number | string | null;
  title: string | null;
  url: string;
}

/**
 * The awardable of an Emoji Hook: an issue (`issue`, or `work_item` in newer GitLab), a merge
 * request, a snippet (`project_snippet` or `snippet`), a comment (`note`) or a commit.
 */
export function awardable(p: Wild): Awardable {
  const attrs = p.get("object_attributes");
  const url = optText(attrs, "awarded_on_url") ?? projectHomepage(p);
  switch (attrs.get("awardable_type").str()) {
    case "Issue":
    case "WorkItem": {
      const issue = p.opt("issue") ?? p.opt("work_item");
      return {
        type: "issue",
        number: issue?.get("iid").int() ?? null,
        title: optText(issue, "title") ?? null,
        url,
      };
    }
    case "MergeRequest": {
      const mr = p.opt("merge_request");
      return { type: "MR", number: mr?.get("iid").int() ?? null, title: optText(mr, "title") ?? null, url };
    }
    case "Snippet": {
      const snippet = p.opt("project_snippet") ?? p.opt("snippet");
      return {
        type: "snippet",
        number: snippet?.get("id").int() ?? null,
        title: optText(snippet, "title") ?? null,
        url,
      };
    }
    case "Note":
      return { type: "comment", number: null, title: null, url };
    case "Commit":
      return { type: "commit", number: null, title: null, url };
    default:
      return { type: "item", number: null, title: null, url };
  }
}

/** "Varun added the emoji :thumbsup:." (with a custom topic, "… to [MR #1](…)."). */
export const emojiBody: BodyFunction = (p, includeTitle) => {
  const verb = p.get("event_type").str() === "revoke" ? "removed" : "added";
  const head = `${userName(p)} ${verb} the emoji :${p.get("object_attributes").get("name").str()}:`;
  const item = awardable(p);
  // A reaction to a comment always links the comment: the topic names only what was commented.
  if (!includeTitle && item.type !== "comment") return `${head}.`;
  const label = item.number === null ? `a ${item.type}` : `${item.type} #${item.number}`;
  return `${head} ${verb === "added" ? "to" : "from"} [${label}](${item.url}).`;
};
