import { describe, expect, it } from "@jest/globals";
import {
  describeCases,
  describeSignature,
  dispatchPayload,
  expectError,
  expectFixture,
  onlyMessage,
} from "../kit/testing.js";
import taiga from "./index.js";

describeCases(taiga, new URL("./fixtures/cases", import.meta.url));

const here = new URL(".", import.meta.url);
const by = { full_name: "Ann Lee", permalink: "https://tree.taiga.io/profile/ann" };

function change(type: string, diff: Record<string, unknown>, data: Record<string, unknown> = {}): unknown {
  return {
    action: "change",
    type,
    by,
    data: { subject: "Fix login", ...data },
    change: { comment: "", diff },
  };
}

describe("taiga: changes the recorded cases lack", () => {
  it("posts a deleted epic in the General topic", () => {
    expectFixture(taiga, here, "epic__deleted", {
      topic: "General",
      body: "[Ann Lee](https://tree.taiga.io/profile/ann) deleted epic **Zulip is awesome!**.",
    });
  });

  it("posts a related user story removed from an epic, with links", () => {
    expectFixture(taiga, here, "relateduserstory__deleted", {
      topic: "General",
      body:
        "[Ann Lee](https://tree.taiga.io/profile/ann) removed a related user story " +
        "[Login page](https://tree.taiga.io/project/ann-web/us/12) from the epic " +
        "[Accounts](https://tree.taiga.io/project/ann-web/epic/3).",
    });
  });

  it("names the sprint as the topic and words unassignment, closing and severity", () => {
    const out = dispatchPayload(
      taiga,
      undefined,
      change(
        "issue",
        { assigned_to: { from: "Bob", to: null }, severity: { from: "Minor", to: "Critical" } },
        { milestone: { name: "Sprint 7" } },
      ),
    );
    expect(onlyMessage(out)).toEqual({
      topic: "Sprint 7",
      body:
        "[Ann Lee](https://tree.taiga.io/profile/ann) changed severity of issue **Fix login** from Minor to Critical.\n" +
        "[Ann Lee](https://tree.taiga.io/profile/ann) unassigned issue **Fix login**.",
    });
  });

  it("words a closed and a reopened user story", () => {
    expect(
      onlyMessage(
        dispatchPayload(taiga, undefined, change("userstory", { is_closed: { from: false, to: true } })),
      ).body,
    ).toBe("[Ann Lee](https://tree.taiga.io/profile/ann) closed user story **Fix login**.");
    expect(
      onlyMessage(
        dispatchPayload(taiga, undefined, change("userstory", { is_closed: { from: true, to: false } })),
      ).body,
    ).toBe("[Ann Lee](https://tree.taiga.io/profile/ann) reopened user story **Fix login**.");
  });

  it("words sprint start dates, set and changed, and skips an unchanged date", () => {
    const sprint = (diff: Record<string, unknown>): unknown => ({
      action: "change",
      type: "milestone",
      by,
      data: { name: "Sprint 7" },
      change: { comment: "", diff },
    });
    expect(
      onlyMessage(
        dispatchPayload(taiga, undefined, sprint({ estimated_start: { from: null, to: "2024-05-01" } })),
      ).body,
    ).toBe(
      "[Ann Lee](https://tree.taiga.io/profile/ann) changed estimated start of sprint **Sprint 7** to 2024-05-01.",
    );
    expect(
      onlyMessage(
        dispatchPayload(
          taiga,
          undefined,
          sprint({ estimated_start: { from: "2024-04-01", to: "2024-05-01" } }),
        ),
      ).body,
    ).toBe(
      "[Ann Lee](https://tree.taiga.io/profile/ann) changed estimated start of sprint **Sprint 7** from 2024-04-01 to 2024-05-01.",
    );
    expect(
      dispatchPayload(
        taiga,
        undefined,
        sprint({ estimated_finish: { from: "2024-05-01", to: "2024-05-01" } }),
      ).kind,
    ).toBe("ignored");
  });

  it("posts nothing for a change without a reported diff, and tolerates a missing comment", () => {
    const out = dispatchPayload(taiga, undefined, {
      action: "change",
      type: "task",
      by,
      data: { subject: "Fix login" },
      change: { diff: { tags: { from: [], to: ["ui"] } } },
    });
    expect(out.kind).toBe("ignored");
  });

  it("ignores only_events (Zulip's Taiga passes no event type)", () => {
    const out = dispatchPayload(taiga, undefined, change("task", { is_blocked: { from: false, to: true } }), {
      only_events: '["issue"]',
    });
    expect(onlyMessage(out).body).toBe(
      "[Ann Lee](https://tree.taiga.io/profile/ann) blocked task **Fix login**.",
    );
  });

  it("rejects an object type it does not know", () => {
    const caught = expectError(() =>
      dispatchPayload(taiga, undefined, { action: "create", type: "wikipage", by, data: { slug: "home" } }),
    );
    expect(caught.toJSON()).toMatchObject({
      code: "UNSUPPORTED_WEBHOOK_EVENT_TYPE",
      event_type: "wikipage",
      webhook_name: "Taiga",
    });
  });
});

// Taiga's hex HMAC-SHA1 of the body.
describeSignature(taiga, {
  header: "x-taiga-webhook-signature",
  secret: "taiga-secret-key",
  body: '{"action":"test","type":"test","by":{"full_name":"Jan","permalink":"https://tree.taiga.io/profile/kostek"},"data":{"test":"test"}}',
  signature: "9fcb7a24505f20d1c469c334ee50ac592803c5cd",
});

describe("taiga: Zulip's other fixtures", () => {
  const subject = { topic: "subject" };

  it("words a closed user story after its status change", () => {
    expectFixture(
      taiga,
      here,
      "userstory__changed_closed",
      {
        topic: "subject",
        body:
          "[TomaszKolek](https://tree.taiga.io/profile/kolaszek) changed status of user story **UserStory** from New to Done.\n" +
          "[TomaszKolek](https://tree.taiga.io/profile/kolaszek) closed user story **UserStory**.",
      },
      subject,
    );
  });

  it("words a changed due date of a user story", () => {
    expectFixture(
      taiga,
      here,
      "userstory__changed_due_date",
      {
        topic: "subject",
        body:
          "[Aditya Verma](https://tree.taiga.io/profile/orientor) changed due date of user story " +
          "[Nice Issue](https://tree.taiga.io/project/orientor-sd/us/54) from 2020-02-15 to 2020-02-22.",
      },
      subject,
    );
  });

  it("links a blocked task", () => {
    expectFixture(
      taiga,
      here,
      "task__changed_blocked_link",
      {
        topic: "subject",
        body: "[Aditya Verma](https://tree.taiga.io/profile/orientor) blocked task [nice task](https://tree.taiga.io/project/orientor-sd/task/56).",
      },
      subject,
    );
  });

  it("words an issue detached from its sprint", () => {
    expectFixture(
      taiga,
      here,
      "issue__changed_remove_sprint",
      {
        topic: "subject",
        body: "[Aditya Verma](https://tree.taiga.io/profile/orientor) detached issue [Nice Issue](https://tree.taiga.io/project/orientor-sd/issue/53) from sprint eres.",
      },
      subject,
    );
  });
});
