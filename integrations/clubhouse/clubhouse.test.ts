import { describe, expect, it } from "@jest/globals";
import {
  describeCases,
  describeSignature,
  dispatchPayload,
  expectError,
  expectFixture,
  fixtureMessages,
  onlyMessage,
} from "../kit/testing.js";
import clubhouse from "./index.js";

describeCases(clubhouse, new URL("./fixtures/cases", import.meta.url));

const here = new URL(".", import.meta.url);
const story = (
  changes: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): Record<string, unknown> => ({
  id: 11,
  entity_type: "story",
  action: "update",
  name: "Add cool feature!",
  story_type: "feature",
  app_url: "https://app.clubhouse.io/zulip/story/11",
  changes,
  ...extra,
});
const single = (action: Record<string, unknown>, references: unknown[] = []): unknown => ({
  id: "5b2960f1",
  primary_id: action["id"],
  version: "v1",
  actions: [action],
  references,
});

const messages = (fixture: string, params: Record<string, string> = {}): { topic: string; body: string }[] =>
  fixtureMessages(clubhouse, here, fixture, params);

describe("clubhouse: events the recorded cases lack", () => {
  it("posts one message per story of a batch update, combining the changes", () => {
    const body = (name: string, id: number): string =>
      `The story [${name}](https://app.clubhouse.io/pig208/story/${id}) was moved from Epic **epic** to **testeipc**, ` +
      "Project **Product Development** to **test2**, and changed from type **feature** to **bug**, and added with " +
      "the new label **low priority** (In Development -> Ready for Review).";
    expect(messages("story_update_batch__everything_at_once")).toEqual([
      { topic: "asd4", body: body("asd4", 17) },
      { topic: "new1", body: body("new1", 26) },
    ]);
  });

  it("words a batch story with one change as the single-change event, and skips unsupported changes", () => {
    expect(messages("story_update_batch__one_change_each")).toEqual([
      {
        topic: "asd4",
        body: "The type of the story [asd4](https://app.clubhouse.io/pig208/story/17) was changed from **feature** to **bug**.",
      },
      {
        topic: "new3",
        body:
          "State of the story [new3](https://app.clubhouse.io/pig208/story/28) was changed from " +
          "**In Development** to **Ready for Review**.",
      },
    ]);
  });

  it("posts a PR linked to two stories once per story", () => {
    const body = (name: string, id: number): string =>
      `New GitHub PR [#2](https://github.com/PIG208/test-clubhouse/pull/2) opened for story [${name}](https://app.clubhouse.io/pig208/story/${id}) (Unscheduled -> In Development).`;
    expect(messages("pull-request_create__two_stories")).toEqual([
      { topic: "Story1", body: body("Story1", 17) },
      { topic: "Story2", body: body("Story2", 18) },
    ]);
  });

  it("filters each message by its own event name", () => {
    expect(
      messages("story_update_batch__everything_at_once", { only_events: '["story_update_type"]' }),
    ).toEqual([]);
    expect(messages("pull-request_create__two_stories", { exclude_events: '["pull-request_*"]' })).toEqual(
      [],
    );
  });

  it("words an epic created, a story unarchived, a new owner and a project move", () => {
    const epic = { id: 20, entity_type: "epic", action: "create", name: "New Epic!", state: "to do" };
    expect(onlyMessage(dispatchPayload(clubhouse, undefined, single(epic)))).toEqual({
      topic: "New Epic!",
      body: "New epic **New Epic!**(to do) was created.",
    });
    expect(
      onlyMessage(
        dispatchPayload(clubhouse, undefined, single(story({ archived: { new: false, old: true } }))),
      ).body,
    ).toBe("The story [Add cool feature!](https://app.clubhouse.io/zulip/story/11) was unarchived.");
    expect(
      onlyMessage(dispatchPayload(clubhouse, undefined, single(story({ owner_ids: { adds: ["5b1f"] } }))))
        .body,
    ).toBe("New owner added to the story [Add cool feature!](https://app.clubhouse.io/zulip/story/11).");
    const moved = single(story({ project_id: { new: 2, old: 1 } }), [
      { id: 1, entity_type: "project", name: "Backend" },
      { id: 2, entity_type: "project", name: "Devops" },
    ]);
    expect(onlyMessage(dispatchPayload(clubhouse, undefined, moved)).body).toBe(
      "The story [Add cool feature!](https://app.clubhouse.io/zulip/story/11) was moved from the **Backend** project to **Devops**.",
    );
  });

  it("words several labels and a completed task", () => {
    const labels = single(story({ label_ids: { adds: [31, 32] } }), [
      { id: 31, entity_type: "label", name: "mockup" },
      { id: 32, entity_type: "label", name: "label" },
    ]);
    expect(onlyMessage(dispatchPayload(clubhouse, undefined, labels)).body).toBe(
      "The labels **mockup**, **label** were added to the story [Add cool feature!](https://app.clubhouse.io/zulip/story/11).",
    );
    const task = {
      id: 40,
      entity_type: "story-task",
      action: "update",
      description: "A new task for this story",
      story_id: 11,
      changes: { complete: { new: true, old: false } },
    };
    const done = single(task, [
      {
        id: 11,
        entity_type: "story",
        name: "Add cool feature!",
        app_url: "https://app.clubhouse.io/zulip/story/11",
      },
    ]);
    expect(onlyMessage(dispatchPayload(clubhouse, undefined, done))).toEqual({
      topic: "Add cool feature!",
      body: "Task **A new task for this story** ([Add cool feature!](https://app.clubhouse.io/zulip/story/11)) was completed. :tada:",
    });
  });

  it("answers success without a message for a null body and for an edited comment", () => {
    expect(dispatchPayload(clubhouse, undefined, null).kind).toBe("ignored");
    const edited = { id: 50, entity_type: "story-comment", action: "update", text: "edited" };
    expect(dispatchPayload(clubhouse, undefined, single(edited)).kind).toBe("ignored");
  });

  it("rejects a story change it cannot word", () => {
    const caught = expectError(() =>
      dispatchPayload(clubhouse, undefined, single(story({ follower_ids: { adds: ["5b1f"] } }))),
    );
    expect(caught.toJSON()).toMatchObject({
      code: "UNSUPPORTED_WEBHOOK_EVENT_TYPE",
      event_type: "story_update",
      webhook_name: "Clubhouse",
    });
  });

  it("does not fail when the story's app_url and an epic's reference are missing", () => {
    const created = single({ id: 23, entity_type: "story", action: "create", name: "Orphan", epic_id: 99 });
    expect(onlyMessage(dispatchPayload(clubhouse, undefined, created)).body).toBe(
      "New story [Orphan](None) was created and added to the epic **None**.",
    );
  });
});

describe("clubhouse: Zulip's other fixtures", () => {
  const batch = (name: string, id: number, removedLabel = false): { topic: string; body: string } => ({
    topic: name,
    body:
      `The story [${name}](https://app.clubhouse.io/pig208/story/${id}) was moved from Epic **epic** to **testeipc**, ` +
      "Project **Product Development** to **test2**, and changed from type **feature** to **bug**" +
      (removedLabel ? "" : ", and added with the new label **low priority**") +
      " (In Development -> Ready for Review).",
  });

  it("posts every story of a batch update, combining each story's changes", () => {
    expect(messages("story_update_batch__zulip_everything_at_once")).toEqual([
      batch("asd4", 17),
      batch("new1", 26),
      batch("new2", 27),
    ]);
  });

  it("leaves removed labels out of a batch update", () => {
    expect(messages("story_update_batch__zulip_skip_removed_labels")).toEqual([
      batch("asd4", 17, true),
      batch("new1", 26, true),
      batch("new2", 27, true),
    ]);
  });

  it("words each story of a batch with one change as its single-change event", () => {
    expect(messages("story_update_batch__zulip_multiple_at_once")).toEqual([
      {
        topic: "asd4",
        body: "The type of the story [asd4](https://app.clubhouse.io/pig208/story/17) was changed from **feature** to **bug**.",
      },
      {
        topic: "new1",
        body: "The story [new1](https://app.clubhouse.io/pig208/story/26) was moved from **epic** to **testeipc**.",
      },
      {
        topic: "new2",
        body: "The label **low priority** was added to the story [new2](https://app.clubhouse.io/pig208/story/27).",
      },
      {
        topic: "new3",
        body: "State of the story [new3](https://app.clubhouse.io/pig208/story/28) was changed from **In Development** to **Ready for Review**.",
      },
      {
        topic: "new4",
        body: "The story [new4](https://app.clubhouse.io/pig208/story/29) was moved from the **Product Development** project to **test2**.",
      },
    ]);
  });

  it("posts nothing for a batch of changes it does not word, nor for an edited comment", () => {
    expectFixture(clubhouse, here, "story_update_batch__zulip_multiple_not_supported", null);
    expectFixture(clubhouse, here, "story-comment_update__text", null);
  });

  it("words several labels added at once", () => {
    expectFixture(clubhouse, here, "story_update_label__multiple_labels", {
      topic: "An epic story!",
      body: "The labels **mockup**, **label** were added to the story [An epic story!](https://app.clubhouse.io/zulip/story/23).",
    });
  });

  it("words a PR opened for a story whose state did not change", () => {
    expectFixture(clubhouse, here, "pull-request_create__without_workflow_state", {
      topic: "Testing pull requests with Story",
      body: "New GitHub PR [#10](https://github.com/eeshangarg/Scheduler/pull/10) opened for story [Testing pull requests with Story](https://app.clubhouse.io/zulip/story/28).",
    });
  });

  it("words a new owner", () => {
    expectFixture(clubhouse, here, "story_update_owner__added", {
      topic: "A new story by Shakespeare!",
      body: "New owner added to the story [A new story by Shakespeare!](https://app.clubhouse.io/zulip/story/26).",
    });
  });
});

// Shortcut's hex HMAC-SHA256 of the body.
describeSignature(clubhouse, {
  header: "payload-signature",
  secret: "shortcut-secret",
  body: '{"actions":[]}',
  signature: "f0c2da9f4f5d225217916b7bc49fc137f0c068a679c5dc816bfbf07acac5e63b",
});
