import { describe, expect, it } from "@jest/globals";
import { casePayload, dispatchPayload, expectFixture, onlyMessage } from "../kit/testing.js";
import bitbucket2 from "./index.js";

/**
 * Bitbucket Cloud payloads of events the recorded cases do not show (fixtures/<event>__<variant>.json,
 * each with its X-Event-Key in <name>.headers.json). Expected topics and bodies follow Zulip's
 * Bitbucket2 messages.
 */
const here = new URL(".", import.meta.url);
const repo = "https://bitbucket.org/kolaszek/repository-name";

describe("bitbucket2: fixtures", () => {
  it("announces a fork into another workspace", () => {
    expectFixture(bitbucket2, here, "repo_fork__into_another_workspace", {
      topic: "Repository name",
      body: "Eeshan Garg forked the repository into [eeshangarg/repository-name](https://bitbucket.org/eeshangarg/repository-name).",
    });
  });

  it("quotes a new issue and names its assignee", () => {
    expectFixture(bitbucket2, here, "issue_created__with_assignee", {
      topic: "Repository name / issue #3 Push to master fails",
      body:
        `Tomasz created [issue #3](${repo}/issues/3/push-to-master-fails) (assigned to Eeshan Garg):\n\n` +
        "~~~ quote\nPushing to `master` fails with `pre-receive hook declined`.\n~~~",
    });
  });

  it("quotes a new unassigned issue", () => {
    expectFixture(bitbucket2, here, "issue_created__without_assignee", {
      topic: "Repository name / issue #4 README has a broken link",
      body:
        `Tomasz created [issue #4](${repo}/issues/4/readme-has-a-broken-link):\n\n` +
        "~~~ quote\nThe *Contributing* link points to a deleted page.\n~~~",
    });
  });

  it("quotes a new pull request comment", () => {
    expectFixture(bitbucket2, here, "pullrequest_comment_created__general_comment", {
      topic: "Repository name / PR #4 Retry failed pushes",
      body:
        `Eeshan Garg [commented](${repo}/pull-requests/4#comment-431052207) on [PR #4](${repo}/pull-requests/4):\n\n` +
        "~~~ quote\nCould you add a test for the retry?\n\nOtherwise looks good.\n~~~",
    });
  });
});

/** Zulip's Bitbucket2 tests that the recorded cases do not include. */
describe("bitbucket2: Zulip's other cases", () => {
  const casesDir = new URL("./fixtures/cases", import.meta.url);
  const payload = (caseId: string): Record<string, unknown> => casePayload(casesDir, caseId);
  const commit =
    "* first commit ([84b96adc644](https://bitbucket.org/kolaszek/repository-name/commits/84b96adc644a30fd6465b3d196369d880762afed))";
  const pr = `${repo}/pull-requests`;
  const comment = `${repo}/pull-requests/3/_/diff#comment-20576503`;

  it("announces a fork into the same workspace", () => {
    expectFixture(bitbucket2, here, "repo_fork__tomasz", {
      topic: "Repository name",
      body: "Tomasz forked the repository into [kolaszek/repository-name2](https://bitbucket.org/kolaszek/repository-name2).",
    });
  });

  it("quotes a new issue and its assignee, with the title under a chosen topic", () => {
    expectFixture(bitbucket2, here, "issue_created__assigned", {
      topic: "Repository name / issue #1 Bug",
      body: `Tomasz created [issue #1](${repo}/issues/2/bug) (assigned to Tomasz):\n\n~~~ quote\nSuch a bug\n~~~`,
    });
    expectFixture(
      bitbucket2,
      here,
      "issue_created__assigned",
      {
        topic: "notifications",
        body: `Tomasz created [issue #1 Bug](${repo}/issues/2/bug) (assigned to Tomasz):\n\n~~~ quote\nSuch a bug\n~~~`,
      },
      { topic: "notifications" },
    );
  });

  it("names a reviewer who has no username by display name", () => {
    expectFixture(bitbucket2, here, "pullrequest_created__reviewer_without_username", {
      topic: "Repository name / PR #1 new commit",
      body: `Tomasz created [PR #1](${pr}/1) from \`new-branch\` to \`master\` (assigned to Tomasz Kolek):\n\n~~~ quote\ndescription\n~~~`,
    });
  });

  it("posts nothing for a push without changes", () => {
    expectFixture(bitbucket2, here, "repo_push__without_changes", null);
  });

  it("posts a push to a branch the branches option names", () => {
    const p = payload("test_bitbucket2_on_push_event");
    expect(
      onlyMessage(dispatchPayload(bitbucket2, undefined, p, { branches: "master,development" })),
    ).toEqual({
      topic: "Repository name / master",
      body: `Tomasz [pushed](${repo}/branch/master) 1 commit to branch master.\n\n${commit}`,
    });
  });

  it("posts or skips a push of many committers by the branches option", () => {
    const p = payload("test_bitbucket2_on_push_commits_multiple_committers_with_others");
    expect(
      onlyMessage(dispatchPayload(bitbucket2, undefined, p, { branches: "master,development" })),
    ).toEqual({
      topic: "Repository name / master",
      body:
        `Tomasz [pushed](${repo}/branch/master) 10 commits to branch master. Commits by Tomasz (4), James (3), Brendon (2) and others (1).\n\n` +
        `${commit}\n`.repeat(9) +
        commit,
    });
    expect(dispatchPayload(bitbucket2, undefined, p, { branches: "changes,development" }).kind).toBe(
      "ignored",
    );
  });

  it("reports an issue comment", () => {
    const p = payload("test_bitbucket2_on_issue_commented_with_custom_topic_in_url");
    expect(onlyMessage(dispatchPayload(bitbucket2, undefined, p))).toEqual({
      topic: "Repository name / issue #1 Bug",
      body: `Tomasz [commented](${repo}/issues/2#comment-28973596) on [issue #1](${repo}/issues/2/bug).`,
    });
  });

  it("names the pull request's title in an approval under a chosen topic", () => {
    const p = payload("test_bitbucket2_on_pull_request_approved_event");
    const params = { topic: "notifications" };
    expect(onlyMessage(dispatchPayload(bitbucket2, "pullrequest:approved", p, params))).toEqual({
      topic: "notifications",
      body: `Tomasz approved [PR #1 new commit](${pr}/1).`,
    });
  });

  it("quotes a new pull request comment, with the title under a chosen topic", () => {
    const p = payload("test_bitbucket2_on_pull_request_comment_updated_event");
    expect(onlyMessage(dispatchPayload(bitbucket2, "pullrequest:comment_created", p))).toEqual({
      topic: "Repository name / PR #1 new commit",
      body: `Tomasz [commented](${comment}) on [PR #1](${pr}/3):\n\n~~~ quote\nComment1\n~~~`,
    });
    const params = { topic: "notifications" };
    expect(onlyMessage(dispatchPayload(bitbucket2, "pullrequest:comment_created", p, params))).toEqual({
      topic: "notifications",
      body: `Tomasz [commented](${comment}) on [PR #1 new commit](${pr}/3):\n\n~~~ quote\nComment1\n~~~`,
    });
    expect(onlyMessage(dispatchPayload(bitbucket2, "pullrequest:comment_updated", p, params))).toEqual({
      topic: "notifications",
      body: `Tomasz updated a [comment](${comment}) on [PR #1 new commit](${pr}/3):\n\n~~~ quote\nComment1\n~~~`,
    });
  });

  it("names the actor by display name, then nickname, else Unknown user", () => {
    const p = payload("test_bitbucket2_on_remove_branch_event");
    const deleter = (actor: Record<string, unknown>): string => {
      p["actor"] = actor;
      return onlyMessage(dispatchPayload(bitbucket2, undefined, p)).body;
    };
    expect(deleter({ nickname: "alice", noisy_field: "whatever", display_name: "Alice Smith" })).toBe(
      "Alice Smith deleted branch master.",
    );
    expect(deleter({ nickname: "alice", noisy_field: "whatever" })).toBe("alice deleted branch master.");
    expect(deleter({ noisy_field: "whatever" })).toBe("Unknown user deleted branch master.");
  });
});
