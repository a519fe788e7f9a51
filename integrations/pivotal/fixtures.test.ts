import { describe, expect, it } from "@jest/globals";
import { dispatchWebhook } from "../kit/index.js";
import { fixtureRequest } from "../kit/fixtures.js";
import { expectError, expectFixture } from "../kit/testing.js";
import pivotal from "./index.js";

const here = new URL(".", import.meta.url);

// Zulip's test cases that the recorded cases (fixtures/cases/) do not hold: Zulip's payload, and
// the topic and message its tests.py expects (test name as in Zulip's pivotal/tests.py).
describe("pivotal: Zulip's other fixtures", () => {
  it("PivotalV3HookTests.test_bad_subject", () => {
    expectFixture(pivotal, here, "story_update_v3__accepted_bad_subject", {
      topic: "Story changed",
      body: "Leo Franchi accepted My new Feature story [(view)](https://www.pivotaltracker.com/s/projects/807213/stories/48276573).",
    });
  });
  it("PivotalV3HookTests.test_finished", () => {
    expectFixture(pivotal, here, "story_update_v3__finished", {
      topic: "Another new story",
      body: 'Leo Franchi finished "Another new story" [(view)](https://www.pivotaltracker.com/s/projects/807213/stories/48278289).',
    });
  });
  it("PivotalV3HookTests.test_moved", () => {
    expectFixture(pivotal, here, "story_update_v3__moved", {
      topic: "My new Feature story",
      body: 'Leo Franchi edited "My new Feature story" [(view)](https://www.pivotaltracker.com/s/projects/807213/stories/48276573).',
    });
  });
  it("PivotalV3HookTests.test_rejected", () => {
    expectFixture(pivotal, here, "story_update_v3__rejected", {
      topic: "Another new story",
      body: 'Leo Franchi rejected "Another new story" with comments: "Not good enough, sorry" [(view)](https://www.pivotaltracker.com/s/projects/807213/stories/48278289).',
    });
  });
  it("PivotalV5HookTests.test_bad_request: a known kind Zulip does not word posts nothing", () => {
    expectFixture(pivotal, here, "epic_update_activity_v5__bad_request", null);
  });
  it("PivotalV5HookTests.test_bad_request: an unknown kind is unsupported under its own name", () => {
    const err = expectError(() =>
      dispatchWebhook(pivotal, fixtureRequest(pivotal, here, "unknown_kind_v5__bad_kind")),
    );
    expect(err.toJSON()).toMatchObject({
      code: "UNSUPPORTED_WEBHOOK_EVENT_TYPE",
      event_type: "unknown_kind",
      msg: "The 'unknown_kind' event isn't currently supported by the Pivotal webhook",
    });
  });
});
