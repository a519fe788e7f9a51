/**
 * Message and topic templates shared by the git-style integrations (GitHub, Gitea, Gogs, GitLab,
 * Bitbucket, …): a port of Zulip's `zerver/lib/webhooks/git.py`, so every service words a push, a
 * pull request or an issue the same way, byte for byte.
 *
 * Everything here is a pure function of plain values (no payload access): integrations read their
 * payload with `Wild` and pass strings in. Names are stable; new helpers are added, never renamed.
 */

/** How many commits a push message lists before "[and N more commit(s)]". */
export const COMMITS_LIMIT = 20;
/** How many committers "Commits by …" names before grouping the rest as "others". */
export const PUSH_COMMITTERS_LIMIT_INFO = 3;

/** Python's `string.punctuation`. */
const PUNCTUATION = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";

/** True when the last character of `text` is ASCII punctuation (Python's `string.punctuation`). */
export function endsWithPunctuation(text: string): boolean {
  const last = text.slice(-1);
  return last !== "" && PUNCTUATION.includes(last);
}

// ---------------------------------------------------------------------------------------------
// Topics
// ---------------------------------------------------------------------------------------------

/** Zulip's longest topic; longer topics are cut and end with "...". */
export const MAX_TOPIC_LENGTH = 60;

/** Zulip's `truncate_topic`: at most 60 code points, the cut ones replaced by "...". */
export function truncateTopic(topic: string): string {
  const chars = Array.from(topic);
  if (chars.length <= MAX_TOPIC_LENGTH) return topic;
  return chars.slice(0, MAX_TOPIC_LENGTH - 3).join("") + "...";
}

/** `{repo} / {branch}` (TOPIC_WITH_BRANCH_TEMPLATE). */
export function branchTopic(repo: string, branch: string): string {
  return `${repo} / ${branch}`;
}

/** `{repo} / {type} #{id} {title}` (TOPIC_WITH_PR_OR_ISSUE_INFO_TEMPLATE), e.g. `repo / PR #1 Fix`. */
export function prOrIssueTopic(repo: string, type: string, id: number | string, title: string): string {
  return `${repo} / ${type} #${id} ${title}`;
}

/** `{repo} / {tag} {title}` (TOPIC_WITH_RELEASE_TEMPLATE). */
export function releaseTopic(repo: string, tag: string, title: string): string {
  return `${repo} / ${tag} ${title}`;
}

// ---------------------------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------------------------

/** The 11-character short SHA Zulip shows in commit lists. */
export function shortSha(sha: string): string {
  return sha.slice(0, 11);
}

/** `refs/heads/main` → `main` (Python's `ref.replace("refs/heads/", "")`). */
export function branchNameFromRef(ref: string): string {
  return ref.replace("refs/heads/", "");
}

/** `refs/tags/v1` → `v1`. */
export function tagNameFromRef(ref: string): string {
  return ref.replace("refs/tags/", "");
}

/** CONTENT_MESSAGE_TEMPLATE: `"\n~~~ quote\n{message}\n~~~"` (note the leading newline). */
export function quoteContent(message: string): string {
  return `\n~~~ quote\n${message}\n~~~`;
}

/** `get_setup_webhook_message`: "GitHub webhook has been successfully configured by alice." */
export function setupWebhookMessage(integration: string, userName?: string | null): string {
  let content = `${integration} webhook has been successfully configured`;
  if (userName) content += ` by ${userName}`;
  return `${content}.`;
}

/** "a", "a and b", "a, b and c" over `username`s (`get_assignee_string`). */
export function assigneeString(assignees: readonly { username: string }[]): string {
  const names = assignees.map((a) => a.username);
  if (names.length <= 1) return names[0] ?? "";
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1] ?? ""}`;
}

// ---------------------------------------------------------------------------------------------
// Pushes
// ---------------------------------------------------------------------------------------------

/** One commit of a push, in the common format every integration converts its commits to. */
export interface CommitData {
  /** Who is credited in "Commits by …" (username, else author name). */
  name: string;
  sha: string;
  url: string | null;
  /** Full message; only its first line is shown. */
  message: string;
}

/** `[(name, count)]` sorted by count then name, the tail beyond 3 folded into ("others", n). */
export function allCommitters(commits: readonly CommitData[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const c of commits) counts.set(c.name, (counts.get(c.name) ?? 0) + 1);
  let items = [...counts.entries()].sort((a, b) =>
    a[1] !== b[1] ? b[1] - a[1] : a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0,
  );
  if (items.length > PUSH_COMMITTERS_LIMIT_INFO) {
    const others = items.slice(PUSH_COMMITTERS_LIMIT_INFO).reduce((sum, [, n]) => sum + n, 0);
    items = items.slice(0, PUSH_COMMITTERS_LIMIT_INFO);
    items.push(["others", others]);
  }
  return items;
}

/**
 * The bulleted commit list: `* {first line} ([{short sha}]({url}))`, at most 20 rows, then
 * `[and N more commit(s)]` (or `[and more commit(s)]` when the service truncated the list itself).
 */
export function commitsContent(commits: readonly CommitData[], isTruncated = false): string {
  let content = "";
  for (const c of commits.slice(0, COMMITS_LIMIT)) {
    const firstLine = c.message.split("\n")[0] ?? "";
    content += `* ${firstLine} ([${shortSha(c.sha)}](${c.url ?? "None"}))\n`;
  }
  if (commits.length > COMMITS_LIMIT) {
    content += `[and ${commits.length - COMMITS_LIMIT} more commit(s)]`;
  } else if (isTruncated) {
    content += "[and more commit(s)]";
  }
  return content.trimEnd();
}

export interface PushCommitsOptions {
  userName: string;
  /** Link on "pushed"; null/undefined/"" shows plain "pushed". */
  compareUrl?: string | null | undefined;
  branchName: string;
  commits: readonly CommitData[];
  /** The service sent fewer commits than were pushed (no count known). */
  isTruncated?: boolean;
  /** The branch was deleted (with no commits: "deleted the branch"). */
  deleted?: boolean;
  /** Say "force pushed" instead of "pushed". */
  forcePush?: boolean;
  /** Appends " of [{name}]({url})" after the branch (GitHub's include_repository_name). */
  repository?: { name: string; url: string } | undefined;
}

/**
 * `get_push_commits_event_message`: "alice [pushed](compare) 2 commits to branch main. Commits by
 * bob (1) and carol (1).\n\n* msg ([abcdef12345](url))…"; "deleted the branch" and
 * "[pushed](url) the branch" forms when there are no commits.
 */
export function pushCommitsMessage(o: PushCommitsOptions): string {
  const { userName, compareUrl, branchName, commits } = o;
  if (commits.length === 0 && o.deleted === true) {
    return `${userName} [deleted](${compareUrl ?? "None"}) the branch ${branchName}.`;
  }
  const pushType = o.forcePush === true ? "force pushed" : "pushed";
  if (commits.length === 0) {
    return compareUrl
      ? `${userName} [${pushType}](${compareUrl}) the branch ${branchName}.`
      : `${userName} ${pushType} the branch ${branchName}.`;
  }
  const n = commits.length;
  const commitWord = n > 1 ? "commits" : "commit";
  const pushedText = compareUrl
    ? `[${pushType}](${compareUrl}) ${n} ${commitWord}`
    : `${pushType} ${n} ${commitWord}`;
  const repoInfo = o.repository ? ` of [${o.repository.name}](${o.repository.url})` : "";
  const base = `${userName} ${pushedText} to branch ${branchName}${repoInfo}.`;
  const list = commitsContent(commits, o.isTruncated ?? false);
  const committers = allCommitters(commits);
  const first = committers[0];
  if (committers.length === 1 && first !== undefined && first[0] === userName) {
    return `${base}\n\n${list}`.trimEnd();
  }
  let details = first === undefined ? "" : `${first[0]} (${first[1]})`;
  for (const [name, count] of committers.slice(1, -1)) details = `${details}, ${name} (${count})`;
  const last = committers[committers.length - 1];
  if (committers.length > 1 && last !== undefined) details = `${details} and ${last[0]} (${last[1]})`;
  return `${base} Commits by ${details}.\n\n${list}`.trimEnd();
}

/** "alice [force pushed](url) to branch main. Head is now abc." (FORCE_PUSH_COMMITS_MESSAGE_TEMPLATE). */
export function forcePushCommitsMessage(
  userName: string,
  url: string,
  branchName: string,
  head: string,
): string {
  return `${userName} [force pushed](${url}) to branch ${branchName}. Head is now ${head}.`;
}

/** "alice created [main](url) branch." or, without a URL, "alice created main branch." */
export function createBranchMessage(
  userName: string,
  url: string | null | undefined,
  branchName: string,
): string {
  return url === null || url === undefined
    ? `${userName} created ${branchName} branch.`
    : `${userName} created [${branchName}](${url}) branch.`;
}

/** "alice deleted branch main." */
export function removeBranchMessage(userName: string, branchName: string): string {
  return `${userName} deleted branch ${branchName}.`;
}

/**
 * "alice pushed tag [v1](url)." (`get_push_tag_event_message`); `action` may be "removed" etc.
 * The final "." is left out when the tag name ends with punctuation.
 */
export function pushTagMessage(
  userName: string,
  tagName: string,
  tagUrl?: string | null,
  action = "pushed",
): string {
  const tag = tagUrl ? `[${tagName}](${tagUrl})` : tagName;
  const message = `${userName} ${action} tag ${tag}`;
  return endsWithPunctuation(tagName) ? message : `${message}.`;
}

/**
 * `get_commits_comment_action_message`: "alice [commented](url) on [abcdef12345](commit url):" plus
 * the quoted comment, or "." without one. `action` is already Markdown ("[commented](url)").
 */
export function commitCommentMessage(
  userName: string,
  action: string,
  commitUrl: string,
  sha: string,
  message?: string | null,
): string {
  let content = `${userName} ${action} on [${shortSha(sha)}](${commitUrl})`;
  content += message ? ":" : ".";
  if (message) content += quoteContent(message);
  return content;
}

// ---------------------------------------------------------------------------------------------
// Pull requests and issues
// ---------------------------------------------------------------------------------------------

export interface PullRequestEventOptions {
  userName: string;
  /** The verb, or a Markdown phrase such as "[commented](url) on". */
  action: string;
  url: string;
  number?: number | string | null | undefined;
  /** Source branch: with `baseBranch`, adds "from `target` to `base`". */
  targetBranch?: string | null | undefined;
  baseBranch?: string | null | undefined;
  /** Body quoted after a ":" (empty/null: none, and the sentence ends with "."). */
  message?: string | null | undefined;
  /** Adds "(assigned to {assignee})". */
  assignee?: string | null | undefined;
  /** Adds "(assigned to a, b and c)"; wins over `assignee`. */
  assignees?: readonly { username: string }[] | null | undefined;
  /** Who was (un)assigned: "alice assigned bob to [PR #1](…)" / "unassigned bob from". */
  assigneeUpdated?: string | null | undefined;
  /** Adds "(assigned reviewers: {reviewer})". */
  reviewer?: string | null | undefined;
  /** "PR" (default), "issue", "MR", "PR review", … */
  type?: string;
  /** Shown inside the link when the user chose a topic (the topic no longer names the item). */
  title?: string | null | undefined;
}

/**
 * `get_pull_request_event_message`: "{user} {action} [{type} #{id} {title}]({url})", then branch,
 * assignee or reviewer info, then ":" and the quoted body, or "." — except that a link ending in a
 * title that already ends with punctuation gets no extra ".".
 */
export function pullRequestEventMessage(o: PullRequestEventOptions): string {
  const type = o.type ?? "PR";
  const id = o.number === null || o.number === undefined ? "" : ` #${o.number}`;
  const title = o.title === null || o.title === undefined ? "" : ` ${o.title}`;
  let updated = "";
  if (o.assigneeUpdated) {
    if (o.action === "assigned") updated = ` ${o.assigneeUpdated} to`;
    else if (o.action === "unassigned") updated = ` ${o.assigneeUpdated} from`;
  }
  let main = `${o.userName} ${o.action}${updated} [${type}${id}${title}](${o.url})`;
  const hasBranches = Boolean(o.targetBranch) && Boolean(o.baseBranch);
  if (hasBranches) main += ` from \`${o.targetBranch ?? ""}\` to \`${o.baseBranch ?? ""}\``;
  const hasAssignees = o.assignees !== null && o.assignees !== undefined && o.assignees.length > 0;
  if (hasAssignees) main += ` (assigned to ${assigneeString(o.assignees ?? [])})`;
  else if (o.assignee) main += ` (assigned to ${o.assignee})`;
  else if (o.reviewer) main += ` (assigned reviewers: ${o.reviewer})`;
  const punctuation = o.message ? ":" : ".";
  if (
    hasAssignees ||
    Boolean(o.assignee) ||
    Boolean(o.reviewer) ||
    hasBranches ||
    o.title === null ||
    o.title === undefined ||
    !endsWithPunctuation(o.title)
  ) {
    main += punctuation;
  }
  if (o.message) main += "\n" + quoteContent(o.message);
  return main.trimEnd();
}

/** `get_issue_event_message`: the pull-request message with type "issue". */
export function issueEventMessage(
  o: Omit<PullRequestEventOptions, "type" | "targetBranch" | "baseBranch">,
): string {
  return pullRequestEventMessage({ ...o, type: "issue" });
}

export interface IssueLabelOptions {
  userName: string;
  userUrl: string;
  /** True for "added … to", false for "removed … from". */
  added: boolean;
  labelName: string;
  number: number | string;
  url: string;
  /** Shown in the link when given: "[Issue #9 Title](url)". */
  title?: string | null | undefined;
}

/** "[alice](user url) added the bug label to [Issue #9](url)." (and "removed … from"). */
export function issueLabeledMessage(o: IssueLabelOptions): string {
  const action = o.added ? "added" : "removed";
  const preposition = o.added ? "to" : "from";
  const title = o.title === null || o.title === undefined ? "" : ` ${o.title}`;
  return `[${o.userName}](${o.userUrl}) ${action} the ${o.labelName} label ${preposition} [Issue #${o.number}${title}](${o.url}).`;
}

export interface IssueMilestoneOptions {
  userName: string;
  userUrl: string;
  /** True for "added milestone … to", false for "removed milestone … from". */
  added: boolean;
  milestoneName: string;
  milestoneUrl: string;
  number: number | string;
  url: string;
  title?: string | null | undefined;
}

/** "[alice](user url) added milestone [m1](milestone url) to [issue #6](url)." */
export function issueMilestonedMessage(o: IssueMilestoneOptions): string {
  const action = o.added ? "added" : "removed";
  const preposition = o.added ? "to" : "from";
  const title = o.title === null || o.title === undefined ? "" : ` ${o.title}`;
  return `[${o.userName}](${o.userUrl}) ${action} milestone [${o.milestoneName}](${o.milestoneUrl}) ${preposition} [issue #${o.number}${title}](${o.url}).`;
}

// ---------------------------------------------------------------------------------------------
// Releases
// ---------------------------------------------------------------------------------------------

export interface ReleaseEventOptions {
  userName?: string | null | undefined;
  action: string;
  tagName: string;
  releaseName: string;
  url?: string | null | undefined;
}

/**
 * "alice published release [v1](url) for tag v1."; without a user, "Release [v1](url) for tag v1
 * was published." (and without a URL too, "Release v1 for tag v1 was published.").
 */
export function releaseEventMessage(o: ReleaseEventOptions): string {
  if (o.userName) {
    return `${o.userName} ${o.action} release [${o.releaseName}](${o.url ?? "None"}) for tag ${o.tagName}.`;
  }
  return o.url
    ? `Release [${o.releaseName}](${o.url}) for tag ${o.tagName} was ${o.action}.`
    : `Release ${o.releaseName} for tag ${o.tagName} was ${o.action}.`;
}
