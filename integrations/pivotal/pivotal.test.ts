import { describe, expect, it } from "@jest/globals";
import fs from "node:fs";
import { JsonableError } from "../../src/errors.js";
import { dispatchWebhook } from "../kit/index.js";
import { casePayload, describeCases, dispatchPayload, expectFixture, onlyMessage } from "../kit/testing.js";
import pivotal from "./index.js";

const cases = new URL("./fixtures/cases", import.meta.url);
const here = new URL(".", import.meta.url);

describeCases(pivotal, cases);

function sendXml(xml: string, params: Record<string, string> = {}): ReturnType<typeof dispatchWebhook> {
  return dispatchWebhook(pivotal, {
    headers: { "content-type": "application/xml" },
    params,
    rawBody: Buffer.from(xml),
  });
}

/** The exact XML body of a recorded v3 case. */
function casePayloadText(caseId: string): string {
  const file = new URL(`./fixtures/cases/${caseId}.json`, import.meta.url);
  return (JSON.parse(fs.readFileSync(file, "utf8")) as { body_raw: string }).body_raw;
}

function errorOf(run: () => unknown): Record<string, unknown> {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(JsonableError);
    return (err as JsonableError).toJSON();
  }
  throw new Error("expected an error");
}

describe("pivotal: API v3 (XML)", () => {
  it("posts a comment to the 'Comment added' topic", () => {
    expectFixture(pivotal, here, "note_create_v3__commented", {
      topic: "Comment added",
      body: 'Leo Franchi added comment: "FIX THIS NOW" [(view)](https://www.pivotaltracker.com/s/projects/807213/stories/48276573).',
    });
  });

  it("names the topic 'Story changed' when the description quotes no name", () => {
    expectFixture(pivotal, here, "story_update_v3__no_quoted_name", {
      topic: "Story changed",
      body: "Leo Franchi accepted My new Feature story [(view)](https://www.pivotaltracker.com/s/projects/807213/stories/48276573).",
    });
  });

  it("words a delivered story (Zulip's v3 delivered fixture)", () => {
    expectFixture(pivotal, here, "story_update_v3__delivered", {
      topic: "Another new story",
      body: 'Leo Franchi delivered "Another new story" [(view)](https://www.pivotaltracker.com/s/projects/807213/stories/48278289).',
    });
  });

  it("reads a story without stories or estimate", () => {
    const xml =
      "<activity><event_type>story_create</event_type><project_id>1</project_id>" +
      "<description>Ann added &quot;Tiny &amp; quick&quot;</description></activity>";
    expect(onlyMessage(sendXml(xml))).toEqual({
      topic: "Tiny & quick",
      body: 'Ann added "Tiny & quick" ( ):\n\n~~~ quote\n\n~~~\n\n [(view)](https://www.pivotaltracker.com/s/projects/1/stories/).',
    });
  });

  it("rejects other v3 events, malformed XML and XML with a DOCTYPE", () => {
    expect(
      errorOf(() => sendXml("<activity><event_type>story_delete</event_type></activity>")),
    ).toMatchObject({
      code: "UNSUPPORTED_WEBHOOK_EVENT_TYPE",
      event_type: "story_delete_v3",
    });
    expect(errorOf(() => sendXml("<activity><event_type>story_update</activity>"))).toMatchObject({
      result: "error",
      msg: "Malformed XML payload",
    });
    const bomb = '<!DOCTYPE a [<!ENTITY b "bbbb">]><activity><description>&b;</description></activity>';
    expect(errorOf(() => sendXml(bomb))).toMatchObject({ result: "error" });
  });

  it("filters with Zulip's v3 event names", () => {
    const xml = casePayloadText("test_started__PivotalV3HookTests");
    expect(sendXml(xml, { only_events: '["story_create_v3"]' }).kind).toBe("filtered");
    expect(sendXml(xml, { only_events: '["story_update_v3"]' }).kind).toBe("messages");
  });
});

describe("pivotal: API v5 (JSON)", () => {
  it("posts a new story without a description", () => {
    expectFixture(pivotal, here, "story_create_activity_v5__feature_no_description", {
      topic: "#63496070: A fresh feature",
      body:
        "Leo Franchi created feature: [Hard Code](https://www.pivotaltracker.com/s/projects/807213): " +
        "[A fresh feature](https://www.pivotaltracker.com/story/show/63496070)\n* State is **unstarted**",
    });
  });

  it("stays silent on activities Zulip does not post", () => {
    expectFixture(pivotal, here, "story_delete_activity_v5__deleted", null);
  });

  it("rejects an unknown activity kind under its own name", () => {
    const p = { ...casePayload(cases, "test_moved__PivotalV5HookTests"), kind: "epic_create_activity" };
    expect(errorOf(() => dispatchPayload(pivotal, undefined, p))).toMatchObject({
      code: "UNSUPPORTED_WEBHOOK_EVENT_TYPE",
      event_type: "epic_create_activity",
      msg: "The 'epic_create_activity' event isn't currently supported by the Pivotal webhook",
    });
  });

  it("does without performed_by and original values", () => {
    const p = casePayload(cases, "test_accepted__PivotalV5HookTests");
    delete p["performed_by"];
    p["changes"] = [{ kind: "story", new_values: { current_state: "accepted" } }];
    expect(onlyMessage(dispatchPayload(pivotal, undefined, p))).toEqual({
      topic: "#63486316: Story of the Year",
      body: "Someone updated [Hard Code](https://www.pivotaltracker.com/s/projects/807213): [Story of the Year](http://www.pivotaltracker.com/story/show/63486316):",
    });
  });

  it("stays silent on a comment activity without a comment", () => {
    const p = casePayload(cases, "test_commented__PivotalV5HookTests");
    p["changes"] = [];
    expect(dispatchPayload(pivotal, undefined, p).kind).toBe("ignored");
  });

  it("filters with Zulip's v5 event names", () => {
    const p = casePayload(cases, "test_moved__PivotalV5HookTests");
    expect(
      dispatchPayload(pivotal, undefined, p, { exclude_events: '["story_move_activity_v5"]' }).kind,
    ).toBe("filtered");
  });
});
