import { describe, it } from "@jest/globals";
import { expectFixture } from "../kit/testing.js";
import gitea from "./index.js";

/**
 * Gitea payloads of events the recorded cases do not show (fixtures/<X-Gitea-Event>__<variant>.json).
 * Expected topics and bodies follow Zulip's Gitea (Gogs) messages.
 */
const here = new URL(".", import.meta.url);

describe("gitea: fixtures", () => {
  it("announces a new branch", () => {
    expectFixture(gitea, here, "create__branch", {
      topic: "test / test-branch",
      body: "kostekIV created [test-branch](https://try.gitea.io/kostekIV/test/src/test-branch) branch.",
    });
  });

  it("reports a deleted branch, worded as Gogs' deletions", () => {
    expectFixture(gitea, here, "delete__branch", {
      topic: "test-repo / test-branch-to-delete",
      body: "TestDeleter deleted branch `test-branch-to-delete`.",
    });
  });

  it("reports an edited pull request without its branches", () => {
    expectFixture(gitea, here, "pull_request__edited", {
      topic: "test / PR #1906 test 2",
      body: "kostekIV edited [PR #5](https://try.gitea.io/kostekIV/test/pulls/5).",
    });
  });

  it("test_pull_request_reopened: a reopened pull request with its branches", () => {
    expectFixture(gitea, here, "pull_request__reopened", {
      topic: "test / PR #1906 test 2",
      body: "kostekIV reopened [PR #5](https://try.gitea.io/kostekIV/test/pulls/5) from `d` to `master`.",
    });
  });

  it("reports a closed pull request with its branches", () => {
    expectFixture(gitea, here, "pull_request__closed", {
      topic: "test / PR #1906 test 2",
      body: "kostekIV closed [PR #5](https://try.gitea.io/kostekIV/test/pulls/5) from `d` to `master`.",
    });
  });

  it("names who assigned whom to a pull request", () => {
    expectFixture(gitea, here, "pull_request__assigned", {
      topic: "test / PR #1906 test 2",
      body: "kostekIV assigned kostekIV to [PR #5](https://try.gitea.io/kostekIV/test/pulls/5) from `d` to `master` (assigned to kostekIV).",
    });
  });

  it("quotes a closed issue, naming its assignee", () => {
    expectFixture(gitea, here, "issues__closed", {
      topic: "test / issue #3 Test issue 2",
      body: "kostekIV closed [issue #3](https://try.gitea.io/kostekIV/test/issues/3) (assigned to kostekIV):\n\n~~~ quote\nTest body\n~~~",
    });
  });

  it("treats a comment on a pull request's issue as an issue comment", () => {
    expectFixture(gitea, here, "issue_comment__in_pr", {
      topic: "test / issue #1 dummy",
      body: "kostekIV [commented](https://try.gitea.io/kostekIV/test/pulls/1/files#issuecomment-24399) on [issue #1](https://try.gitea.io/kostekIV/test/issues/1):\n\n~~~ quote\ntest comment\n~~~",
    });
  });

  it("quotes an edited issue comment", () => {
    expectFixture(gitea, here, "issue_comment__edited", {
      topic: "test / issue #3 Test issue 2",
      body: "kostekIV edited a [comment](https://try.gitea.io/kostekIV/test/issues/3#issuecomment-24400) on [issue #3](https://try.gitea.io/kostekIV/test/issues/3):\n\n~~~ quote\nedit test comment\n~~~",
    });
  });

  it("quotes a pull request comment (X-Gitea-Event-Type: pull_request_comment) in the PR's topic", () => {
    expectFixture(gitea, here, "issue_comment__created_pr", {
      topic: "test-repo / PR #1 Fixing a bug in the feature",
      body: "TestUser [commented](https://dummy-gitea.com/TestOrg/test-repo/pulls/1#issuecomment-123456) on [PR #1 Fixing a bug in the feature](https://dummy-gitea.com/TestOrg/test-repo/pulls/1):\n\n~~~ quote\nThanks for the fix! Could you also consider this edge case?\n~~~",
    });
  });

  it("quotes an edited pull request comment", () => {
    expectFixture(gitea, here, "issue_comment__edited_pr", {
      topic: "test-repo / PR #1 Fixing a bug in the feature",
      body: "TestUser edited a [comment](https://dummy-gitea.com/TestOrg/test-repo/pulls/1#issuecomment-123456) on [PR #1 Fixing a bug in the feature](https://dummy-gitea.com/TestOrg/test-repo/pulls/1):\n\n~~~ quote\nThanks for the fix! Could you also consider **this important** edge case?\n~~~",
    });
  });

  it("announces a published release", () => {
    expectFixture(gitea, here, "release__published", {
      topic: "test / v1.0 First release",
      body: "kostekIV published release [First release](https://try.gitea.io/kostekIV/test) for tag v1.0.",
    });
  });
});
