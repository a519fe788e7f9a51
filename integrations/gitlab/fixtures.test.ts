import { describe, it } from "@jest/globals";
import { expectFixture } from "../kit/testing.js";
import gitlab from "./index.js";

/**
 * Payloads of events the recorded cases do not show (fixtures/<hook>__<variant>.json, each with its
 * X-Gitlab-Event in <name>.headers.json). Expected topics and bodies follow Zulip's GitLab messages.
 */
const here = new URL(".", import.meta.url);
const home = "https://gitlab.com/sbansal1999/testing-zulip-gitlab-integration";

describe("gitlab: fixtures", () => {
  it("reports an edited issue", () => {
    expectFixture(gitlab, here, "issue_hook__issue_updated", {
      topic: "testing-zulip-gitlab-integration / issue #1 Add more lines",
      body: `Satyam Bansal updated [issue #1](${home}/-/issues/1).`,
    });
  });

  it("quotes a new confidential issue without its hidden comment, naming its assignee", () => {
    expectFixture(gitlab, here, "confidential_issue_hook__issue_created", {
      topic: "testing-zulip-gitlab-integration / issue #2 Leaked CI token",
      body:
        `Satyam Bansal created [issue #2](${home}/-/issues/2) (assigned to Satyam Bansal):\n\n` +
        "~~~ quote\nThe deploy token is printed in the output of the `deploy` job.\n~~~",
    });
  });

  it("reports an updated confidential issue", () => {
    expectFixture(gitlab, here, "confidential_issue_hook__issue_updated", {
      topic: "testing-zulip-gitlab-integration / issue #2 Leaked CI token",
      body: `Satyam Bansal updated [issue #2](${home}/-/issues/2).`,
    });
  });

  it("reports a closed confidential issue", () => {
    expectFixture(gitlab, here, "confidential_issue_hook__issue_closed", {
      topic: "testing-zulip-gitlab-integration / issue #2 Leaked CI token",
      body: `Satyam Bansal closed [issue #2](${home}/-/issues/2).`,
    });
  });

  it("reports a reopened confidential issue", () => {
    expectFixture(gitlab, here, "confidential_issue_hook__issue_reopened", {
      topic: "testing-zulip-gitlab-integration / issue #2 Leaked CI token",
      body: `Satyam Bansal reopened [issue #2](${home}/-/issues/2).`,
    });
  });

  it("quotes an internal comment on a confidential issue", () => {
    expectFixture(gitlab, here, "confidential_note_hook__issue_note", {
      topic: "testing-zulip-gitlab-integration / issue #2 Leaked CI token",
      body:
        `Satyam Bansal [commented](${home}/-/issues/2#note_1418872216) on [issue #2](${home}/-/issues/2):\n\n` +
        "~~~ quote\nRotated the token; the old one is revoked.\n~~~",
    });
  });

  it("quotes a comment on a design of a confidential issue", () => {
    expectFixture(gitlab, here, "confidential_note_hook__design_note", {
      topic: "testing-zulip-gitlab-integration / design ci-log.png",
      body:
        `Satyam Bansal [commented](${home}/-/issues/2/designs/ci-log.png#note_1418890457) on design [ci-log.png](${home}/-/issues/2/designs/ci-log.png):\n\n` +
        "~~~ quote\nThe token shows up on line 42 of this log.\n~~~",
    });
  });

  it("reports one reviewer's approval of a merge request", () => {
    expectFixture(gitlab, here, "merge_request_hook__merge_request_approval", {
      topic: "testing-zulip-gitlab-integration / MR #3 Add two more lines",
      body: `Eeshan Garg approved [MR #3](${home}/-/merge_requests/3).`,
    });
  });

  it("reports one reviewer's approval withdrawn", () => {
    expectFixture(gitlab, here, "merge_request_hook__merge_request_unapproval", {
      topic: "testing-zulip-gitlab-integration / MR #3 Add two more lines",
      body: `Eeshan Garg unapproved [MR #3](${home}/-/merge_requests/3).`,
    });
  });

  it("reports a reopened merge request", () => {
    expectFixture(gitlab, here, "merge_request_hook__merge_request_reopened", {
      topic: "testing-zulip-gitlab-integration / MR #3 Add two more lines",
      body: `Satyam Bansal reopened [MR #3](${home}/-/merge_requests/3).`,
    });
  });

  it("announces a new wiki page", () => {
    expectFixture(gitlab, here, "wiki_page_hook__wiki_page_created", {
      topic: "testing-zulip-gitlab-integration",
      body: `Satyam Bansal created [wiki page "Release process"](${home}/-/wikis/Release-process).`,
    });
  });

  it("announces an edited wiki page", () => {
    expectFixture(gitlab, here, "wiki_page_hook__wiki_page_updated", {
      topic: "testing-zulip-gitlab-integration",
      body: `Satyam Bansal updated [wiki page "Release process"](${home}/-/wikis/Release-process).`,
    });
  });

  it("warns that a project access token is about to expire", () => {
    expectFixture(gitlab, here, "resource_access_token_hook__project_token_expiring", {
      topic: "testing-zulip-gitlab-integration",
      body: "The access token **release-bot** will expire on 2023-07-05.",
    });
  });

  it("warns that a group access token is about to expire, under the group's name", () => {
    expectFixture(gitlab, here, "resource_access_token_hook__group_token_expiring", {
      topic: "Zulip GitLab Test",
      body: "The access token **group-ci** will expire on 2023-07-05.",
    });
  });
});
