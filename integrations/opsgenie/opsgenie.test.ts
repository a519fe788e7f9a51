import { describe, expect, it } from "@jest/globals";
import { dispatchWebhook } from "../kit/index.js";
import type { DispatchOutcome } from "../kit/index.js";
import { describeCases, dispatchPayload, expectFixture, onlyMessage } from "../kit/testing.js";
import opsgenie from "./index.js";

describeCases(opsgenie, new URL("./fixtures/cases", import.meta.url));

function post(payload: unknown, params: Record<string, string> = {}): DispatchOutcome {
  return dispatchWebhook(opsgenie, {
    headers: { "content-type": "application/json" },
    params: { stream: "opsgenie", ...params },
    rawBody: Buffer.from(JSON.stringify(payload), "utf8"),
  });
}

const alert = (action: string, extra: Record<string, unknown> = {}): unknown => ({
  action,
  integrationName: "Integration1",
  alert: { alertId: "abc-123", message: "test alert", tags: ["tag1"], ...extra },
});

describe("opsgenie: actions the recorded cases lack", () => {
  it("names the new owner of an AssignOwnership", () => {
    expect(post(alert("AssignOwnership", { owner: "user2@ifountain.com" }))).toEqual({
      kind: "messages",
      event: "AssignOwnership",
      messages: [
        {
          topic: "Integration1",
          body:
            "[Opsgenie alert for Integration1](https://app.opsgenie.com/alert/V2#/show/abc-123):\n" +
            "* **Type**: AssignOwnership\n" +
            "* **Assigned owner**: user2@ifountain.com\n" +
            "* **Message**: test alert\n" +
            "* **Tags**: `tag1`",
        },
      ],
    });
  });

  it("names the team of an AddTeam", () => {
    const outcome = post(alert("AddTeam", { team: "team2" }));
    expect(outcome.kind === "messages" ? outcome.messages[0]?.body : outcome.kind).toBe(
      "[Opsgenie alert for Integration1](https://app.opsgenie.com/alert/V2#/show/abc-123):\n" +
        "* **Type**: AddTeam\n" +
        "* **Team added**: team2\n" +
        "* **Message**: test alert\n" +
        "* **Tags**: `tag1`",
    );
  });

  it("links to the European service region with eu_region=true", () => {
    const outcome = post(alert("Close"), { eu_region: "true" });
    expect(outcome.kind === "messages" ? outcome.messages[0]?.body : outcome.kind).toBe(
      "[Opsgenie alert for Integration1](https://app.eu.opsgenie.com/alert/V2#/show/abc-123):\n" +
        "* **Type**: Close\n" +
        "* **Message**: test alert\n" +
        "* **Tags**: `tag1`",
    );
  });

  it("posts custom actions under their own name and filters on the action", () => {
    const outcome = post(alert("MyCustomAction"));
    expect(outcome.kind === "messages" ? outcome.messages[0]?.body : outcome.kind).toBe(
      "[Opsgenie alert for Integration1](https://app.opsgenie.com/alert/V2#/show/abc-123):\n" +
        "* **Type**: MyCustomAction\n" +
        "* **Message**: test alert\n" +
        "* **Tags**: `tag1`",
    );
    expect(post(alert("Close"), { only_events: '["Create"]' }).kind).toBe("filtered");
  });

  it("rejects an eu_region that is not a boolean", () => {
    expect(() => post(alert("Close"), { eu_region: "maybe" })).toThrow(
      "Invalid value for option 'eu_region'",
    );
  });
});

describe("opsgenie: a ticket's life in one topic", () => {
  const lifecycleOf = (o: DispatchOutcome): unknown =>
    o.kind === "messages" ? o.messages.map((m) => [m.topic, m.resolves, m.statusOnly]) : o.kind;

  it("posts each alert in a topic of its own, named by its alias, with resolve_topics", () => {
    const on = { resolve_topics: "true" };
    const aliased = (action: string): unknown => alert(action, { alias: "disk-db1" });
    expect(lifecycleOf(post(aliased("Create"), on))).toEqual([["Integration1 / disk-db1", false, undefined]]);
    expect(lifecycleOf(post(aliased("Acknowledge"), on))).toEqual([
      ["Integration1 / disk-db1", undefined, true],
    ]);
    expect(lifecycleOf(post(aliased("Close"), on))).toEqual([["Integration1 / disk-db1", true, true]]);
    expect(lifecycleOf(post(aliased("AddNote"), on))).toEqual([
      ["Integration1 / disk-db1", undefined, undefined],
    ]);
    // No alias: the alert's id.
    expect(lifecycleOf(post(alert("Close"), { edit_status_messages: "true" }))).toEqual([
      ["Integration1 / abc-123", true, true],
    ]);
  });

  it("keeps the integration's topic without the options, or when the URL names a topic", () => {
    expect(lifecycleOf(post(alert("Close")))).toEqual([["Integration1", true, true]]);
    expect(lifecycleOf(post(alert("Close"), { resolve_topics: "true", topic: "alerts" }))).toEqual([
      ["alerts", true, true],
    ]);
  });
});

describe("opsgenie: Zulip's other fixtures", () => {
  const dir = new URL(".", import.meta.url);
  it("names the team an AddTeam added", () => {
    expectFixture(opsgenie, dir, "AddTeam__addteam", {
      topic: "Integration1",
      body:
        "[Opsgenie alert for Integration1](https://app.opsgenie.com/alert/V2#/show/052652ac-5d1c-464a-812a-7dd18bbfba8c):\n" +
        "* **Type**: AddTeam\n* **Team added**: team2\n* **Message**: test alert\n* **Tags**: `tag1`, `tag2`",
    });
  });
  it("names the owner an AssignOwnership assigned", () => {
    expectFixture(opsgenie, dir, "AssignOwnership__assignownership", {
      topic: "Integration1",
      body:
        "[Opsgenie alert for Integration1](https://app.opsgenie.com/alert/V2#/show/052652ac-5d1c-464a-812a-7dd18bbfba8c):\n" +
        "* **Type**: AssignOwnership\n* **Assigned owner**: user2@ifountain.com\n* **Message**: test alert\n* **Tags**: `tag1`, `tag2`",
    });
  });
  it("lists the escalation after the alert's message and tags", () => {
    const outcome = dispatchPayload(opsgenie, undefined, {
      action: "Escalate",
      integrationName: "Webhook_Test",
      escalationName: "test_esc",
      alert: { alertId: "7ba97e3a", message: "disk full", tags: ["db"] },
    });
    expect(onlyMessage(outcome).body).toBe(
      "[Opsgenie alert for Webhook_Test](https://app.opsgenie.com/alert/V2#/show/7ba97e3a):\n" +
        "* **Type**: Escalate\n* **Message**: disk full\n* **Tags**: `db`\n* **Escalation**: test_esc",
    );
  });
});
