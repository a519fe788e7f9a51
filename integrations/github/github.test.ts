import fs from "node:fs";
import { describe, expect, it } from "@jest/globals";
import { JsonableError } from "../../src/errors.js";
import type { AnyIntegration as Integration } from "../kit/index.js";
import type { DispatchOutcome } from "../kit/index.js";
import { casePayload, describeCases, dispatchPayload, onlyMessage } from "../kit/testing.js";
import github from "./index.js";
import githubsponsors from "./sponsors.js";

const cases = new URL("./fixtures/cases", import.meta.url);

describeCases(github, cases, (c) => c.url_path === "/api/v1/external/github");
describeCases(githubsponsors, cases, (c) => c.url_path === "/api/v1/external/githubsponsors");

type Json = Record<string, unknown>;

/** A recorded payload, deep-copied so a test may edit it. */
const fixture = (caseId: string): Json => casePayload(new URL("./fixtures/cases", import.meta.url), caseId);

function send(
  event: string,
  payload: unknown,
  params: Record<string, string> = {},
  integration: Integration = github,
): DispatchOutcome {
  return dispatchPayload(integration, event, payload, params);
}

const message = onlyMessage;

function errorOf(run: () => unknown): Record<string, unknown> {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(JsonableError);
    return (err as JsonableError).toJSON();
  }
  throw new Error("expected an error");
}

const repository = {
  name: "public-repo",
  full_name: "baxterthehacker/public-repo",
  html_url: "https://github.com/baxterthehacker/public-repo",
  private: false,
};
const sender = { login: "baxterthehacker", html_url: "https://github.com/baxterthehacker" };

describe("github: behaviour the recorded cases do not show", () => {
  it("filters pushes with Zulip's event names in only_events", () => {
    const p = fixture("test_push_1_commit_with_repository_name");
    expect(send("push", p, { only_events: '["push_tags"]' }).kind).toBe("filtered");
    expect(send("push", p, { only_events: '["push_*"]' }).kind).toBe("messages");
    expect(send("push", p, { exclude_events: '["push_commits"]' }).kind).toBe("filtered");
  });

  it("filters pull requests by their grouped names", () => {
    const p = fixture("test_pull_request_opened_msg");
    expect(send("pull_request", p, { exclude_events: '["opened_pull_request"]' }).kind).toBe("filtered");
    expect(send("pull_request", p, { only_events: '["closed_pull_request"]' }).kind).toBe("filtered");
  });

  it("rejects an unknown pull_request action with Zulip's event name", () => {
    const p = { action: "bogus", pull_request: {}, repository, sender };
    expect(errorOf(() => send("pull_request", p))).toMatchObject({
      code: "UNSUPPORTED_WEBHOOK_EVENT_TYPE",
      event_type: "pull_request:bogus",
    });
  });

  it("rejects an unknown event with its header and action", () => {
    expect(errorOf(() => send("merge_group", { action: "checks_requested" }))).toMatchObject({
      code: "UNSUPPORTED_WEBHOOK_EVENT_TYPE",
      event_type: "merge_group:checks_requested",
    });
  });

  it("reports a removed tag", () => {
    const p = { ref: "refs/tags/v1.0", created: false, deleted: true, repository, sender };
    expect(message(send("push", p))).toEqual({
      topic: "public-repo",
      body: "baxterthehacker removed tag v1.0.",
    });
  });

  it("reports a new branch pushed without new commits", () => {
    const p = {
      ref: "refs/heads/feature",
      compare: "https://github.com/baxterthehacker/public-repo/compare/feature",
      commits: [],
      created: true,
      deleted: false,
      forced: false,
      repository,
      sender,
    };
    expect(message(send("push", p))).toEqual({
      topic: "public-repo / feature",
      body: "baxterthehacker [pushed](https://github.com/baxterthehacker/public-repo/compare/feature) the branch feature.",
    });
  });

  it("credits commits without a GitHub username to the author's name", () => {
    const p = {
      ref: "refs/heads/main",
      compare: "https://github.com/baxterthehacker/public-repo/compare/1...2",
      commits: [
        {
          id: "0123456789abcdef0123456789abcdef01234567",
          url: "https://github.com/baxterthehacker/public-repo/commit/0123456789abcdef",
          message: "Fix the build\n\nLong description.",
          author: { name: "John Snow", email: "john@example.com" },
        },
      ],
      created: false,
      deleted: false,
      forced: false,
      repository,
      sender,
    };
    expect(message(send("push", p)).body).toBe(
      "baxterthehacker [pushed](https://github.com/baxterthehacker/public-repo/compare/1...2) 1 commit to branch main. Commits by John Snow (1).\n\n" +
        "* Fix the build ([0123456789a](https://github.com/baxterthehacker/public-repo/commit/0123456789abcdef))",
    );
  });

  it("only reports completed check runs", () => {
    const run = {
      name: "lint",
      html_url: "https://github.com/baxterthehacker/public-repo/runs/4",
      head_sha: "d6fde92930d4715a2b49857d24b940956b26d2d3",
      status: "in_progress",
      conclusion: null,
    };
    const p = { action: "created", check_run: run, repository, sender };
    expect(send("check_run", p).kind).toBe("ignored");
    const done = {
      ...p,
      action: "completed",
      check_run: { ...run, status: "completed", conclusion: "success" },
    };
    expect(message(send("check_run", done))).toEqual({
      topic: "public-repo / checks",
      body: "Check [lint](https://github.com/baxterthehacker/public-repo/runs/4) completed (success). ([d6fde92930d](https://github.com/baxterthehacker/public-repo/commit/d6fde92930d4715a2b49857d24b940956b26d2d3))",
      // edit_status_messages: only this check's status of this commit changed.
      statusOnly: true,
      statusOf: "d6fde92930d4715a2b49857d24b940956b26d2d3 lint",
    });
  });

  it("names a comment on a pull request after the pull request", () => {
    const p = {
      action: "created",
      issue: {
        number: 7,
        title: "Add a feature",
        html_url: "https://github.com/baxterthehacker/public-repo/pull/7",
        pull_request: { url: "https://api.github.com/repos/baxterthehacker/public-repo/pulls/7" },
      },
      comment: {
        html_url: "https://github.com/baxterthehacker/public-repo/pull/7#issuecomment-1",
        body: "LGTM",
      },
      repository,
      sender,
    };
    expect(message(send("issue_comment", p))).toEqual({
      topic: "public-repo / PR #7 Add a feature",
      body: "baxterthehacker [commented](https://github.com/baxterthehacker/public-repo/pull/7#issuecomment-1) on [PR #7](https://github.com/baxterthehacker/public-repo/pull/7):\n\n~~~ quote\nLGTM\n~~~",
    });
  });

  it("cuts long topics to 60 characters", () => {
    const p = fixture("test_issue_msg");
    (p["issue"] as Json)["title"] = "A very long issue title that goes on and on and on and on";
    expect(message(send("issues", p)).topic).toBe(
      "public-repo / issue #2 A very long issue title that goes ...",
    );
  });

  it("renames teams", () => {
    const p = { action: "edited", changes: { name: { from: "Old" } }, team: { name: "New" }, sender };
    expect(message(send("team", p))).toEqual({ topic: "team New", body: "Team `Old` was renamed to `New`." });
  });

  it("reports stars and unstars", () => {
    const p = { action: "deleted", repository, sender };
    expect(message(send("star", p))).toEqual({
      topic: "public-repo",
      body: "[baxterthehacker](https://github.com/baxterthehacker) unstarred the repository [baxterthehacker/public-repo](https://github.com/baxterthehacker/public-repo).",
    });
  });

  it("accepts sponsorship events as GitHub sends them (header sponsorship + action)", () => {
    const p = fixture("test_pending_cancellation_message");
    p["action"] = "pending_tier_change";
    p["effective_date"] = "2019-12-30T00:00:00+00:00";
    expect(message(send("sponsorship", p, {}, githubsponsors as Integration))).toEqual({
      topic: "sponsors",
      body: "monalisa's subscription will change from $10 a month to $5 a month on December 30, 2019.",
    });
    p["action"] = "tier_changed";
    expect(message(send("sponsorship", p))).toEqual({
      topic: "sponsors",
      body: "monalisa changed their subscription from $10 a month to $5 a month.",
    });
  });

  it("does not skip private repositories unless asked to", () => {
    const p = fixture("test_pull_request_merged_msg_private_repository_skipped");
    expect(message(send("pull_request", p)).body).toBe(
      "baxterthehacker merged [PR #1](https://github.com/baxterthehacker/public-repo/pull/1).",
    );
    expect(send("pull_request", p, { ignore_private_repositories: "true" }).kind).toBe("ignored");
  });
});

/** Zulip's GitHub tests that send a recorded payload in another way (no topic, other options). */
describe("github: Zulip's other tests on recorded payloads", () => {
  const bax = "https://github.com/baxterthehacker/public-repo";
  const commit = `* Update README.md ([0d1a26e67d8](${bax}/commit/0d1a26e67d8f5eaf1f6ba5c57fc3c7d91ac0fd1c))`;

  it("test_push_1_commit", () => {
    expect(message(send("push", fixture("test_push_1_commit_filtered_by_branches")))).toEqual({
      topic: "public-repo / changes",
      body: `baxterthehacker [pushed](${bax}/compare/9049f1265b7d...0d1a26e67d8f) 1 commit to branch changes.\n\n${commit}`,
    });
  });

  it("test_push_multiple_committers_filtered_by_branches", () => {
    const p = fixture("test_push_multiple_committers");
    expect(message(send("push", p, { branches: "master,changes" }))).toEqual({
      topic: "public-repo / changes",
      body:
        `baxterthehacker [pushed](${bax}/compare/9049f1265b7d...0d1a26e67d8f) 6 commits to branch changes. ` +
        `Commits by Tomasz (3), Ben (2) and baxterthehacker (1).\n\n${`${commit}\n`.repeat(5)}${commit}`,
    });
  });

  it("test_push_multiple_committers_with_others_filtered_by_branches_ignore", () => {
    const p = fixture("test_push_multiple_committers_with_others");
    expect(send("push", p, { branches: "master,development" }).kind).not.toBe("messages");
  });

  it("test_issue_comment_msg", () => {
    expect(
      message(send("issue_comment", fixture("test_issue_comment_msg_with_custom_topic_in_url"))),
    ).toEqual({
      topic: "public-repo / issue #2 Spelling error in the README file",
      body: `baxterthehacker [commented](${bax}/issues/2#issuecomment-99262140) on [issue #2](${bax}/issues/2):\n\n~~~ quote\nYou are totally right! I'll get this fixed right away.\n~~~`,
    });
  });

  it("test_issue_assigned", () => {
    expect(message(send("issues", fixture("test_issue_assigned_with_custom_topic_in_url")))).toEqual({
      topic: "testing-gh / issue #7 Testing when issue assigned!",
      body: "sbansal1999 assigned sbansal1999 to [issue #7](https://github.com/sbansal1999/testing-gh/issues/7).",
    });
  });

  it("test_issue_unassigned", () => {
    expect(message(send("issues", fixture("test_issue_unassigned_with_custom_topic_in_url")))).toEqual({
      topic: "testing-gh / issue #9 idk man",
      body: "sbansal1999 unassigned sbansal1999 from [issue #9](https://github.com/sbansal1999/testing-gh/issues/9).",
    });
  });

  it("test_issue_milestoned", () => {
    expect(message(send("issues", fixture("test_issue_milestoned_with_custom_topic_in_url")))).toEqual({
      topic: "testing-gh / issue #6 This is a sample issue to test GH I...",
      body: "[sbansal1999](https://github.com/sbansal1999) added milestone [some_random_milestone](https://github.com/sbansal1999/testing-gh/milestone/1) to [issue #6](https://github.com/sbansal1999/testing-gh/issues/6).",
    });
  });

  it("test_pull_request_closed_msg_with_custom_topic_in_url", () => {
    const p = fixture("test_pull_request_closed_msg");
    expect(message(send("pull_request", p, { topic: "notifications" }))).toEqual({
      topic: "notifications",
      body: `baxterthehacker closed without merge [PR #1 Update the README with new information](${bax}/pull/1).`,
      resolves: true,
    });
  });

  it("test_pull_request_review_msg_with_custom_topic_in_url", () => {
    const p = fixture("test_pull_request_review_msg");
    expect(message(send("pull_request_review", p, { topic: "notifications" }))).toEqual({
      topic: "notifications",
      body: `baxterthehacker submitted [PR review for #1 Update the README with new information](${bax}/pull/1#pullrequestreview-2626884):\n\n~~~ quote\nLooks great!\n~~~`,
    });
  });

  it("test_pull_request_review_requested_msg", () => {
    const p = fixture("test_pull_request_review_requested_with_custom_topic_in_url");
    expect(message(send("pull_request", p))).toEqual({
      topic: "Scheduler / PR #1 This is just a test commit",
      body: "**eeshangarg** requested [showell](https://github.com/showell) for a review on [PR #1](https://github.com/eeshangarg/Scheduler/pull/1).",
    });
  });

  it("test_pull_request_unassigned_msg", () => {
    const p = fixture("test_pull_request_unassigned_msg_with_custom_topic_in_url");
    expect(message(send("pull_request", p))).toEqual({
      topic: "helloworld / PR #1 Mention that Zulip rocks!",
      body: "eeshangarg unassigned eeshangarg from [PR #1](https://github.com/zulip-test-org/helloworld/pull/1).",
    });
  });

  it("test_discussion_comment_msg_with_custom_topic_in_url", () => {
    const p = fixture("test_discussion_comment_msg");
    expect(message(send("discussion_comment", p, { topic: "notifications" }))).toEqual({
      topic: "notifications",
      body: "sbansal1999 [commented](https://github.com/sbansal1999/testing-gh/discussions/20#discussioncomment-6332416) on [discussion #20 Lets discuss](https://github.com/sbansal1999/testing-gh/discussions/20):\n\n~~~ quote\nsome random comment\n~~~",
    });
  });

  it("test_status_msg: a status without a target URL", () => {
    const p = fixture("test_status_with_target_url_msg");
    p["target_url"] = null;
    expect(message(send("status", p)).body).toBe(
      `[9049f1265b7](${bax}/commit/9049f1265b7d61be4a8904a9a27120d2064dab3b) changed its status to success.`,
    );
  });

  it("test_release_msg", () => {
    const p = JSON.parse(
      fs.readFileSync(new URL("./fixtures/release__with_name.json", import.meta.url), "utf8"),
    ) as Json;
    (p["release"] as Json)["name"] = null;
    expect(message(send("release", p))).toEqual({
      topic: "public-repo",
      body: `baxterthehacker published release [0.0.1](${bax}/releases/tag/0.0.1) for tag 0.0.1.`,
    });
  });

  it("test_ignored_events: check_suite, milestone and team created post nothing", () => {
    expect(send("check_suite", {}).kind).not.toBe("messages");
    expect(send("milestone", {}).kind).not.toBe("messages");
    expect(send("team", { action: "created" }).kind).not.toBe("messages");
  });

  it("links a status's commit from its repository when the delivery lacks the commit", () => {
    const p = fixture("test_status_with_target_url_msg");
    delete p["commit"];
    expect(message(send("status", p)).body).toBe(
      `[9049f1265b7](${bax}/commit/9049f1265b7d61be4a8904a9a27120d2064dab3b) changed its status to [success](https://example.com/build/status).`,
    );
  });
});
