import { option, parse } from "../kit/index.js";
import type { Handler, IntegrationDefinition, WebhookContext, Wild } from "../kit/index.js";
import { branchNameFromRef, branchTopic, prOrIssueTopic, truncateTopic } from "../kit/templates/git.js";
import {
  IGNORED_EVENT_NAMES,
  IGNORED_PULL_REQUEST_ACTIONS,
  SPONSORS_EVENT_TYPES,
  classifyGitHub,
  isOpenedViaTransfer,
} from "./events.js";
import type { GitHubEvent } from "./events.js";
import { checkSuiteMessage, workflowJobMessage, workflowRunMessage } from "./actions.js";
import * as m from "./messages.js";

/** The URL options GitHub's integration understands. */
export interface GitHubOptions extends Record<string, unknown> {
  branches?: string[];
  ignore_private_repositories?: boolean;
  include_repository_name?: boolean;
}

type Ctx = WebhookContext<GitHubOptions>;
type GitHubHandler = Handler<GitHubOptions>;

const includeTitle = (ctx: Ctx): boolean => ctx.customTopic !== undefined;
const msg = (topic: string, body: string): { topic: string; body: string } => ({
  topic: truncateTopic(topic),
  body,
});

/** The delivery's `action` ("" when it has none). */
function actionOf(p: Wild): string {
  const action = p.opt("action")?.value;
  return typeof action === "string" ? action : "";
}

// Topics (Zulip's get_topic_based_on_type) ------------------------------------------------------

const repoTopic = (p: Wild): string => m.repositoryName(p);

function pullRequestTopic(p: Wild): string {
  const pr = p.get("pull_request");
  return prOrIssueTopic(m.repositoryName(p), "PR", pr.get("number").int(), pr.get("title").str());
}

function issueTopic(p: Wild): string {
  const issue = p.get("issue");
  const type = m.isPullRequestIssue(issue) ? "PR" : "issue";
  return prOrIssueTopic(m.repositoryName(p), type, issue.get("number").int(), issue.get("title").str());
}

function discussionTopic(p: Wild): string {
  const d = p.get("discussion");
  return `${m.repositoryName(p)} discussion #${d.get("number").int()}: ${d.get("title").str()}`;
}

// Handlers --------------------------------------------------------------------------------------

const pullRequest: GitHubHandler = (p, ctx) => {
  const action = actionOf(p);
  if (IGNORED_PULL_REQUEST_ACTIONS.includes(action)) return null;
  const t = includeTitle(ctx);
  let body: string;
  switch (action) {
    case "assigned":
    case "unassigned":
      body = m.assignedOrUnassignedPullRequestBody(p, t);
      break;
    case "closed":
      body = m.closedPullRequestBody(p, t);
      break;
    case "review_requested":
      body = m.reviewRequestedBody(p, t);
      break;
    case "ready_for_review":
      body = m.readyForReviewBody(p);
      break;
    case "locked":
    case "unlocked":
      body = m.lockedOrUnlockedPullRequestBody(p);
      break;
    case "auto_merge_enabled":
    case "auto_merge_disabled":
      body = m.autoMergeBody(p);
      break;
    default:
      // opened, reopened, edited, synchronize
      body = m.openedOrUpdatedPullRequestBody(p, t);
  }
  return msg(pullRequestTopic(p), body);
};

const issues: GitHubHandler = (p, ctx) => {
  const action = actionOf(p);
  const t = includeTitle(ctx);
  let body: string;
  if (action === "labeled" || action === "unlabeled") body = m.issueLabeledOrUnlabeledBody(p, t);
  else if (action === "milestoned" || action === "demilestoned")
    body = m.issueMilestonedOrDemilestonedBody(p, t);
  else if (action === "transferred") body = m.issueTransferredBody(p);
  else if (action === "opened" && isOpenedViaTransfer(p)) body = m.issueOpenedViaTransferBody(p);
  else body = m.issueBody(p, t);
  return msg(issueTopic(p), body);
};

const pushCommits: GitHubHandler = (p, ctx) => {
  const branch = branchNameFromRef(p.get("ref").str());
  const only = ctx.options.branches;
  if (only !== undefined && only.length > 0 && !only.includes(branch)) return null;
  return msg(
    branchTopic(m.repositoryName(p), branch),
    m.pushCommitsBody(p, ctx.options.include_repository_name === true),
  );
};

const sponsors: GitHubHandler = (p, ctx) => msg("sponsors", m.sponsorsBody(ctx.event, p));

const sponsorHandlers = Object.fromEntries(SPONSORS_EVENT_TYPES.map((e) => [e, sponsors])) as Record<
  (typeof SPONSORS_EVENT_TYPES)[number],
  GitHubHandler
>;

/** The event table: one handler per Zulip event name (a missing or misspelt name does not compile). */
const events: Record<GitHubEvent, GitHubHandler> = {
  workflow_run: workflowRunMessage,
  workflow_job: workflowJobMessage,
  check_suite: checkSuiteMessage,
  push_commits: pushCommits,
  push_tags: (p) => msg(repoTopic(p), m.pushTagsBody(p)),
  opened_pull_request: pullRequest,
  updated_pull_request: pullRequest,
  closed_pull_request: pullRequest,
  assigned_or_unassigned_pull_request: pullRequest,
  pull_request_review_requested: pullRequest,
  pull_request_ready_for_review: pullRequest,
  locked_or_unlocked_pull_request: pullRequest,
  pull_request_auto_merge: pullRequest,
  pull_request_review: (p, ctx) => msg(pullRequestTopic(p), m.pullRequestReviewBody(p, includeTitle(ctx))),
  pull_request_review_comment: (p, ctx) =>
    m.isUnchangedCommentEdit(p)
      ? null
      : msg(pullRequestTopic(p), m.pullRequestReviewCommentBody(p, includeTitle(ctx))),
  issues,
  issue_labeled_or_unlabeled: issues,
  issue_milestoned_or_demilestoned: issues,
  issues_opened_via_transfer: issues,
  issues_transferred: issues,
  issue_comment: (p, ctx) =>
    m.isUnchangedCommentEdit(p) ? null : msg(issueTopic(p), m.issueCommentBody(p, includeTitle(ctx))),
  commit_comment: (p) => msg(repoTopic(p), m.commitCommentBody(p)),
  discussion: (p, ctx) => msg(discussionTopic(p), m.discussionBody(p, includeTitle(ctx))),
  discussion_comment: (p, ctx) =>
    m.isUnchangedCommentEdit(p)
      ? null
      : msg(discussionTopic(p), m.discussionCommentBody(p, includeTitle(ctx))),
  create: (p) => msg(repoTopic(p), m.createOrDeleteBody(p, "created")),
  delete: (p) => msg(repoTopic(p), m.createOrDeleteBody(p, "deleted")),
  release: (p) => msg(repoTopic(p), m.releaseBody(p)),
  ping: (p) => msg(p.has("repository") ? repoTopic(p) : m.organizationName(p), m.pingBody(p)),
  fork: (p) => msg(repoTopic(p), m.forkBody(p)),
  member: (p) => msg(repoTopic(p), m.memberBody(p)),
  membership: (p) => msg(`${m.organizationName(p)} organization`, m.membershipBody(p)),
  public: (p) => msg(repoTopic(p), m.publicBody(p)),
  watch: (p) => msg(repoTopic(p), m.watchBody(p)),
  star: (p) => msg(repoTopic(p), m.starBody(p)),
  repository: (p) => msg(repoTopic(p), m.repositoryBody(p)),
  team_add: (p) => msg(repoTopic(p), m.teamAddBody(p)),
  team: (p) => msg(`team ${p.get("team").get("name").str()}`, m.teamEditedBody(p)),
  gollum: (p) => msg(branchTopic(m.repositoryName(p), "wiki pages"), m.wikiPagesBody(p)),
  status: (p) => msg(repoTopic(p), m.statusBody(p)),
  check_run: (p) =>
    p.get("check_run").get("status").str() === "completed"
      ? msg(`${m.repositoryName(p)} / checks`, m.checkRunBody(p))
      : null,
  deployment: (p) =>
    msg(
      `${m.repositoryName(p)} / Deployment on ${p.get("deployment").get("environment").str()}`,
      m.deploymentBody(p),
    ),
  deployment_status: (p) =>
    msg(
      `${m.repositoryName(p)} / Deployment on ${p.get("deployment").get("environment").str()}`,
      m.deploymentStatusBody(p),
    ),
  page_build: (p) => msg(repoTopic(p), m.pageBuildBody(p)),
  ...sponsorHandlers,
};

/**
 * Everything GitHub and GitHub Sponsors share (Zulip serves both URLs with one view): event
 * classification, options and handlers.
 */
export const githubDefinition: IntegrationDefinition<GitHubOptions, GitHubEvent> = {
  name: "github",
  displayName: "GitHub",
  categories: ["version-control"],
  description:
    "Pushes, pull requests, issues, reviews, comments, discussions, releases, CI statuses and more from GitHub repositories and organizations.",
  eventHeader: "X-GitHub-Event",
  // With a secret in the bot's config (github_secret or webhook_secret): GitHub's HMAC-SHA256.
  signature: { kind: "hmac", header: "X-Hub-Signature-256", algorithm: "sha256", prefix: "sha256=" },
  classify: ({ header, payload, options }) => classifyGitHub(header, payload, options),
  options: {
    branches: option("Only notify for pushes to these branches (comma-separated)", parse.csvList),
    ignore_private_repositories: option("Exclude notifications from private repositories", parse.bool, {
      default: false,
    }),
    include_repository_name: option("Include repository name in the notifications", parse.bool, {
      default: false,
    }),
  },
  events,
  ignoredEvents: IGNORED_EVENT_NAMES,
};
