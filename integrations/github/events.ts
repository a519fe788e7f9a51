import { isBranchNotifiable } from "../kit/branches.js";
import type { WebhookMessage, Wild } from "../kit/index.js";
import { branchNameFromRef, branchTopic } from "../kit/templates/git.js";
import { checkSuiteMessage, workflowJobMessage, workflowRunMessage } from "./actions.js";
import * as m from "./messages.js";
import { organizationName, repositoryName } from "./payload.js";
import { sponsorsBody } from "./sponsors-messages.js";
import {
  deploymentTopic,
  discussionTopic,
  includeTitle,
  issueTopic,
  msg,
  pingTopic,
  pullRequestTopic,
  repoTopic,
} from "./topics.js";
import type { GitHubEventEntry, GitHubHandler, GitHubSource } from "./types.js";

/**
 * GitHub's vocabulary in one table, keyed by Zulip's event names (which `only_events` /
 * `exclude_events` match): where each event comes from and the one function that words it. The
 * classifier, the event union and ALL_EVENT_TYPES derive from it; a new event is one entry.
 * A source naming actions or a payload test wins over one naming only the header.
 */

/** A push of commits to a branch (as opposed to a tag). */
export function isCommitPush(p: Wild): boolean {
  return p.get("ref").str().startsWith("refs/heads/");
}

/** A push to one of the merge queue's `gh-readonly-queue/…` branches. */
export function isMergeQueuePush(p: Wild): boolean {
  const ref = p.opt("ref");
  return typeof ref?.value === "string" && ref.value.startsWith("refs/heads/gh-readonly-queue/");
}

/** An `issues.opened` delivery for an issue transferred from another repository. */
export function isOpenedViaTransfer(p: Wild): boolean {
  return p.opt("changes")?.has("old_issue") === true;
}

const pullRequest = (actions: readonly string[]): GitHubSource => ({ header: "pull_request", actions });
const issues = (actions?: readonly string[], when?: (p: Wild) => boolean): GitHubSource => ({
  header: "issues",
  ...(actions !== undefined ? { actions } : {}),
  ...(when !== undefined ? { when } : {}),
});
/** GitHub Sponsors: `sponsorship` + action; Zulip also accepts the bare action as the header. */
const sponsorship = (action: string): GitHubSource[] => [
  { header: "sponsorship", actions: [action] },
  { header: action },
];

const pushCommits: GitHubHandler = (p, ctx) => {
  const branch = branchNameFromRef(p.get("ref").str());
  if (!isBranchNotifiable(branch, ctx.options.branches)) return null;
  return msg(
    branchTopic(repositoryName(p), branch),
    m.pushCommitsBody(p, ctx.options.include_repository_name === true),
  );
};
const sponsors: GitHubHandler = (p, ctx) => msg("sponsors", sponsorsBody(ctx.event, p));

/**
 * resolve_topics: an issue or pull request closed (or merged) resolves its topic, one reopened
 * unresolves it.
 */
function lifecycle(p: Wild, message: { topic: string; body: string }): WebhookMessage {
  const action = p.opt("action")?.text();
  if (action === "closed") return { ...message, resolves: true };
  if (action === "reopened") return { ...message, resolves: false };
  return message;
}

/**
 * edit_status_messages: a commit's status, a check's or a deployment's new state changes only the
 * status of `of`, in a topic that holds many of them (the repository's, its checks').
 */
function statusOnly(
  message: WebhookMessage | { topic: string; body: string } | null,
  of: string,
): WebhookMessage | null {
  return message === null ? null : { ...message, statusOnly: true, statusOf: of };
}

/** Parts of a payload joined into an object's name (absent parts left out). */
function objectOf(...parts: (Wild | undefined)[]): string {
  return parts.map((w) => w?.text() ?? "").join(" ");
}

const EVENTS = {
  // GitHub Actions and checks, beyond Zulip.
  workflow_run: { from: { header: "workflow_run" }, render: workflowRunMessage },
  workflow_job: { from: { header: "workflow_job" }, render: workflowJobMessage },
  check_suite: {
    from: { header: "check_suite" },
    render: (p) =>
      statusOnly(
        checkSuiteMessage(p),
        objectOf(p.optAt("check_suite", "head_sha"), p.optAt("check_suite", "app", "name")),
      ),
  },
  push_commits: { from: { header: "push", when: isCommitPush }, render: pushCommits },
  push_tags: { from: { header: "push" }, render: (p) => msg(repoTopic(p), m.pushTagsBody(p)) },
  opened_pull_request: {
    from: pullRequest(["opened", "reopened"]),
    render: (p, ctx) =>
      lifecycle(p, msg(pullRequestTopic(p), m.openedOrUpdatedPullRequestBody(p, includeTitle(ctx)))),
  },
  updated_pull_request: {
    from: pullRequest(["synchronize", "edited"]),
    render: (p, ctx) => msg(pullRequestTopic(p), m.openedOrUpdatedPullRequestBody(p, includeTitle(ctx))),
  },
  closed_pull_request: {
    from: pullRequest(["closed"]),
    render: (p, ctx) => lifecycle(p, msg(pullRequestTopic(p), m.closedPullRequestBody(p, includeTitle(ctx)))),
  },
  assigned_or_unassigned_pull_request: {
    from: pullRequest(["assigned", "unassigned"]),
    render: (p, ctx) => msg(pullRequestTopic(p), m.assignedOrUnassignedPullRequestBody(p, includeTitle(ctx))),
  },
  pull_request_review_requested: {
    from: pullRequest(["review_requested"]),
    render: (p, ctx) => msg(pullRequestTopic(p), m.reviewRequestedBody(p, includeTitle(ctx))),
  },
  pull_request_ready_for_review: {
    from: pullRequest(["ready_for_review"]),
    render: (p) => msg(pullRequestTopic(p), m.readyForReviewBody(p)),
  },
  locked_or_unlocked_pull_request: {
    from: pullRequest(["locked", "unlocked"]),
    render: (p) => msg(pullRequestTopic(p), m.lockedOrUnlockedPullRequestBody(p)),
  },
  pull_request_auto_merge: {
    from: pullRequest(["auto_merge_enabled", "auto_merge_disabled"]),
    render: (p) => msg(pullRequestTopic(p), m.autoMergeBody(p)),
  },
  labeled_or_unlabeled_pull_request: {
    from: pullRequest(["labeled", "unlabeled"]),
    render: (p, ctx) => msg(pullRequestTopic(p), m.pullRequestLabeledBody(p, includeTitle(ctx))),
  },
  milestoned_or_demilestoned_pull_request: {
    from: pullRequest(["milestoned", "demilestoned"]),
    render: (p, ctx) => msg(pullRequestTopic(p), m.pullRequestMilestonedBody(p, includeTitle(ctx))),
  },
  enqueued_or_dequeued_pull_request: {
    from: pullRequest(["enqueued", "dequeued"]),
    render: (p) => msg(pullRequestTopic(p), m.pullRequestMergeQueueBody(p)),
  },
  converted_to_draft_pull_request: {
    from: pullRequest(["converted_to_draft"]),
    render: (p) => msg(pullRequestTopic(p), m.convertedToDraftBody(p)),
  },
  pull_request_review: {
    from: { header: "pull_request_review" },
    render: (p, ctx) =>
      m.isEmptyReviewEdit(p) ? null : msg(pullRequestTopic(p), m.pullRequestReviewBody(p, includeTitle(ctx))),
  },
  pull_request_review_comment: {
    from: { header: "pull_request_review_comment" },
    render: (p, ctx) =>
      m.isUnchangedCommentEdit(p)
        ? null
        : msg(pullRequestTopic(p), m.pullRequestReviewCommentBody(p, includeTitle(ctx))),
  },
  issues: {
    from: issues(),
    render: (p, ctx) => lifecycle(p, msg(issueTopic(p), m.issueBody(p, includeTitle(ctx)))),
  },
  issue_labeled_or_unlabeled: {
    from: issues(["labeled", "unlabeled"]),
    render: (p, ctx) => msg(issueTopic(p), m.issueLabeledOrUnlabeledBody(p, includeTitle(ctx))),
  },
  issue_milestoned_or_demilestoned: {
    from: issues(["milestoned", "demilestoned"]),
    render: (p, ctx) => msg(issueTopic(p), m.issueMilestonedOrDemilestonedBody(p, includeTitle(ctx))),
  },
  issues_opened_via_transfer: {
    from: issues(["opened"], isOpenedViaTransfer),
    render: (p) => msg(issueTopic(p), m.issueOpenedViaTransferBody(p)),
  },
  issues_transferred: {
    from: issues(["transferred"]),
    render: (p) => msg(issueTopic(p), m.issueTransferredBody(p)),
  },
  issue_comment: {
    from: { header: "issue_comment" },
    render: (p, ctx) =>
      m.isUnchangedCommentEdit(p) ? null : msg(issueTopic(p), m.issueCommentBody(p, includeTitle(ctx))),
  },
  commit_comment: {
    from: { header: "commit_comment" },
    render: (p) => msg(repoTopic(p), m.commitCommentBody(p)),
  },
  discussion: {
    from: { header: "discussion" },
    render: (p, ctx) => msg(discussionTopic(p), m.discussionBody(p, includeTitle(ctx))),
  },
  discussion_comment: {
    from: { header: "discussion_comment" },
    render: (p, ctx) =>
      m.isUnchangedCommentEdit(p)
        ? null
        : msg(discussionTopic(p), m.discussionCommentBody(p, includeTitle(ctx))),
  },
  create: {
    from: { header: "create" },
    render: (p) => msg(repoTopic(p), m.createOrDeleteBody(p, "created")),
  },
  delete: {
    from: { header: "delete" },
    render: (p) => msg(repoTopic(p), m.createOrDeleteBody(p, "deleted")),
  },
  release: { from: { header: "release" }, render: (p) => msg(repoTopic(p), m.releaseBody(p)) },
  ping: {
    from: { header: "ping" },
    render: (p) => msg(pingTopic(p), m.pingBody(p)),
  },
  fork: { from: { header: "fork" }, render: (p) => msg(repoTopic(p), m.forkBody(p)) },
  member: { from: { header: "member" }, render: (p) => msg(repoTopic(p), m.memberBody(p)) },
  membership: {
    from: { header: "membership" },
    render: (p) => msg(`${organizationName(p)} organization`, m.membershipBody(p)),
  },
  public: { from: { header: "public" }, render: (p) => msg(repoTopic(p), m.publicBody(p)) },
  watch: { from: { header: "watch" }, render: (p) => msg(repoTopic(p), m.watchBody(p)) },
  star: { from: { header: "star" }, render: (p) => msg(repoTopic(p), m.starBody(p)) },
  repository: { from: { header: "repository" }, render: (p) => msg(repoTopic(p), m.repositoryBody(p)) },
  repository_advisory: {
    from: { header: "repository_advisory" },
    render: (p) => msg(repoTopic(p), m.repositoryAdvisoryBody(p)),
  },
  dependabot_alert: {
    from: { header: "dependabot_alert" },
    render: (p) => ({
      ...msg(
        `${repositoryName(p)} / Dependabot alert #${p.get("alert").get("number").int()}`,
        m.dependabotAlertBody(p),
      ),
      resolves: m.dependabotAlertResolves(p),
    }),
  },
  team_add: { from: { header: "team_add" }, render: (p) => msg(repoTopic(p), m.teamAddBody(p)) },
  team: {
    from: { header: "team", actions: ["edited"] },
    render: (p) => msg(`team ${p.get("team").get("name").str()}`, m.teamEditedBody(p)),
  },
  gollum: {
    from: { header: "gollum" },
    render: (p) => msg(branchTopic(repositoryName(p), "wiki pages"), m.wikiPagesBody(p)),
  },
  status: {
    from: { header: "status" },
    render: (p) => statusOnly(msg(repoTopic(p), m.statusBody(p)), objectOf(p.opt("sha"), p.opt("context"))),
  },
  check_run: {
    from: { header: "check_run" },
    render: (p) =>
      p.get("check_run").get("status").str() === "completed"
        ? statusOnly(
            msg(`${repositoryName(p)} / checks`, m.checkRunBody(p)),
            objectOf(p.optAt("check_run", "head_sha"), p.optAt("check_run", "name")),
          )
        : null,
  },
  deployment: { from: { header: "deployment" }, render: (p) => msg(deploymentTopic(p), m.deploymentBody(p)) },
  deployment_status: {
    from: { header: "deployment_status" },
    render: (p) =>
      statusOnly(msg(deploymentTopic(p), m.deploymentStatusBody(p)), objectOf(p.optAt("deployment", "id"))),
  },
  page_build: { from: { header: "page_build" }, render: (p) => msg(repoTopic(p), m.pageBuildBody(p)) },
  cancelled: { from: sponsorship("cancelled"), render: sponsors },
  created: { from: sponsorship("created"), render: sponsors },
  edited: { from: sponsorship("edited"), render: sponsors },
  pending_cancellation: { from: sponsorship("pending_cancellation"), render: sponsors },
  pending_tier_change: { from: sponsorship("pending_tier_change"), render: sponsors },
  tier_changed: { from: sponsorship("tier_changed"), render: sponsors },
} satisfies Record<string, GitHubEventEntry>;

/** One of GitHub's event names. */
export type GitHubEvent = keyof typeof EVENTS;

/** The event table, as the definition and the classifier read it. */
export const GITHUB_EVENTS: Readonly<Record<GitHubEvent, GitHubEventEntry>> = EVENTS;

/** Zulip's `ALL_EVENT_TYPES` for GitHub: the table's keys, in declaration order. */
export const ALL_EVENT_TYPES = Object.keys(EVENTS) as GitHubEvent[];

/** Event name of a delivery skipped because its repository is private (ignore_private_repositories). */
export const PRIVATE_REPOSITORY_EVENT = "private_repository";

const lacksPullRequest = (p: Wild): boolean => !p.has("pull_request");
const ignoredPullRequest = (action: string): GitHubSource => pullRequest([action]);
const ignoredTeam = (action: string): GitHubSource => ({ header: "team", actions: [action] });

/** Deliveries deliberately not reported (200, nothing posted), by name, and where they come from. */
const IGNORED: Readonly<Record<string, GitHubSource>> = {
  label: { header: "label" },
  meta: { header: "meta" },
  milestone: { header: "milestone" },
  organization: { header: "organization" },
  project_card: { header: "project_card" },
  repository_vulnerability_alert: { header: "repository_vulnerability_alert" },
  "pull_request.approved": ignoredPullRequest("approved"),
  "pull_request.review_request_removed": ignoredPullRequest("review_request_removed"),
  // Reported above when the delivery carries its pull request; a bare action has nothing to word.
  "pull_request.converted_to_draft": { ...ignoredPullRequest("converted_to_draft"), when: lacksPullRequest },
  "pull_request.labeled": { ...ignoredPullRequest("labeled"), when: lacksPullRequest },
  "pull_request.unlabeled": { ...ignoredPullRequest("unlabeled"), when: lacksPullRequest },
  "team.added_to_repository": ignoredTeam("added_to_repository"),
  "team.created": ignoredTeam("created"),
  "team.deleted": ignoredTeam("deleted"),
  "team.removed_from_repository": ignoredTeam("removed_from_repository"),
  // A push GitHub's merge queue makes on its temporary branches.
  push_merge_queue: { header: "push", when: isMergeQueuePush },
};

/** The ignored event names (`ignoredEvents`). */
export const IGNORED_EVENT_NAMES = [...Object.keys(IGNORED), PRIVATE_REPOSITORY_EVENT];

/** The delivery's `action`, when it has a string one. */
function actionOf(p: Wild): string | undefined {
  const action = p.isObject() ? p.opt("action") : undefined;
  return action !== undefined && typeof action.value === "string" ? action.value : undefined;
}

function isSpecific(s: GitHubSource): boolean {
  return s.actions !== undefined || s.when !== undefined;
}

function sourcesOf(from: GitHubSource | readonly GitHubSource[]): readonly GitHubSource[] {
  return "header" in from ? [from] : from;
}

function matches(s: GitHubSource, header: string, action: string | undefined, p: Wild): boolean {
  if (s.header !== header) return false;
  if (s.actions !== undefined && (action === undefined || !s.actions.includes(action))) return false;
  return s.when === undefined || s.when(p);
}

/** Every source of the table, specific ones first (then in declaration order). */
const SOURCES: readonly [string, GitHubSource][] = (() => {
  const all: [string, GitHubSource][] = [
    ...Object.entries(IGNORED),
    ...Object.entries(GITHUB_EVENTS).flatMap(([name, entry]) =>
      sourcesOf(entry.from).map((s): [string, GitHubSource] => [name, s]),
    ),
  ];
  return [...all.filter(([, s]) => isSpecific(s)), ...all.filter(([, s]) => !isSpecific(s))];
})();

/**
 * The one classification of a GitHub delivery: the name of the table's entry its header, action and
 * payload match (Zulip's `complete_event_type`: `push_commits`, `opened_pull_request`, …), an
 * ignored name, or Zulip's `<header>:<action>` for a delivery nothing handles (unsupported).
 */
export function classifyGitHub(
  header: string | undefined,
  p: Wild,
  options: { ignore_private_repositories?: boolean },
): string {
  if (header === undefined) return "default";
  if (options.ignore_private_repositories === true && p.optAt("repository", "private")?.value === true) {
    return PRIVATE_REPOSITORY_EVENT;
  }
  const action = actionOf(p);
  const hit = SOURCES.find(([, s]) => matches(s, header, action, p));
  return hit?.[0] ?? `${header}:${action ?? "???"}`;
}
