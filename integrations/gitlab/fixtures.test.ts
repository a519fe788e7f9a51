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
      body: `The access token [release-bot](${home}/-/settings/access_tokens) will expire on Jul 05, 2023.`,
    });
  });

  it("warns that a group access token is about to expire, under the group's name", () => {
    expectFixture(gitlab, here, "resource_access_token_hook__group_token_expiring", {
      topic: "Zulip GitLab Test",
      body: "The access token [group-ci](https://gitlab.com/groups/zulip-gitlab-test/-/settings/access_tokens) will expire on Jul 05, 2023.",
    });
  });
});

/** Zulip's own GitLab test cases that the recorded cases do not include: Zulip's payloads and messages. */
describe("gitlab: Zulip's other test cases", () => {
  const tomek = "https://gitlab.com/tomaszkolek0/my-awesome-project";
  const satyam = "https://gitlab.com/sbansal1999/testing-zulip-gitlab-integration";
  const sumit = "https://gitlab.com/sumitb16/my-awesome-project";
  const compare = `${tomek}/-/compare/5fcdd5551fc3085df79bece2c32b1400802ac407...eb6ae1e591e0819dc5bf187c6bfe18ec065a80e9`;

  it("counts the committers of a push, grouping the least active as others", () => {
    const line = `* b ([eb6ae1e591e](${tomek}/commit/eb6ae1e591e0819dc5bf187c6bfe18ec065a80e9))`;
    expectFixture(gitlab, here, "push_hook__push_multiple_committers_with_others", {
      topic: "my-awesome-project / tomek",
      body:
        `Tomasz Kolek [pushed](${compare}) 7 commits to branch tomek. Commits by Ben (3), baxterthehacker (2), James (1) and others (1).\n\n` +
        Array.from({ length: 7 }, () => line).join("\n"),
    });
  });

  const fiftyCommits =
    `Tomasz Kolek [pushed](${compare}) 50 commits to branch tomek.\n\n` +
    `* b ([66abd2da288](${tomek}/commit/66abd2da28809ffa128ed0447965cf11d7f863a7))\n`.repeat(20) +
    "[and 30 more commit(s)]";

  it("lists the first 20 commits of a long push", () => {
    expectFixture(gitlab, here, "push_hook__push_commits_more_than_limit", {
      topic: "my-awesome-project / tomek",
      body: fiftyCommits,
    });
  });

  it("lists a long push to a branch the URL selects", () => {
    expectFixture(
      gitlab,
      here,
      "push_hook__push_commits_more_than_limit",
      { topic: "my-awesome-project / tomek", body: fiftyCommits },
      { branches: "master,tomek" },
    );
  });

  it("reports a deleted branch", () => {
    expectFixture(gitlab, here, "push_hook__remove_branch", {
      topic: "my-awesome-project / tomek",
      body: "Tomasz Kolek deleted branch tomek.",
    });
  });

  it("quotes a new issue without assignee", () => {
    expectFixture(gitlab, here, "issue_hook__issue_created_without_assignee", {
      topic: "my-awesome-project / issue #1 Issue title",
      body: `Tomasz Kolek created [issue #1](${tomek}/issues/1):\n\n~~~ quote\nIssue description\n~~~`,
    });
  });

  it("announces a new issue whose description is null", () => {
    expectFixture(gitlab, here, "issue_hook__issue_opened_with_null_description", {
      topic: "my-awesome-project / issue #7 Issue without description",
      body: "Eeshan Garg created [issue #7](https://gitlab.com/eeshangarg/my-awesome-project/issues/7).",
    });
  });

  it("reports an updated issue", () => {
    expectFixture(gitlab, here, "issue_hook__issue_updated_with_assignee", {
      topic: "my-awesome-project / issue #1 Issue title_new",
      body: `Tomasz Kolek updated [issue #1](${tomek}/issues/1).`,
    });
  });

  it("names the project and the issue when the URL sets the topic", () => {
    expectFixture(
      gitlab,
      here,
      "issue_hook__issue_updated_with_assignee",
      {
        topic: "notifications",
        body: `[[my-awesome-project](${tomek})] Tomasz Kolek updated [issue #1 Issue title_new](${tomek}/issues/1).`,
      },
      { topic: "notifications" },
    );
  });

  it("reports a reopened confidential issue sent as an Issue Hook", () => {
    expectFixture(gitlab, here, "issue_hook__confidential_issue_reopened", {
      topic: "testing / issue #1 Testing Test",
      body: "Joe Bloggs reopened [issue #1](https://gitlab.example.co.uk/joe.bloggs/testing/issues/1).",
    });
  });

  it("quotes a comment on a merge request, without its title in the topic when asked", () => {
    expectFixture(
      gitlab,
      here,
      "note_hook__merge_request_note",
      {
        topic: "testing-zulip-gitlab-integration / MR #1",
        body: `Satyam Bansal [commented](${satyam}/-/merge_requests/1#note_1406328457) on [MR #1](${satyam}/-/merge_requests/1):\n\n~~~ quote\nI am not sure if this new feature is even required or not.\n~~~`,
      },
      { use_merge_request_title: "false" },
    );
  });

  it("quotes a comment on an issue", () => {
    expectFixture(gitlab, here, "note_hook__issue_note", {
      topic: "testing-zulip-gitlab-integration / issue #1 Add more lines",
      body: `Satyam Bansal [commented](${satyam}/-/issues/1#note_1406279810) on [issue #1](${satyam}/-/issues/1):\n\n~~~ quote\nThis is again a random comment.\n~~~`,
    });
  });

  it("names the commented issue when the URL sets the topic", () => {
    expectFixture(
      gitlab,
      here,
      "note_hook__issue_note",
      {
        topic: "notifications",
        body: `[[testing-zulip-gitlab-integration](${satyam})] Satyam Bansal [commented](${satyam}/-/issues/1#note_1406279810) on [issue #1 Add more lines](${satyam}/-/issues/1):\n\n~~~ quote\nThis is again a random comment.\n~~~`,
      },
      { topic: "notifications" },
    );
  });

  it("quotes a new merge request without assignee", () => {
    expectFixture(gitlab, here, "merge_request_hook__merge_request_created_without_assignee", {
      topic: "my-awesome-project / MR #2 NEW MR",
      body: `Tomasz Kolek created [MR #2](${tomek}/merge_requests/2) from \`tomek\` to \`master\`:\n\n~~~ quote\ndescription of merge request\n~~~`,
    });
  });

  it("leaves the merge request's title out of the topic when asked", () => {
    expectFixture(
      gitlab,
      here,
      "merge_request_hook__merge_request_closed",
      {
        topic: "my-awesome-project / MR #2",
        body: `Tomasz Kolek closed [MR #2](${tomek}/merge_requests/2).`,
      },
      { use_merge_request_title: "false" },
    );
  });

  it("leaves the title out of a System Hook merge request's topic when asked", () => {
    expectFixture(
      gitlab,
      here,
      "system_hook__merge_request_created_with_assignee",
      {
        topic: "my-awesome-project / MR #3",
        body: `Tomasz Kolek created [MR #3](${tomek}/merge_requests/3) from \`tomek\` to \`master\` (assigned to Tomasz Kolek):\n\n~~~ quote\ndescription of merge request\n~~~`,
      },
      { use_merge_request_title: "false" },
    );
  });

  it("reports one reviewer's approval", () => {
    expectFixture(gitlab, here, "merge_request_hook__merge_request_approval", {
      topic: "my-awesome-project / MR #1 Update the README",
      body: `Sumit Bhanushali added their approval for [MR #1](${sumit}/merge_requests/1).`,
    });
  });

  it("reports one reviewer's approval withdrawn", () => {
    expectFixture(gitlab, here, "merge_request_hook__merge_request_unapproval", {
      topic: "my-awesome-project / MR #1 Update the README",
      body: `Sumit Bhanushali removed their approval for [MR #1](${sumit}/merge_requests/1).`,
    });
  });

  it("announces an edited wiki page", () => {
    expectFixture(gitlab, here, "wiki_page_hook__wiki_page_edited", {
      topic: "my-awesome-project",
      body: `Tomasz Kolek updated [wiki page "how to"](${tomek}/wikis/how-to).`,
    });
  });

  it("reports a finished job sent as a Job Hook", () => {
    expectFixture(gitlab, here, "build_succeeded", {
      topic: "my-awesome-project / master",
      body: "Build job_name from test stage changed status to success.",
    });
  });

  it("reports a created job under its repository and branch", () => {
    expectFixture(gitlab, here, "job_hook__build_created", {
      topic: "gitlab_test / gitlab-script-trigger",
      body: "Build test from test stage was created.",
    });
  });

  it("reports a pending pipeline as created", () => {
    const home = "https://gitlab.com/TomaszKolek/my-awesome-project";
    expectFixture(gitlab, here, "pipeline_hook__pipeline_pending", {
      topic: "my-awesome-project / master",
      body:
        `[Pipeline (4414206)](${home}/-/pipelines/4414206) was created with build(s):\n` +
        `* [job_name2](${home}/-/jobs/4541113) - pending\n* [job_name](${home}/-/jobs/4541112) - created.`,
    });
  });

  it("names the project of a release when the URL sets the topic", () => {
    const home = "https://example.com/gitlab-org/release-webhook-example";
    expectFixture(
      gitlab,
      here,
      "release_hook__create",
      {
        topic: "Specific topic",
        body: `[[release-webhook-example](${home})] Release [v1.1](${home}/-/releases/v1.1) for tag v1.1 was created.\n~~~ quote\n## v1.1 (2024-09-06)\n\n- Feature added\n~~~`,
      },
      { topic: "Specific topic" },
    );
  });

  it("warns that a project access token is about to expire", () => {
    expectFixture(gitlab, here, "resource_access_token_hook__project_expiry", {
      topic: "Flight",
      body: "The access token [acd](https://example.com/flightjs/Flight/-/settings/access_tokens) will expire on Jan 26, 2024.",
    });
  });

  it("warns that a group access token is about to expire", () => {
    expectFixture(gitlab, here, "resource_access_token_hook__group_expiry", {
      topic: "Twitter",
      body: "The access token [acd](https://gitlab.com/groups/twitter/-/settings/access_tokens) will expire on Jan 26, 2024.",
    });
  });

  it("reports a canceled deployment", () => {
    expectFixture(gitlab, here, "deployment_hook__canceled", {
      topic: "test / production",
      body: "The [deployment](https://gitlab.com/vedant8600317/test/-/jobs/9905830127) was canceled.",
    });
  });

  it("links the comment an emoji was taken from", () => {
    expectFixture(gitlab, here, "emoji_hook__revoke__merge_request_note", {
      topic: "sample / MR #1 Edit README.md",
      body: "Varun Kolanu removed the emoji :heart: from [a comment](https://gitlab.com/kolanuvarun/sample/-/merge_requests/1#note_2431339003).",
    });
  });
});

/** Zulip's GitLab tests (main branch, December 2025) whose payloads the recorded cases lack. */
describe("gitlab: Zulip's December 2025 tests", () => {
  it("test_create_confidential_issue_with_assignee_event_message", () => {
    expectFixture(gitlab, here, "issue_hook__confidential_issue_created_with_assignee", {
      topic: "testing / issue #2 Testing",
      body: "Joe Bloggs created [issue #2](https://gitlab.example.co.uk/joe.bloggs/testing/issues/2) (assigned to Joe Bloggs):\n\n~~~ quote\nTesting\n~~~",
    });
  });

  it("test_update_confidential_issue_event_message", () => {
    expectFixture(gitlab, here, "issue_hook__confidential_issue_updated", {
      topic: "testing / issue #1 Testing",
      body: "Joe Bloggs updated [issue #1](https://gitlab.example.co.uk/joe.bloggs/testing/issues/1).",
    });
  });

  it("test_merge_request_created_with_assignee_event_message", () => {
    expectFixture(gitlab, here, "merge_request_hook__merge_request_created_with_assignee", {
      topic: "my-awesome-project / MR #3 New Merge Request",
      body: "Tomasz Kolek created [MR #3](https://gitlab.com/tomaszkolek0/my-awesome-project/merge_requests/3) from `tomek` to `master` (assigned to Tomasz Kolek):\n\n~~~ quote\ndescription of merge request\n~~~",
    });
  });

  it("test_merge_request_reopened_event_message", () => {
    expectFixture(gitlab, here, "merge_request_hook__merge_request_reopened", {
      topic: "my-awesome-project / MR #1 Update the README with author ...",
      body: "Eeshan Garg reopened [MR #1](https://gitlab.com/eeshangarg/my-awesome-project/merge_requests/1).",
    });
  });

  it("test_wiki_page_opened_event_message", () => {
    expectFixture(gitlab, here, "wiki_page_hook__wiki_page_opened", {
      topic: "my-awesome-project",
      body: 'Tomasz Kolek created [wiki page "how to"](https://gitlab.com/tomaszkolek0/my-awesome-project/wikis/how-to).',
    });
  });

  it("test_pipeline_succeeded_with_artifacts_event_message", () => {
    const jobs = "https://gitlab.example.com/group1/onlysomeproject/-/jobs";
    expectFixture(gitlab, here, "pipeline_hook__pipeline_succeeded_with_artifacts", {
      topic: "onlysomeproject / test/links-in-zulip-pipeline-message",
      body:
        "[Pipeline (22668)](https://gitlab.example.com/group1/onlysomeproject/-/pipelines/22668) changed status to success with build(s):\n" +
        `* [cleanup:cleanup docker image](${jobs}/58592) - success\n` +
        `* [pages](${jobs}/58591) - success\n` +
        `  * built artifact: *artifacts.zip* [[Browse](${jobs}/58591/artifacts/browse)|[Download](${jobs}/58591/artifacts/download)]\n` +
        `* [black+pytest:future environment](${jobs}/58590) - success\n` +
        `* [docs:anaconda environment](${jobs}/58589) - success\n` +
        `  * built artifact: *sphinx-docs.zip* [[Browse](${jobs}/58589/artifacts/browse)|[Download](${jobs}/58589/artifacts/download)]\n` +
        `* [pytest:current environment](${jobs}/58588) - success\n` +
        `* [black:current environment](${jobs}/58587) - success\n` +
        `* [setup:docker image](${jobs}/58586) - success.`,
    });
  });

  it("test_deployment_succeeded_event_message", () => {
    expectFixture(gitlab, here, "deployment_hook__success", {
      topic: "test / production",
      body: "The [deployment](https://gitlab.com/vedant8600317/test/-/jobs/9905389091) was successful.",
    });
  });
});
