import { describe, expect, it } from "@jest/globals";
import { dispatchWebhook } from "../kit/index.js";
import { expectFixture, fixtureMessages } from "../kit/testing.js";
import clubhouse from "./index.js";

const here = new URL(".", import.meta.url);

/** Every message a fixture posts, topic and body. */
const posted = (fixture: string): { topic: string; body: string }[] =>
  fixtureMessages(clubhouse, here, fixture);

// Zulip's test cases that the recorded cases (fixtures/cases/) do not hold: Zulip's payload, and
// the topic and message its tests.py expects (test name as in Zulip's clubhouse/tests.py).
describe("clubhouse: Zulip's other fixtures", () => {
  it("test_epic_create", () => {
    expectFixture(clubhouse, here, "epic__create", {
      topic: "New Epic!",
      body: "New epic **New Epic!**(to do) was created.",
    });
  });
  it("test_story_estimate_changed", () => {
    expectFixture(clubhouse, here, "story__update_change_estimate", {
      topic: "Add cool feature!",
      body: "The estimate for the story [Add cool feature!](https://app.clubhouse.io/zulip/story/11) was set to 4 points.",
    });
  });
  it("test_story_task_completed", () => {
    expectFixture(clubhouse, here, "story__task_complete", {
      topic: "Add cool feature!",
      body: "Task **A new task for this story** ([Add cool feature!](https://app.clubhouse.io/zulip/story/11)) was completed. :tada:",
    });
  });
  it("test_story_unarchive", () => {
    expectFixture(clubhouse, here, "story__unarchive", {
      topic: "Story 2",
      body: "The story [Story 2](https://app.clubhouse.io/zulip/story/9) was unarchived.",
    });
  });
  it("test_story_update_add_description", () => {
    expectFixture(clubhouse, here, "story__update_add_description", {
      topic: "Story 2",
      body: "New description added to the story [Story 2](https://app.clubhouse.io/zulip/story/9):\n``` quote\nAdded a description.\n```",
    });
  });
  it("test_story_update_change_name", () => {
    expectFixture(clubhouse, here, "story__update_change_title", {
      topic: "Add super cool feature!",
      body: "The name of the story [Add super cool feature!](https://app.clubhouse.io/zulip/story/11) was changed from:\n``` quote\nAdd cool feature!\n```\nto\n``` quote\nAdd super cool feature!\n```",
    });
  });
  it("test_story_update_project", () => {
    expectFixture(clubhouse, here, "story__update_change_project", {
      topic: "Add cool feature!",
      body: "The story [Add cool feature!](https://app.clubhouse.io/zulip/story/11) was moved from the **Backend** project to **Devops**.",
    });
  });

  it("test_story_update_add_github_multiple_pull_requests", () => {
    const body = (name: string, url: string): string =>
      `New GitHub PR [#2](https://github.com/PIG208/test-clubhouse/pull/2) opened for story [${name}](${url}) (Unscheduled -> In Development).`;
    expect(posted("pull-request_create__zulip_multiple_pull_requests")).toEqual([
      { topic: "Story1", body: body("Story1", "https://app.clubhouse.io/pig208/story/17") },
      { topic: "Story2", body: body("Story2", "https://app.clubhouse.io/pig208/story/18") },
    ]);
  });
  it("test_story_update_add_github_multiple_pull_requests_with_comment", () => {
    const body = (name: string, url: string): string =>
      `Existing GitHub PR [#1](https://github.com/PIG208/test-clubhouse/pull/1) associated with story [${name}](${url}) (Unscheduled -> In Development).`;
    expect(posted("pull-request_comment__zulip_multiple_pull_requests")).toEqual([
      { topic: "new1", body: body("new1", "https://app.clubhouse.io/pig208/story/26") },
      { topic: "new2", body: body("new2", "https://app.clubhouse.io/pig208/story/27") },
    ]);
  });
  it("test_empty_post_request_body_ignore", () => {
    const out = dispatchWebhook(clubhouse, {
      headers: { "content-type": "application/json" },
      params: {},
      rawBody: Buffer.from("null"),
    });
    expect(out.kind).not.toBe("messages");
  });
});
