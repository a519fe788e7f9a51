import { describe, expect, it } from "@jest/globals";
import { dispatchWebhook } from "../kit/index.js";
import { expectFixture, fixtureMessages } from "../kit/testing.js";
import shortcut from "./index.js";

const here = new URL(".", import.meta.url);

/** Every message a fixture posts, topic and body. */
const posted = (fixture: string): { topic: string; body: string }[] =>
  fixtureMessages(shortcut, here, fixture);

// Zulip's test cases that the recorded cases (fixtures/cases/) do not hold: Zulip's payload, and
// the topic and message its tests.py expects (test name as in Zulip's shortcut/tests.py). Zulip's
// Shortcut payloads are its Clubhouse payloads with Shortcut's app links and names.
describe("shortcut: Zulip's other fixtures", () => {
  it("test_epic_archive", () => {
    expectFixture(shortcut, here, "epic__archive", {
      topic: "Zulip is epic!",
      body: "The epic **Zulip is epic!** was archived.",
    });
  });
  it("test_epic_create", () => {
    expectFixture(shortcut, here, "epic__create", {
      topic: "New Epic!",
      body: "New epic **New Epic!**(to do) was created.",
    });
  });
  it("test_epic_story_create", () => {
    expectFixture(shortcut, here, "epic__create_story", {
      topic: "An epic story!",
      body: "New story [An epic story!](https://app.shortcut.com/zulip/story/23) was created and added to the epic **New Cool Epic!**.",
    });
  });
  it("test_epic_update_add_comment", () => {
    expectFixture(shortcut, here, "epic__update_add_comment", {
      topic: "New Cool Epic!",
      body: "New comment added to the epic **New Cool Epic!**:\n``` quote\nAdded a comment on this Epic!\n```",
    });
  });
  it("test_epic_update_add_description", () => {
    expectFixture(shortcut, here, "epic__update_add_description", {
      topic: "New Cool Epic!",
      body: "New description added to the epic **New Cool Epic!**:\n``` quote\nAdded a description!\n```",
    });
  });
  it("test_epic_update_change_name", () => {
    expectFixture(shortcut, here, "epic__update_change_title", {
      topic: "New Cool Epic!",
      body: "The name of the epic **New Cool Epic!** was changed from:\n``` quote\nNew Epic!\n```\nto\n``` quote\nNew Cool Epic!\n```",
    });
  });
  it("test_epic_update_change_state", () => {
    expectFixture(shortcut, here, "epic__update_change_state", {
      topic: "New Cool Epic!",
      body: "State of the epic **New Cool Epic!** was changed from **to do** to **in progress**.",
    });
  });
  it("test_epic_update_remove_description", () => {
    expectFixture(shortcut, here, "epic__update_remove_description", {
      topic: "New Cool Epic!",
      body: "Description for the epic **New Cool Epic!** was removed.",
    });
  });
  it("test_story_archive", () => {
    expectFixture(shortcut, here, "story__archive", {
      topic: "Story 2",
      body: "The story [Story 2](https://app.shortcut.com/zulip/story/9) was archived.",
    });
  });
  it("test_story_delete", () => {
    expectFixture(shortcut, here, "story__delete", {
      topic: "New random story",
      body: "The story **New random story** was deleted.",
    });
  });
  it("test_story_epic_added", () => {
    expectFixture(shortcut, here, "story__update_add_epic", {
      topic: "Add cool feature!",
      body: "The story [Add cool feature!](https://app.shortcut.com/zulip/story/11) was added to the epic **Release 1.9**.",
    });
  });
  it("test_story_epic_changed", () => {
    expectFixture(shortcut, here, "story__update_change_epic", {
      topic: "Add cool feature!",
      body: "The story [Add cool feature!](https://app.shortcut.com/zulip/story/11) was moved from **Release 1.9** to **Shortcut Fork**.",
    });
  });
  it("test_story_epic_removed", () => {
    expectFixture(shortcut, here, "story__update_remove_epic", {
      topic: "Add cool feature!",
      body: "The story [Add cool feature!](https://app.shortcut.com/zulip/story/11) was removed from the epic **Release 1.9**.",
    });
  });
  it("test_story_estimate_added", () => {
    expectFixture(shortcut, here, "story__update_add_estimate", {
      topic: "Add cool feature!",
      body: "The estimate for the story [Add cool feature!](https://app.shortcut.com/zulip/story/11) was set to 4 points.",
    });
  });
  it("test_story_estimate_changed", () => {
    expectFixture(shortcut, here, "story__update_change_estimate", {
      topic: "Add cool feature!",
      body: "The estimate for the story [Add cool feature!](https://app.shortcut.com/zulip/story/11) was set to 4 points.",
    });
  });
  it("test_story_estimate_removed", () => {
    expectFixture(shortcut, here, "story__update_remove_estimate", {
      topic: "Add cool feature!",
      body: "The estimate for the story [Add cool feature!](https://app.shortcut.com/zulip/story/11) was set to *Unestimated*.",
    });
  });
  it("test_story_file_attachment_added", () => {
    expectFixture(shortcut, here, "story__update_add_attachment", {
      topic: "Add cool feature!",
      body: "A file attachment `zuliprc` was added to the story [Add cool feature!](https://app.shortcut.com/zulip/story/11).",
    });
  });
  it("test_story_label_added_label_name_in_actions", () => {
    expectFixture(shortcut, here, "story__update_add_label_name_in_action", {
      topic: "An emotional story!",
      body: "The label **sad** was added to the story [An emotional story!](https://app.shortcut.com/zulip/story/28).",
    });
  });
  it("test_story_label_multiple_added", () => {
    expectFixture(shortcut, here, "story__update_add_multiple_labels", {
      topic: "An epic story!",
      body: "The labels **mockup**, **label** were added to the story [An epic story!](https://app.shortcut.com/zulip/story/23).",
    });
  });
  it("test_story_task_completed", () => {
    expectFixture(shortcut, here, "story__task_complete", {
      topic: "Add cool feature!",
      body: "Task **A new task for this story** ([Add cool feature!](https://app.shortcut.com/zulip/story/11)) was completed. :tada:",
    });
  });
  it("test_story_task_created", () => {
    expectFixture(shortcut, here, "story__task_create", {
      topic: "Add cool feature!",
      body: "Task **Added a new task** was added to the story [Add cool feature!](https://app.shortcut.com/zulip/story/11).",
    });
  });
  it("test_story_task_deleted", () => {
    expectFixture(shortcut, here, "story__task_delete", {
      topic: "Add cool feature!",
      body: "Task **Added a new task** was removed from the story [Add cool feature!](https://app.shortcut.com/zulip/story/11).",
    });
  });
  it("test_story_unarchive", () => {
    expectFixture(shortcut, here, "story__unarchive", {
      topic: "Story 2",
      body: "The story [Story 2](https://app.shortcut.com/zulip/story/9) was unarchived.",
    });
  });
  it("test_story_update_add_description", () => {
    expectFixture(shortcut, here, "story__update_add_description", {
      topic: "Story 2",
      body: "New description added to the story [Story 2](https://app.shortcut.com/zulip/story/9):\n``` quote\nAdded a description.\n```",
    });
  });
  it("test_story_update_add_github_branch", () => {
    expectFixture(shortcut, here, "story__update_add_github_branch", {
      topic: "Testing pull requests with Story",
      body: "New GitHub branch [eeshangarg/ch27/testing-pull-requests-with-story](https://github.com/eeshangarg/scheduler/tree/eeshangarg/ch27/testing-pull-requests-with-story) associated with story [Testing pull requests with Story](https://app.shortcut.com/zulip/story/27) (Unscheduled -> In Development).",
    });
  });
  it("test_story_update_add_github_pull_request_with_comment", () => {
    expectFixture(shortcut, here, "story__update_add_github_pull_request_with_comment", {
      topic: "asd2",
      body: "Existing GitHub PR [#2](https://github.com/PIG208/test-clubhouse/pull/2) associated with story [asd2](https://app.shortcut.com/pig208/story/15).",
    });
  });
  it("test_story_update_add_github_pull_request_without_workflow_state", () => {
    expectFixture(shortcut, here, "story__update_add_github_pull_request_without_workflow_state", {
      topic: "Testing pull requests with Story",
      body: "New GitHub PR [#10](https://github.com/eeshangarg/Scheduler/pull/10) opened for story [Testing pull requests with Story](https://app.shortcut.com/zulip/story/28).",
    });
  });
  it("test_story_update_add_owner", () => {
    expectFixture(shortcut, here, "story__update_add_owner", {
      topic: "A new story by Shakespeare!",
      body: "New owner added to the story [A new story by Shakespeare!](https://app.shortcut.com/zulip/story/26).",
    });
  });
  it("test_story_update_change_description", () => {
    expectFixture(shortcut, here, "story__update_description", {
      topic: "Add cool feature!",
      body: "Description for the story [Add cool feature!](https://app.shortcut.com/zulip/story/11) was changed from:\n``` quote\nWe should probably add this cool feature!\n```\nto\n``` quote\nWe should probably add this cool feature! Just edited this. :)\n```",
    });
  });
  it("test_story_update_change_name", () => {
    expectFixture(shortcut, here, "story__update_change_title", {
      topic: "Add super cool feature!",
      body: "The name of the story [Add super cool feature!](https://app.shortcut.com/zulip/story/11) was changed from:\n``` quote\nAdd cool feature!\n```\nto\n``` quote\nAdd super cool feature!\n```",
    });
  });
  it("test_story_update_change_state", () => {
    expectFixture(shortcut, here, "story__update_change_state", {
      topic: "Add cool feature!",
      body: "State of the story [Add cool feature!](https://app.shortcut.com/zulip/story/11) was changed from **Unscheduled** to **Ready for Review**.",
    });
  });
  it("test_story_update_project", () => {
    expectFixture(shortcut, here, "story__update_change_project", {
      topic: "Add cool feature!",
      body: "The story [Add cool feature!](https://app.shortcut.com/zulip/story/11) was moved from the **Backend** project to **Devops**.",
    });
  });
  it("test_story_update_remove_description", () => {
    expectFixture(shortcut, here, "story__update_remove_description", {
      topic: "Add cool feature!",
      body: "Description for the story [Add cool feature!](https://app.shortcut.com/zulip/story/11) was removed.",
    });
  });
  it("test_story_update_type", () => {
    expectFixture(shortcut, here, "story__update_change_type", {
      topic: "Add cool feature!",
      body: "The type of the story [Add cool feature!](https://app.shortcut.com/zulip/story/11) was changed from **feature** to **bug**.",
    });
  });

  it("posts nothing for an incomplete task, a removed attachment or label, an edited comment", () => {
    // test_story_task_incomplete_ignore, test_story_file_attachment_removed_ignore,
    // test_story_label_removed_ignore, test_story_comment_updated_ignore
    expectFixture(shortcut, here, "story-task__not_complete", null);
    expectFixture(shortcut, here, "story__update_remove_attachment", null);
    expectFixture(shortcut, here, "story__update_remove_label", null);
    expectFixture(shortcut, here, "story-comment__updated", null);
  });
  it("test_story_update_batch_not_supported_ignore", () => {
    expectFixture(shortcut, here, "story-batch__multiple_not_supported", null);
  });
  it("test_empty_post_request_body_ignore", () => {
    const out = dispatchWebhook(shortcut, {
      headers: { "content-type": "application/json" },
      params: {},
      rawBody: Buffer.from("null"),
    });
    expect(out.kind).not.toBe("messages");
  });
  it("test_story_update_add_github_multiple_pull_requests", () => {
    const body = (name: string, url: string): string =>
      `New GitHub PR [#2](https://github.com/PIG208/test-clubhouse/pull/2) opened for story [${name}](${url}) (Unscheduled -> In Development).`;
    expect(posted("pull-request__multiple_pull_requests")).toEqual([
      { topic: "Story1", body: body("Story1", "https://app.shortcut.com/pig208/story/17") },
      { topic: "Story2", body: body("Story2", "https://app.shortcut.com/pig208/story/18") },
    ]);
  });
  it("test_story_update_add_github_multiple_pull_requests_with_comment", () => {
    const body = (name: string, url: string): string =>
      `Existing GitHub PR [#1](https://github.com/PIG208/test-clubhouse/pull/1) associated with story [${name}](${url}) (Unscheduled -> In Development).`;
    expect(posted("pull-request__multiple_pull_requests_with_comment")).toEqual([
      { topic: "new1", body: body("new1", "https://app.shortcut.com/pig208/story/26") },
      { topic: "new2", body: body("new2", "https://app.shortcut.com/pig208/story/27") },
    ]);
  });
  it("test_story_update_batch", () => {
    const body = (name: string, url: string): string =>
      `The story [${name}](${url}) was moved from Epic **epic** to **testeipc**, Project **Product Development** to **test2**, and changed from type **feature** to **bug**, and added with the new label **low priority** (In Development -> Ready for Review).`;
    expect(posted("story-batch__everything_at_once")).toEqual([
      { topic: "asd4", body: body("asd4", "https://app.shortcut.com/pig208/story/17") },
      { topic: "new1", body: body("new1", "https://app.shortcut.com/pig208/story/26") },
      { topic: "new2", body: body("new2", "https://app.shortcut.com/pig208/story/27") },
    ]);
  });
  it("test_story_update_batch_skip_removed_labels", () => {
    const body = (name: string, url: string): string =>
      `The story [${name}](${url}) was moved from Epic **epic** to **testeipc**, Project **Product Development** to **test2**, and changed from type **feature** to **bug** (In Development -> Ready for Review).`;
    expect(posted("story-batch__skip_removed_labels")).toEqual([
      { topic: "asd4", body: body("asd4", "https://app.shortcut.com/pig208/story/17") },
      { topic: "new1", body: body("new1", "https://app.shortcut.com/pig208/story/26") },
      { topic: "new2", body: body("new2", "https://app.shortcut.com/pig208/story/27") },
    ]);
  });
  it("test_story_update_batch_each_with_one_change", () => {
    expect(posted("story-batch__multiple_at_once")).toEqual([
      {
        topic: "asd4",
        body: "The type of the story [asd4](https://app.shortcut.com/pig208/story/17) was changed from **feature** to **bug**.",
      },
      {
        topic: "new1",
        body: "The story [new1](https://app.shortcut.com/pig208/story/26) was moved from **epic** to **testeipc**.",
      },
      {
        topic: "new2",
        body: "The label **low priority** was added to the story [new2](https://app.shortcut.com/pig208/story/27).",
      },
      {
        topic: "new3",
        body: "State of the story [new3](https://app.shortcut.com/pig208/story/28) was changed from **In Development** to **Ready for Review**.",
      },
      {
        topic: "new4",
        body: "The story [new4](https://app.shortcut.com/pig208/story/29) was moved from the **Product Development** project to **test2**.",
      },
    ]);
  });
});
