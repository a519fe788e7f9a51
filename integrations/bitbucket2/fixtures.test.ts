import { describe, it } from "@jest/globals";
import { expectFixture } from "../kit/testing.js";
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
