import type { Wild } from "../kit/index.js";
import {
  branchNameFromRef,
  commitCommentMessage,
  issueEventMessage,
  issueLabeledMessage,
  issueMilestonedMessage,
  pullRequestEventMessage,
  pushCommitsMessage,
  pushTagMessage,
  quoteContent,
  releaseEventMessage,
  setupWebhookMessage,
  shortSha,
  tagNameFromRef,
} from "../kit/templates/git.js";
import type { CommitData } from "../kit/templates/git.js";
import { nullableStr, repositoryFullName, repositoryName, repositoryUrl, senderName } from "./payload.js";

/**
 * Message bodies for GitHub events, a port of Zulip's zerver/webhooks/github/view.py. Each takes
 * the payload and whether the item's title must appear in the body (the user chose the topic).
 */

// ----------------------------------------------------------------------------------------------
// Pull requests
// ----------------------------------------------------------------------------------------------

/** opened, reopened, edited, synchronize ("updated"). */
export function openedOrUpdatedPullRequestBody(p: Wild, includeTitle: boolean): string {
  const pr = p.get("pull_request");
  let action = p.get("action").str();
  if (action === "synchronize") action = "updated";
  const changes = p.opt("changes");
  const description =
    changes?.has("body") === true || action === "opened" ? nullableStr(pr.get("body")) : null;
  const withBranches = action === "opened" || action === "reopened" || action === "merged";
  return pullRequestEventMessage({
    userName: senderName(p),
    action,
    url: pr.get("html_url").str(),
    number: pr.get("number").int(),
    targetBranch: withBranches ? pr.get("head").get("label").str() : null,
    baseBranch: withBranches ? pr.get("base").get("label").str() : null,
    message: description,
    assignee: pr.opt("assignee")?.get("login").str() ?? null,
    title: includeTitle ? pr.get("title").str() : null,
  });
}

/** "alice assigned bob to [PR #1](…)." / "alice unassigned bob from [PR #1](…)." */
export function assignedOrUnassignedPullRequestBody(p: Wild, includeTitle: boolean): string {
  const pr = p.get("pull_request");
  const assignee = p.opt("assignee") ?? pr.opt("assignee");
  return pullRequestEventMessage({
    userName: senderName(p),
    action: p.get("action").str(),
    url: pr.get("html_url").str(),
    number: pr.get("number").int(),
    assigneeUpdated: assignee?.get("login").str() ?? null,
    title: includeTitle ? pr.get("title").str() : null,
  });
}

/** "alice merged [PR #1](…)." or "alice closed without merge [PR #1](…)." */
export function closedPullRequestBody(p: Wild, includeTitle: boolean): string {
  const pr = p.get("pull_request");
  return pullRequestEventMessage({
    userName: senderName(p),
    action: pr.get("merged").bool() ? "merged" : "closed without merge",
    url: pr.get("html_url").str(),
    number: pr.get("number").int(),
    title: includeTitle ? pr.get("title").str() : null,
  });
}

/** "**alice** requested [bob](…) for a review on [PR #1](…)." (users and teams). */
export function reviewRequestedBody(p: Wild, includeTitle: boolean): string {
  const pr = p.get("pull_request");
  const reviewers: string[] = [];
  const user = p.opt("requested_reviewer");
  if (user !== undefined) reviewers.push(`[${user.get("login").str()}](${user.get("html_url").str()})`);
  const team = p.opt("requested_team");
  if (team !== undefined) reviewers.push(`[${team.get("name").str()}](${team.get("html_url").str()})`);
  if (reviewers.length === 0) {
    for (const r of pr.opt("requested_reviewers")?.items() ?? []) {
      reviewers.push(`[${r.get("login").str()}](${r.get("html_url").str()})`);
    }
  }
  const who =
    reviewers.length <= 1
      ? (reviewers[0] ?? "")
      : `${reviewers.slice(0, -1).join(", ")} and ${reviewers[reviewers.length - 1] ?? ""}`;
  const title = includeTitle ? ` ${pr.get("title").str()}` : "";
  return `**${senderName(p)}** requested ${who} for a review on [PR #${pr.get("number").int()}${title}](${pr.get("html_url").str()}).`;
}

export function readyForReviewBody(p: Wild): string {
  const pr = p.get("pull_request");
  return `**${senderName(p)}** has marked [PR #${pr.get("number").int()}](${pr.get("html_url").str()}) as ready for review.`;
}

export function lockedOrUnlockedPullRequestBody(p: Wild): string {
  const pr = p.get("pull_request");
  const link = `[PR #${pr.get("number").int()}](${pr.get("html_url").str()})`;
  if (p.get("action").str() === "unlocked") return `${senderName(p)} has unlocked ${link}.`;
  const reason = nullableStr(pr.opt("active_lock_reason"));
  const as = reason === null ? "" : ` as ${reason}`;
  return `${senderName(p)} has locked ${link}${as} and limited conversation to collaborators.`;
}

export function autoMergeBody(p: Wild): string {
  const pr = p.get("pull_request");
  const verb = p.get("action").str() === "auto_merge_disabled" ? "disabled" : "enabled";
  return `${senderName(p)} has ${verb} auto merge for [PR #${pr.get("number").int()}](${pr.get("html_url").str()}).`;
}

/** "[PR #1](…)", with the title when the user chose the topic. */
function pullRequestLink(pr: Wild, includeTitle: boolean): string {
  const title = includeTitle ? ` ${pr.get("title").str()}` : "";
  return `[PR #${pr.get("number").int()}${title}](${pr.get("html_url").str()})`;
}

/** labeled / unlabeled: "alice added the label `bug` on [PR #1](…)." */
export function pullRequestLabeledBody(p: Wild, includeTitle: boolean): string {
  const link = pullRequestLink(p.get("pull_request"), includeTitle);
  const label = p.get("label").get("name").str();
  return p.get("action").str() === "labeled"
    ? `${senderName(p)} added the label \`${label}\` on ${link}.`
    : `${senderName(p)} removed the label \`${label}\` from ${link}.`;
}

/** milestoned / demilestoned: "alice linked [PR #1](…) to the milestone `v1`." */
export function pullRequestMilestonedBody(p: Wild, includeTitle: boolean): string {
  const link = pullRequestLink(p.get("pull_request"), includeTitle);
  const milestone = p.get("milestone").get("title").str();
  return p.get("action").str() === "milestoned"
    ? `${senderName(p)} linked ${link} to the milestone \`${milestone}\`.`
    : `${senderName(p)} unlinked ${link} from the milestone \`${milestone}\`.`;
}

/** enqueued / dequeued (GitHub's merge queue): the link always names the pull request. */
export function pullRequestMergeQueueBody(p: Wild): string {
  const link = pullRequestLink(p.get("pull_request"), true);
  return p.get("action").str() === "enqueued"
    ? `${senderName(p)} added ${link} to the merge queue.`
    : `${senderName(p)} removed ${link} from the merge queue.`;
}

/** converted_to_draft: the link always names the pull request. */
export function convertedToDraftBody(p: Wild): string {
  return `${senderName(p)} converted ${pullRequestLink(p.get("pull_request"), true)} to a draft.`;
}

/**
 * A `pull_request_review.edited` delivery with no `changes`: GitHub sends one, empty, right after a
 * review is submitted; it repeats the submission.
 */
export function isEmptyReviewEdit(p: Wild): boolean {
  const changes = p.opt("changes");
  return p.opt("action")?.value === "edited" && (changes === undefined || changes.keys().length === 0);
}

export function pullRequestReviewBody(p: Wild, includeTitle: boolean): string {
  const pr = p.get("pull_request");
  const review = p.get("review");
  return pullRequestEventMessage({
    userName: senderName(p),
    action: "submitted",
    url: review.get("html_url").str(),
    type: "PR review",
    title: includeTitle ? `for #${pr.get("number").int()} ${pr.get("title").str()}` : null,
    message: nullableStr(review.opt("body")),
  });
}

export function pullRequestReviewCommentBody(p: Wild, includeTitle: boolean): string {
  const pr = p.get("pull_request");
  const action = p.get("action").str();
  const comment = p.get("comment");
  return pullRequestEventMessage({
    userName: senderName(p),
    action,
    url: comment.get("html_url").str(),
    message: action === "created" ? nullableStr(comment.get("body")) : null,
    type: "PR review comment",
    title: includeTitle ? `on #${pr.get("number").int()} ${pr.get("title").str()}` : null,
  });
}

// ----------------------------------------------------------------------------------------------
// Issues and comments
// ----------------------------------------------------------------------------------------------

export function issueBody(p: Wild, includeTitle: boolean): string {
  const action = p.get("action").str();
  const issue = p.get("issue");
  const reassigned = action === "assigned" || action === "unassigned";
  return issueEventMessage({
    userName: senderName(p),
    action,
    url: issue.get("html_url").str(),
    number: issue.get("number").int(),
    message: reassigned ? null : nullableStr(issue.opt("body")),
    assigneeUpdated: reassigned ? (p.opt("assignee") ?? issue.opt("assignee"))?.get("login").str() : null,
    title: includeTitle ? issue.get("title").str() : null,
  });
}

export function issueLabeledOrUnlabeledBody(p: Wild, includeTitle: boolean): string {
  const issue = p.get("issue");
  return issueLabeledMessage({
    userName: senderName(p),
    userUrl: p.get("sender").get("html_url").str(),
    added: p.get("action").str() === "labeled",
    labelName: p.get("label").get("name").str(),
    number: issue.get("number").int(),
    url: issue.get("html_url").str(),
    title: includeTitle ? issue.get("title").str() : null,
  });
}

export function issueMilestonedOrDemilestonedBody(p: Wild, includeTitle: boolean): string {
  const issue = p.get("issue");
  const milestone = p.get("milestone");
  return issueMilestonedMessage({
    userName: senderName(p),
    userUrl: p.get("sender").get("html_url").str(),
    added: p.get("action").str() === "milestoned",
    milestoneName: milestone.get("title").str(),
    milestoneUrl: milestone.get("html_url").str(),
    number: issue.get("number").int(),
    url: issue.get("html_url").str(),
    title: includeTitle ? issue.get("title").str() : null,
  });
}

/** An issue that arrived here from another repository (`issues.opened` with `changes.old_issue`). */
export function issueOpenedViaTransferBody(p: Wild): string {
  const issue = p.get("issue");
  const changes = p.get("changes");
  const oldIssue = changes.get("old_issue");
  const oldRepo = changes.get("old_repository").get("full_name").str();
  return `[Issue #${issue.get("number").int()} ${issue.get("title").str()}](${issue.get("html_url").str()}) was transferred from [${oldRepo}#${oldIssue.get("number").int()}](${oldIssue.get("html_url").str()}).`;
}

/**
 * An issue that left for another repository (`issues.transferred`): who moved it, and where to
 * ("alice transferred [issue #4 Title](…) to [org/repo/#12](…).", as Zulip words it).
 */
export function issueTransferredBody(p: Wild): string {
  const issue = p.get("issue");
  const changes = p.get("changes");
  const newIssue = changes.get("new_issue");
  const newRepo = changes.get("new_repository").get("full_name").str();
  return `${senderName(p)} transferred [issue #${issue.get("number").int()} ${issue.get("title").str()}](${issue.get("html_url").str()}) to [${newRepo}/#${newIssue.get("number").int()}](${newIssue.get("html_url").str()}).`;
}

/** Whether `issues`' / `issue_comment`'s issue is really a pull request. */
export function isPullRequestIssue(issue: Wild): boolean {
  return issue.has("pull_request");
}

/** An edit that left the body as it was (GitHub sends those when only metadata changed). */
export function isUnchangedCommentEdit(p: Wild): boolean {
  if (p.opt("action")?.value !== "edited") return false;
  const from = p.optAt("changes", "body", "from");
  const body = p.optAt("comment", "body");
  return from !== undefined && body !== undefined && from.value === body.value;
}

function commentAction(action: string, commentUrl: string): string {
  return action === "created" ? `[commented](${commentUrl}) on` : `${action} a [comment](${commentUrl}) on`;
}

export function issueCommentBody(p: Wild, includeTitle: boolean): string {
  const issue = p.get("issue");
  const comment = p.get("comment");
  return pullRequestEventMessage({
    userName: senderName(p),
    action: commentAction(p.get("action").str(), comment.get("html_url").str()),
    url: issue.get("html_url").str(),
    number: issue.get("number").int(),
    message: nullableStr(comment.get("body")),
    type: isPullRequestIssue(issue) ? "PR" : "issue",
    title: includeTitle ? issue.get("title").str() : null,
  });
}

export function commitCommentBody(p: Wild): string {
  const comment = p.get("comment");
  const commentUrl = comment.get("html_url").str();
  const commitUrl = commentUrl.split("#")[0] ?? commentUrl;
  return commitCommentMessage(
    senderName(p),
    `[commented](${commentUrl})`,
    commitUrl,
    comment.get("commit_id").str(),
    nullableStr(comment.opt("body")),
  );
}

// ----------------------------------------------------------------------------------------------
// Discussions
// ----------------------------------------------------------------------------------------------

function discussionLink(p: Wild, includeTitle: boolean): string {
  const d = p.get("discussion");
  const title = includeTitle ? ` ${d.get("title").str()}` : "";
  return `[discussion #${d.get("number").int()}${title}](${d.get("html_url").str()})`;
}

export function discussionBody(p: Wild, includeTitle: boolean): string {
  const d = p.get("discussion");
  const action = p.get("action").str();
  const sender = senderName(p);
  const link = discussionLink(p, includeTitle);
  const number = d.get("number").int();
  switch (action) {
    case "created":
      return `${sender} created [discussion #${number}](${d.get("html_url").str()}) in ${d.get("category").get("name").str()}:\n\n~~~ quote\n### ${d.get("title").str()}\n${nullableStr(d.get("body")) ?? ""}\n~~~`;
    case "edited": {
      const changes = p.opt("changes");
      const title = changes?.has("title") === true;
      const body = changes?.has("body") === true;
      if (title && !body) {
        return `${sender} edited the title of ${link}:\n\n~~~ quote\n### ${d.get("title").str()}\n~~~`;
      }
      if (title && body) {
        return `${sender} edited ${link}:\n\n~~~ quote\n### ${d.get("title").str()}\n${nullableStr(d.get("body")) ?? ""}\n~~~`;
      }
      return `${sender} edited ${link}:\n\n~~~ quote\n${nullableStr(d.get("body")) ?? ""}\n~~~`;
    }
    case "deleted":
      return `${sender} deleted discussion #${number}${includeTitle ? ` ${d.get("title").str()}` : ""}.`;
    case "category_changed":
      return `${sender} changed the category of ${link} from ${p.get("changes").get("category").get("from").get("name").str()} to ${d.get("category").get("name").str()}.`;
    case "closed": {
      const reason = nullableStr(d.opt("state_reason"));
      return `${sender} closed ${link}${reason === null ? "" : ` as ${reason}`}.`;
    }
    case "locked": {
      const reason = nullableStr(d.opt("active_lock_reason"));
      return `${sender} locked ${link}${reason === null ? "" : ` as ${reason}`}.`;
    }
    case "transferred": {
      const changes = p.get("changes");
      const next = changes.get("new_discussion");
      return `${sender} transferred discussion #${number} from ${repositoryName(p)} to ${changes.get("new_repository").get("name").str()} as [discussion #${next.get("number").int()}](${d.get("html_url").str()}).`;
    }
    case "answered": {
      // The chosen comment is quoted after the link.
      const answer = p.get("answer");
      return `${sender} marked [comment #${answer.get("id").int()}](${answer.get("html_url").str()}) as the answer:\n\n~~~ quote\n${nullableStr(answer.get("body")) ?? ""}\n~~~`;
    }
    case "unanswered": {
      const answer = p.get("old_answer");
      return `${sender} marked [comment #${answer.get("id").int()}](${answer.get("html_url").str()}) as not the answer.`;
    }
    // The label's name in plain text (unlike pull requests, which put it in backticks).
    case "labeled":
      return `${sender} added the ${p.get("label").get("name").str()} label to ${link}.`;
    case "unlabeled":
      return `${sender} removed the ${p.get("label").get("name").str()} label from ${link}.`;
    default:
      // reopened, pinned, unpinned, unlocked, …
      return `${sender} ${action} ${link}.`;
  }
}

export function discussionCommentBody(p: Wild, includeTitle: boolean): string {
  const comment = p.get("comment");
  return `${senderName(p)} ${commentAction(p.get("action").str(), comment.get("html_url").str())} ${discussionLink(p, includeTitle)}:\n\n~~~ quote\n${nullableStr(comment.get("body")) ?? ""}\n~~~`;
}

// ----------------------------------------------------------------------------------------------
// Pushes, branches, tags, releases
// ----------------------------------------------------------------------------------------------

export function pushCommitsBody(p: Wild, includeRepositoryName: boolean): string {
  const commits: CommitData[] = p
    .get("commits")
    .items()
    .map((c) => {
      const author = c.get("author");
      const username = author.opt("username");
      return {
        name: username !== undefined && username.str() !== "" ? username.str() : author.get("name").str(),
        sha: c.get("id").str(),
        url: c.get("url").str(),
        message: c.get("message").str(),
      };
    });
  return pushCommitsMessage({
    userName: senderName(p),
    compareUrl: p.get("compare").str(),
    branchName: branchNameFromRef(p.get("ref").str()),
    commits,
    deleted: p.get("deleted").bool(),
    forcePush: p.get("forced").bool(),
    repository: includeRepositoryName ? { name: repositoryFullName(p), url: repositoryUrl(p) } : undefined,
  });
}

export function pushTagsBody(p: Wild): string {
  return pushTagMessage(
    senderName(p),
    tagNameFromRef(p.get("ref").str()),
    null,
    p.get("created").bool() ? "pushed" : "removed",
  );
}

/** "alice created tag v1." / "alice deleted branch feature." */
export function createOrDeleteBody(p: Wild, action: "created" | "deleted"): string {
  return `${senderName(p)} ${action} ${p.get("ref_type").str()} ${p.get("ref").str()}.`.trimEnd();
}

export function releaseBody(p: Wild): string {
  const release = p.get("release");
  const tagName = release.get("tag_name").str();
  const name = nullableStr(release.opt("name"));
  return releaseEventMessage({
    userName: senderName(p),
    action: p.get("action").str(),
    tagName,
    releaseName: name !== null && name !== "" ? name : tagName,
    url: release.get("html_url").str(),
  });
}

// ----------------------------------------------------------------------------------------------
// Repositories, organisations, teams
// ----------------------------------------------------------------------------------------------

export function pingBody(p: Wild): string {
  return setupWebhookMessage("GitHub", senderName(p));
}

export function forkBody(p: Wild): string {
  const forkee = p.get("forkee");
  return `${senderName(p)} forked [${forkee.get("name").str()}](${forkee.get("html_url").str()}).`;
}

export function memberBody(p: Wild): string {
  const member = p.get("member");
  return `${senderName(p)} ${p.get("action").str()} [${member.get("login").str()}](${member.get("html_url").str()}) to [${repositoryName(p)}](${repositoryUrl(p)}).`;
}

export function membershipBody(p: Wild): string {
  const action = p.get("action").str();
  const member = p.get("member");
  const preposition = action === "removed" ? "from" : "to";
  return `${senderName(p)} ${action} [${member.get("login").str()}](${member.get("html_url").str()}) ${preposition} the ${p.get("team").get("name").str()} team.`;
}

export function publicBody(p: Wild): string {
  return `${senderName(p)} made the repository [${repositoryFullName(p)}](${repositoryUrl(p)}) public.`;
}

export function watchBody(p: Wild): string {
  return `${senderName(p)} starred the repository [${repositoryFullName(p)}](${repositoryUrl(p)}).`;
}

export function starBody(p: Wild): string {
  const sender = p.get("sender");
  const action = p.get("action").str() === "created" ? "starred" : "unstarred";
  return `[${sender.get("login").str()}](${sender.get("html_url").str()}) ${action} the repository [${repositoryFullName(p)}](${repositoryUrl(p)}).`;
}

export function repositoryBody(p: Wild): string {
  return `${senderName(p)} ${p.get("action").str()} the repository [${repositoryFullName(p)}](${repositoryUrl(p)}).`;
}

export function teamAddBody(p: Wild): string {
  return `The repository [${repositoryFullName(p)}](${repositoryUrl(p)}) was added to team ${p.get("team").get("name").str()}.`;
}

export function teamEditedBody(p: Wild): string {
  const changes = p.get("changes");
  const team = p.get("team");
  if (changes.has("description")) {
    return `**${senderName(p)}** changed the team description to:\n${quoteContent(nullableStr(team.get("description")) ?? "")}`;
  }
  if (changes.has("name")) {
    return `Team \`${changes.get("name").get("from").str()}\` was renamed to \`${team.get("name").str()}\`.`;
  }
  if (changes.has("privacy")) {
    return `Team visibility changed to \`${team.get("privacy").str()}\``;
  }
  const keys = changes.keys().sort().join("/");
  return `Team has changes to \`${keys}\` data.`;
}

export function wikiPagesBody(p: Wild): string {
  const rows = p
    .get("pages")
    .items()
    .map(
      (page) => `* ${page.get("action").str()} [${page.get("title").str()}](${page.get("html_url").str()})\n`,
    )
    .join("");
  return `${senderName(p)}:\n${rows.trimEnd()}`;
}

/** "alice published [GHSA-…](…)" (a repository's security advisory; Zulip adds no period). */
export function repositoryAdvisoryBody(p: Wild): string {
  const advisory = p.get("repository_advisory");
  return `${senderName(p)} ${p.get("action").str()} [${advisory.get("ghsa_id").str()}](${advisory.get("html_url").str()})`;
}

/** What each `dependabot_alert` action did, and whether it closes (true) or reopens (false) the alert. */
const DEPENDABOT_ACTIONS: Record<string, { verb: string; resolves: boolean }> = {
  created: { verb: "opened", resolves: false },
  reopened: { verb: "reopened", resolves: false },
  reintroduced: { verb: "reintroduced", resolves: false },
  auto_reopened: { verb: "automatically reopened", resolves: false },
  dismissed: { verb: "dismissed", resolves: true },
  auto_dismissed: { verb: "automatically dismissed", resolves: true },
  fixed: { verb: "fixed", resolves: true },
};

function dependabotAction(p: Wild): { verb: string; resolves: boolean } {
  const action = p.get("action").str();
  return DEPENDABOT_ACTIONS[action] ?? { verb: action.replace(/_/g, " "), resolves: false };
}

/**
 * A Dependabot alert's change (GitHub's `dependabot_alert`, which replaced
 * `repository_vulnerability_alert`): the advisory, the package, and the dismissal's reason and
 * comment or the version that fixes it.
 */
export function dependabotAlertBody(p: Wild): string {
  const alert = p.get("alert");
  const advisory = alert.get("security_advisory");
  const ghsa = advisory.get("ghsa_id").str();
  const pkg = alert.get("dependency").get("package");
  const lines = [
    `${senderName(p)} ${dependabotAction(p).verb} [Dependabot alert #${alert.get("number").int()}](${alert.get("html_url").str()}) ` +
      `for ${pkg.get("ecosystem").str()} package \`${pkg.get("name").str()}\`: **${advisory.get("severity").str()}** severity, ` +
      `[${ghsa}](https://github.com/advisories/${ghsa}) ${advisory.get("summary").str()}.`,
  ];
  const reason = nullableStr(alert.opt("dismissed_reason"));
  if (reason !== null) {
    lines.push(`Reason: ${reason.replace(/_/g, " ")}.`);
    const comment = nullableStr(alert.opt("dismissed_comment"));
    if (comment) lines.push(`> ${comment.split("\n").join("\n> ")}`);
  } else if (!dependabotAction(p).resolves) {
    const patched = alert.opt("security_vulnerability")?.opt("first_patched_version");
    const version = patched === undefined || patched.isNull() ? null : nullableStr(patched.opt("identifier"));
    lines.push(version === null ? "No patched version yet." : `Patched in ${version}.`);
  }
  return lines.join("\n");
}

export function dependabotAlertResolves(p: Wild): boolean {
  return dependabotAction(p).resolves;
}

// ----------------------------------------------------------------------------------------------
// CI, deployments, pages
// ----------------------------------------------------------------------------------------------

export function statusBody(p: Wild): string {
  const state = p.get("state").str();
  const target = nullableStr(p.opt("target_url"));
  const status = target ? `[${state}](${target})` : state;
  const sha = p.get("sha").str();
  // The commit's page; deliveries without their `commit` object link it from the repository.
  const commitUrl = p.optAt("commit", "html_url")?.str() ?? `${repositoryUrl(p)}/commit/${sha}`;
  return `[${shortSha(sha)}](${commitUrl}) changed its status to ${status}.`;
}

export function checkRunBody(p: Wild): string {
  const run = p.get("check_run");
  const sha = run.get("head_sha").str();
  return `Check [${run.get("name").str()}](${run.get("html_url").str()}) ${run.get("status").str()} (${nullableStr(run.get("conclusion")) ?? "None"}). ([${shortSha(sha)}](${repositoryUrl(p)}/commit/${sha}))`;
}

export function deploymentBody(p: Wild): string {
  return `${senderName(p)} created new deployment.`;
}

export function deploymentStatusBody(p: Wild): string {
  return `Deployment changed status to ${p.get("deployment_status").get("state").str()}.`;
}

const PAGE_BUILD_ACTIONS: Record<string, string> = {
  null: "has yet to be built",
  building: "is being built",
  errored: "has failed: {}",
  built: "has finished building",
};

export function pageBuildBody(p: Wild): string {
  const build = p.get("build");
  const status = build.get("status").str();
  let action = PAGE_BUILD_ACTIONS[status] ?? `is ${status}`;
  const error = nullableStr(build.get("error").opt("message"));
  if (error) action = action.replace("{}", quoteContent(error));
  return `GitHub Pages build, triggered by ${build.get("pusher").get("login").str()}, ${action}.`;
}
