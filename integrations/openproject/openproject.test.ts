import { describe, expect, it } from "@jest/globals";
import {
  describeCases,
  describeSignature,
  dispatchPayload,
  expectError,
  expectFixture,
} from "../kit/testing.js";
import openproject, { formatDuration } from "./index.js";

describeCases(openproject, new URL("./fixtures/cases", import.meta.url));

const here = new URL(".", import.meta.url);

describe("openproject: events the recorded cases lack", () => {
  it("posts a sub-project created", () => {
    expectFixture(openproject, here, "project__created_with_parent", {
      topic: "AI Backend",
      body: "Project **AI Backend** was created as a sub-project of **Demo project**.",
    });
  });

  it("posts an updated sub-project without naming its parent (Zulip's project_updated fixture)", () => {
    expectFixture(openproject, here, "project__updated", {
      topic: "AI Backend",
      body: "Project **AI Backend** was updated.",
    });
  });

  it("posts an attachment uploaded to a work package", () => {
    expectFixture(openproject, here, "attachment__created", {
      topic: "Project 2",
      body: "**Nirved Mishra** uploaded **a.out** in **task2**.",
    });
  });

  it("posts a time entry without a work package on the project", () => {
    expectFixture(openproject, here, "time_entry__created_without_work_package", {
      topic: "Project1",
      body: "**Nirved Mishra** logged **1 day and 2 hours** on **Project1**.",
    });
  });

  it("words ISO 8601 durations", () => {
    expect(formatDuration("PT1H")).toBe("1 hour");
    expect(formatDuration("P2DT1H30M5S")).toBe("2 days, 1 hour, 30 minutes and 5 seconds");
    expect(formatDuration("PT1.5H")).toBeNull();
    expect(formatDuration("P")).toBeNull();
  });

  it("does not filter (Zulip's OpenProject passes no event type)", () => {
    const out = dispatchPayload(
      openproject,
      undefined,
      { action: "project:updated", project: { name: "AI Backend" } },
      { only_events: '["work_package"]' },
    );
    expect(out).toMatchObject({
      kind: "messages",
      messages: [{ topic: "AI Backend", body: "Project **AI Backend** was updated." }],
    });
  });

  it("rejects a resource it does not know, naming the action", () => {
    const caught = expectError(() =>
      dispatchPayload(openproject, undefined, { action: "news:created", news: {} }),
    );
    expect(caught.toJSON()).toMatchObject({
      code: "UNSUPPORTED_WEBHOOK_EVENT_TYPE",
      event_type: "news:created",
      webhook_name: "OpenProject",
    });
  });
});

// sha1= and the hex HMAC-SHA1 of the body.
describeSignature(openproject, {
  header: "x-op-signature",
  secret: "op-secret",
  body: '{"action":"work_package:created"}',
  signature: "sha1=bff278bb413f5b778e86fbc2cb9eef9bcf70d1f0",
});
