import type { Wild } from "../kit/index.js";

/**
 * How a GitHub delivery is classified: the event key (header, plus `.action` where the payload has
 * one) that picks a handler, and Zulip's `complete_event_type` name that `only_events` /
 * `exclude_events` match (`push_commits`, `opened_pull_request`, …).
 */

/** GitHub Sponsors events. GitHub sends them as `sponsorship` + action; Zulip also accepts the bare action. */
export const SPONSORS_EVENT_TYPES = [
  "cancelled",
  "created",
  "edited",
  "pending_cancellation",
  "pending_tier_change",
  "tier_changed",
] as const;

/** Zulip's `ALL_EVENT_TYPES` for GitHub: the names `only_events` / `exclude_events` match. */
export const GITHUB_EVENT_TYPES = [
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
];

/** Events GitHub sends that are deliberately not reported. */
export const IGNORED_EVENTS = [
  "check_suite",
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

/** Event key of a delivery skipped because its repository is private (ignore_private_repositories). */
export const PRIVATE_REPOSITORY_KEY = "private_repository";
/** Event key of a push GitHub's merge queue makes on its temporary branches (never reported). */
export const MERGE_QUEUE_PUSH_KEY = "push.merge_queue";

/** Events reported whatever their action (the handler reads the action itself). */
const SIMPLE_EVENTS = new Set<string>([
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
  ...SPONSORS_EVENT_TYPES,
]);

/** Zulip's complete_event_type for each reported pull_request action. */
const PULL_REQUEST_ACTIONS: Record<string, string> = {
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

function actionOf(p: Wild): string | undefined {
  const action = p.isObject() ? p.opt("action") : undefined;
  return action !== undefined && typeof action.value === "string" ? action.value : undefined;
}

function isTrue(raw: string | undefined): boolean {
  const v = (raw ?? "").trim().toLowerCase();
  return v === "true" || v === "1" || v === "yes";
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

/**
 * The event key: `push.commits` / `push.tags`, `<header>.<action>` for the events whose actions
 * matter, `<header>` (or `<header>.<action>`) otherwise. A delivery that nothing handles gets
 * Zulip's `<header>:<action>` name, which the pipeline reports as unsupported.
 */
export function githubEventKey(
  header: string | undefined,
  p: Wild,
  params: Readonly<Record<string, string>>,
): string {
  if (header === undefined) return "default";
  if (isTrue(params["ignore_private_repositories"]) && p.optAt("repository", "private")?.value === true) {
    return PRIVATE_REPOSITORY_KEY;
  }
  const action = actionOf(p);
  const unsupported = `${header}:${action ?? "???"}`;
  if (IGNORED_EVENTS.includes(header)) return header;
  switch (header) {
    case "push":
      if (isMergeQueuePush(p)) return MERGE_QUEUE_PUSH_KEY;
      return isCommitPush(p) ? "push.commits" : "push.tags";
    case "pull_request":
      if (action === undefined) return unsupported;
      return action in PULL_REQUEST_ACTIONS || IGNORED_PULL_REQUEST_ACTIONS.includes(action)
        ? `pull_request.${action}`
        : unsupported;
    case "team":
      return action === "edited" || (action !== undefined && IGNORED_TEAM_ACTIONS.includes(action))
        ? `team.${action}`
        : unsupported;
    case "issues":
    case "check_run":
      return action === undefined ? header : `${header}.${action}`;
    case "sponsorship":
      return action !== undefined && (SPONSORS_EVENT_TYPES as readonly string[]).includes(action)
        ? `sponsorship.${action}`
        : unsupported;
    default:
      if (SIMPLE_EVENTS.has(header)) return action === undefined ? header : `${header}.${action}`;
      return unsupported;
  }
}

/** Zulip's complete_event_type for an event key (undefined: never filtered). */
export function githubFilterName(eventKey: string, p: Wild): string | undefined {
  const [base = eventKey, action = ""] = eventKey.split(".");
  switch (base) {
    case "push":
      return action === "commits" ? "push_commits" : action === "tags" ? "push_tags" : undefined;
    case "pull_request":
      return PULL_REQUEST_ACTIONS[action];
    case "team":
      return action === "edited" ? "team" : undefined;
    case "issues":
      if (action === "labeled" || action === "unlabeled") return "issue_labeled_or_unlabeled";
      if (action === "milestoned" || action === "demilestoned") return "issue_milestoned_or_demilestoned";
      if (action === "transferred") return "issues_transferred";
      if (action === "opened" && isOpenedViaTransfer(p)) return "issues_opened_via_transfer";
      return "issues";
    case "sponsorship":
      return action;
    default:
      return base;
  }
}
