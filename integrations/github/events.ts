import type { Wild } from "../kit/index.js";

/** How a GitHub delivery is classified: one name per delivery (see `classifyGitHub`). */

/** GitHub Sponsors events. GitHub sends them as `sponsorship` + action; Zulip also accepts the bare action. */
export const SPONSORS_EVENT_TYPES = [
  "cancelled",
  "created",
  "edited",
  "pending_cancellation",
  "pending_tier_change",
  "tier_changed",
] as const;

/** Zulip's `ALL_EVENT_TYPES` for GitHub: the keys of the event table, which `only_events` / `exclude_events` match. */
export const GITHUB_EVENT_TYPES = [
  // GitHub Actions and checks, beyond Zulip.
  "workflow_run",
  "workflow_job",
  "check_suite",
  "commit_comment",
  "closed_pull_request",
  "create",
  "check_run",
  "delete",
  "deployment",
  "deployment_status",
  "discussion",
  "discussion_comment",
  "fork",
  "gollum",
  "issue_comment",
  "issue_labeled_or_unlabeled",
  "issue_milestoned_or_demilestoned",
  "issues_opened_via_transfer",
  "issues_transferred",
  "issues",
  "member",
  "membership",
  "opened_pull_request",
  "updated_pull_request",
  "assigned_or_unassigned_pull_request",
  "page_build",
  "ping",
  "public",
  "pull_request_ready_for_review",
  "pull_request_review",
  "pull_request_review_comment",
  "pull_request_review_requested",
  "pull_request_auto_merge",
  "locked_or_unlocked_pull_request",
  "push_commits",
  "push_tags",
  "release",
  "repository",
  "star",
  "status",
  "team",
  "team_add",
  "watch",
  ...SPONSORS_EVENT_TYPES,
] as const;

/** One of GitHub's event names. */
export type GitHubEvent = (typeof GITHUB_EVENT_TYPES)[number];

/** Events GitHub sends that are deliberately not reported. */
export const IGNORED_EVENTS = [
  "label",
  "meta",
  "milestone",
  "organization",
  "project_card",
  "repository_vulnerability_alert",
];

/** pull_request actions that are not reported. */
export const IGNORED_PULL_REQUEST_ACTIONS = [
  "approved",
  "converted_to_draft",
  "labeled",
  "review_request_removed",
  "unlabeled",
];

/** team actions that are not reported (only `edited` is). */
export const IGNORED_TEAM_ACTIONS = ["added_to_repository", "created", "deleted", "removed_from_repository"];

/** Event name of a delivery skipped because its repository is private (ignore_private_repositories). */
export const PRIVATE_REPOSITORY_EVENT = "private_repository";
/** Event name of a push GitHub's merge queue makes on its temporary branches (never reported). */
export const MERGE_QUEUE_PUSH_EVENT = "push_merge_queue";

/** Events named after their header, whatever their action (the handler reads the action itself). */
const SIMPLE_EVENTS = new Set<string>([
  "check_run",
  "check_suite",
  "workflow_job",
  "workflow_run",
  "commit_comment",
  "create",
  "delete",
  "deployment",
  "deployment_status",
  "discussion",
  "discussion_comment",
  "fork",
  "gollum",
  "issue_comment",
  "member",
  "membership",
  "page_build",
  "ping",
  "public",
  "pull_request_review",
  "pull_request_review_comment",
  "release",
  "repository",
  "star",
  "status",
  "team_add",
  "watch",
]);

/** Zulip's complete_event_type for each reported pull_request action. */
const PULL_REQUEST_ACTIONS: Record<string, GitHubEvent> = {
  opened: "opened_pull_request",
  reopened: "opened_pull_request",
  synchronize: "updated_pull_request",
  edited: "updated_pull_request",
  assigned: "assigned_or_unassigned_pull_request",
  unassigned: "assigned_or_unassigned_pull_request",
  closed: "closed_pull_request",
  review_requested: "pull_request_review_requested",
  ready_for_review: "pull_request_ready_for_review",
  locked: "locked_or_unlocked_pull_request",
  unlocked: "locked_or_unlocked_pull_request",
  auto_merge_enabled: "pull_request_auto_merge",
  auto_merge_disabled: "pull_request_auto_merge",
};

/** The ignored event names: whole headers, pull_request and team actions, and the two skips above. */
export const IGNORED_EVENT_NAMES = [
  ...IGNORED_EVENTS,
  ...IGNORED_PULL_REQUEST_ACTIONS.map((a) => `pull_request.${a}`),
  ...IGNORED_TEAM_ACTIONS.map((a) => `team.${a}`),
  MERGE_QUEUE_PUSH_EVENT,
  PRIVATE_REPOSITORY_EVENT,
];

function actionOf(p: Wild): string | undefined {
  const action = p.isObject() ? p.opt("action") : undefined;
  return action !== undefined && typeof action.value === "string" ? action.value : undefined;
}

/** A push to one of the merge queue's `gh-readonly-queue/…` branches. */
export function isMergeQueuePush(p: Wild): boolean {
  const ref = p.opt("ref");
  return typeof ref?.value === "string" && ref.value.startsWith("refs/heads/gh-readonly-queue/");
}

/** A push of commits to a branch (as opposed to a tag). */
export function isCommitPush(p: Wild): boolean {
  return p.get("ref").str().startsWith("refs/heads/");
}

/** An `issues.opened` delivery for an issue transferred from another repository. */
export function isOpenedViaTransfer(p: Wild): boolean {
  return p.opt("changes")?.has("old_issue") === true;
}

/** Zulip's name for an `issues` delivery (labels, milestones and transfers have their own). */
function issuesEvent(action: string | undefined, p: Wild): GitHubEvent {
  if (action === "labeled" || action === "unlabeled") return "issue_labeled_or_unlabeled";
  if (action === "milestoned" || action === "demilestoned") return "issue_milestoned_or_demilestoned";
  if (action === "transferred") return "issues_transferred";
  if (action === "opened" && isOpenedViaTransfer(p)) return "issues_opened_via_transfer";
  return "issues";
}

/**
 * The one classification of a GitHub delivery: Zulip's `complete_event_type` (`push_commits`,
 * `opened_pull_request`, `issue_labeled_or_unlabeled`, …), which picks the handler and which
 * `only_events` / `exclude_events` match; an ignored name; or Zulip's `<header>:<action>` for a
 * delivery nothing handles (an unsupported event).
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
  const unsupported = `${header}:${action ?? "???"}`;
  if (IGNORED_EVENTS.includes(header)) return header;
  switch (header) {
    case "push":
      if (isMergeQueuePush(p)) return MERGE_QUEUE_PUSH_EVENT;
      return isCommitPush(p) ? "push_commits" : "push_tags";
    case "pull_request":
      if (action === undefined) return unsupported;
      if (IGNORED_PULL_REQUEST_ACTIONS.includes(action)) return `pull_request.${action}`;
      return PULL_REQUEST_ACTIONS[action] ?? unsupported;
    case "team":
      if (action === "edited") return "team";
      return action !== undefined && IGNORED_TEAM_ACTIONS.includes(action) ? `team.${action}` : unsupported;
    case "issues":
      return issuesEvent(action, p);
    case "sponsorship":
      return action !== undefined && (SPONSORS_EVENT_TYPES as readonly string[]).includes(action)
        ? action
        : unsupported;
    default:
      // GitHub Sponsors' older deliveries name the action in the header.
      if (SIMPLE_EVENTS.has(header) || (SPONSORS_EVENT_TYPES as readonly string[]).includes(header)) {
        return header;
      }
      return unsupported;
  }
}
