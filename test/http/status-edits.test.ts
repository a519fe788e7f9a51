/**
 * edit_status_messages (issue 28, a ticket's life in one topic): a status-only change of an object
 * (an incident acknowledged or resolved, an alert acknowledged or closed, a commit's status) edits
 * the bot's previous status message in its topic instead of posting a new one, while that message
 * is still the topic's newest; clients hear it as an update_message. Real listening server,
 * payloads through the real endpoint.
 */
import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import fs from "node:fs";
import { ManualClock } from "../../src/clock.js";
import { drainEvents, registerQueue } from "../helpers/events.js";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer } from "../helpers/test-server.js";

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
  const res = await server.api.post("/api/v1/users/me/subscriptions", {
    as: server.users.iago,
    params: { subscriptions: JSON.stringify([{ name: "ops" }]) },
  });
  expect(res.status).toBe(200);
});
afterEach(() => server.close());

const OK = { status: 200, body: { result: "success", msg: "" } };

async function hook(
  name: string,
  payload: unknown,
  query: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: unknown }> {
  const key = server.users.webhookBot.apiKey;
  const res = await fetch(`${server.url}/api/v1/external/${name}?api_key=${key}&stream=ops&${query}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(payload),
  });
  return { status: res.status, body: await res.json() };
}

/** #ops as iago reads it: id, topic, sender, text (oldest first). */
async function ops(): Promise<{ id: number; topic: string; sender: string; content: string }[]> {
  const res = await server.api.get("/api/v1/messages", {
    as: server.users.iago,
    params: {
      anchor: "oldest",
      num_before: 0,
      num_after: 100,
      apply_markdown: false,
      narrow: JSON.stringify([{ operator: "stream", operand: "ops" }]),
    },
  });
  return (res.body.messages as { id: number; subject: string; sender_email: string; content: string }[]).map(
    (m) => ({ id: m.id, topic: m.subject, sender: m.sender_email, content: m.content }),
  );
}

const incident = (eventType: string): unknown => ({
  event: {
    event_type: eventType,
    agent: { html_url: "https://acme.pagerduty.com/users/U1", summary: "Ann Agent" },
    data: {
      id: "Q1",
      html_url: "https://acme.pagerduty.com/incidents/Q1",
      number: 7,
      title: "Disk full",
      service: { html_url: "https://acme.pagerduty.com/services/S1", summary: "Storage" },
      assignees: [{ html_url: "https://acme.pagerduty.com/users/U2", summary: "Bob Oncall" }],
    },
  },
});

const INCIDENT = "[Disk full (#7)](https://acme.pagerduty.com/incidents/Q1)";

describe("edit_status_messages", () => {
  it("edits the incident's last status message when it is acknowledged, then resolved", async () => {
    const bot = server.users.webhookBot;
    const q = await registerQueue(server, server.users.iago, {
      event_types: ["message", "update_message"],
      apply_markdown: false,
    });
    const query = "edit_status_messages=true";
    expect(await hook("pagerduty", incident("incident.triggered"), query)).toEqual(OK);
    expect(await hook("pagerduty", incident("incident.acknowledged"), query)).toEqual(OK);
    const [triggered, acknowledged] = await ops();
    expect(await drainEvents(q)).toEqual([
      expect.objectContaining({ type: "message", message: expect.objectContaining({ id: triggered!.id }) }),
      expect.objectContaining({
        type: "message",
        message: expect.objectContaining({ id: acknowledged!.id }),
      }),
    ]);

    expect(await hook("pagerduty", incident("incident.resolved"), query)).toEqual(OK);
    const topic = "Incident Disk full (#7)";
    expect(await ops()).toEqual([
      {
        id: triggered!.id,
        topic,
        sender: bot.email,
        content:
          `Incident ${INCIDENT} triggered by [Storage](https://acme.pagerduty.com/services/S1) ` +
          "(assigned to [Bob Oncall](https://acme.pagerduty.com/users/U2)).",
      },
      {
        id: acknowledged!.id,
        topic,
        sender: bot.email,
        content: `Incident ${INCIDENT} resolved by [Ann Agent](https://acme.pagerduty.com/users/U1).`,
      },
    ]);
    // Clients hear the edit, and no new message.
    expect(await drainEvents(q)).toEqual([
      expect.objectContaining({
        type: "update_message",
        user_id: bot.id,
        message_id: acknowledged!.id,
        message_ids: [acknowledged!.id],
        stream_name: "ops",
        orig_content: `Incident ${INCIDENT} acknowledged by [Bob Oncall](https://acme.pagerduty.com/users/U2).`,
        content: `Incident ${INCIDENT} resolved by [Ann Agent](https://acme.pagerduty.com/users/U1).`,
        rendered_content:
          '<p>Incident <a href="https://acme.pagerduty.com/incidents/Q1">Disk full (#7)</a> resolved by ' +
          '<a href="https://acme.pagerduty.com/users/U1">Ann Agent</a>.</p>',
      }),
    ]);
  });

  it("posts a new status message once someone has spoken after the last one", async () => {
    const query = "edit_status_messages=true";
    expect(await hook("pagerduty", incident("incident.acknowledged"), query)).toEqual(OK);
    const said = await server.api.post("/api/v1/messages", {
      as: server.users.iago,
      params: { type: "stream", to: "ops", topic: "Incident Disk full (#7)", content: "looking" },
    });
    expect(said.status).toBe(200);
    expect(await hook("pagerduty", incident("incident.unacknowledged"), query)).toEqual(OK);
    expect((await ops()).map((m) => m.content)).toEqual([
      `Incident ${INCIDENT} acknowledged by [Bob Oncall](https://acme.pagerduty.com/users/U2).`,
      "looking",
      `Incident ${INCIDENT} unacknowledged by [Storage](https://acme.pagerduty.com/services/S1) ` +
        "(assigned to [Bob Oncall](https://acme.pagerduty.com/users/U2)).",
    ]);
  });

  it("edits with resolve_topics too: the closing status edits, then the topic is resolved", async () => {
    const bot = server.users.webhookBot;
    const query = "edit_status_messages=true&resolve_topics=true";
    const alert = (action: string): unknown => ({
      action,
      integrationName: "Prod",
      alert: { alertId: "A1", alias: "disk-db1", message: "Disk full", tags: [] },
    });
    for (const action of ["Create", "Acknowledge", "Close"]) {
      expect(await hook("opsgenie", alert(action), query)).toEqual(OK);
    }
    const link = "[Opsgenie alert for Prod](https://app.opsgenie.com/alert/V2#/show/A1):\n";
    expect((await ops()).map((m) => [m.topic, m.sender, m.content])).toEqual([
      ["✔ Prod / disk-db1", bot.email, `${link}* **Type**: Create\n* **Message**: Disk full`],
      ["✔ Prod / disk-db1", bot.email, `${link}* **Type**: Close\n* **Message**: Disk full`],
      [
        "✔ Prod / disk-db1",
        "notification-bot@zulip.com",
        `@_**Zulip Webhook Bot|${bot.id}** has marked this topic as resolved.`,
      ],
    ]);
  });

  it("edits a commit status only for the same commit and context", async () => {
    const recorded = JSON.parse(
      fs.readFileSync(
        new URL("../../../shared/webhook-cases/github/test_status_with_target_url_msg.json", import.meta.url),
        "utf8",
      ),
    ) as { fixture: Record<string, unknown> };
    const commitUrl = (sha: string): string => `https://github.com/baxterthehacker/public-repo/commit/${sha}`;
    const status = (sha: string, state: string): unknown => ({
      ...recorded.fixture,
      sha,
      state,
      commit: { ...(recorded.fixture["commit"] as object), sha, html_url: commitUrl(sha) },
    });
    const github = { "x-github-event": "status" };
    const query = "edit_status_messages=true";
    const a = "9049f1265b7d61be4a8904a9a27120d2064dab3b";
    const b = "1111111111111111111111111111111111111111";
    expect(await hook("github", status(a, "pending"), query, github)).toEqual(OK);
    expect(await hook("github", status(a, "success"), query, github)).toEqual(OK);
    expect(await hook("github", status(b, "pending"), query, github)).toEqual(OK);
    const commit = (sha: string): string => `[${sha.slice(0, 11)}](${commitUrl(sha)})`;
    expect((await ops()).map((m) => [m.topic, m.content])).toEqual([
      ["public-repo", `${commit(a)} changed its status to [success](https://example.com/build/status).`],
      ["public-repo", `${commit(b)} changed its status to [pending](https://example.com/build/status).`],
    ]);
  });

  it("posts every status anew without the option", async () => {
    expect(await hook("pagerduty", incident("incident.acknowledged"), "")).toEqual(OK);
    expect(await hook("pagerduty", incident("incident.resolved"), "edit_status_messages=false")).toEqual(OK);
    expect((await ops()).length).toBe(2);
  });

  it("is offered as a URL option of the integrations that support it", async () => {
    const res = await server.api.get("/api/v1/integrations");
    const byName = new Map(
      (res.body.integrations as { name: string; url_options: { key: string; label: string }[] }[]).map(
        (i) => [i.name, i.url_options],
      ),
    );
    for (const name of ["pagerduty", "opsgenie", "sentry", "github"]) {
      expect(byName.get(name)).toContainEqual({
        key: "edit_status_messages",
        label: "Edit the last status message instead of posting a new one for status-only changes",
        validator: "check_bool",
      });
    }
    expect(byName.get("jira")?.map((o) => o.key)).not.toContain("edit_status_messages");
  });
});

describe("edit_status_messages: retention", () => {
  it("forgets a status message after 90 days: the object's next status is a new message", async () => {
    const clock = new ManualClock();
    await server.close();
    server = await startTestServer({ clock });
    const subscribed = await server.api.post("/api/v1/users/me/subscriptions", {
      as: server.users.iago,
      params: { subscriptions: JSON.stringify([{ name: "ops" }]) },
    });
    expect(subscribed.status).toBe(200);
    const query = "edit_status_messages=true";
    const other = (eventType: string): unknown => {
      const p = incident(eventType) as { event: { data: Record<string, unknown> } };
      return { event: { ...p.event, data: { ...p.event.data, id: "Q2", number: 8, title: "CPU hot" } } };
    };

    expect(await hook("pagerduty", incident("incident.acknowledged"), query)).toEqual(OK);
    clock.advance(91 * 24 * 3600 * 1000);
    // Another incident's status message: remembering it deletes the rows past their retention.
    expect(await hook("pagerduty", other("incident.acknowledged"), query)).toEqual(OK);
    expect(await hook("pagerduty", incident("incident.unacknowledged"), query)).toEqual(OK);
    expect((await ops()).filter((m) => m.topic === "Incident Disk full (#7)").map((m) => m.content)).toEqual([
      `Incident ${INCIDENT} acknowledged by [Bob Oncall](https://acme.pagerduty.com/users/U2).`,
      `Incident ${INCIDENT} unacknowledged by [Storage](https://acme.pagerduty.com/services/S1) ` +
        "(assigned to [Bob Oncall](https://acme.pagerduty.com/users/U2)).",
    ]);
    // The other incident's, remembered since, is still edited.
    expect(await hook("pagerduty", other("incident.resolved"), query)).toEqual(OK);
    expect((await ops()).filter((m) => m.topic === "Incident CPU hot (#8)")).toHaveLength(1);
  });
});
