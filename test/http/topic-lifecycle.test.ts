/**
 * A ticket's life in one topic (issue 28): with `resolve_topics=true`, an integration's closing
 * event resolves its topic (Zulip's "✔ " and the Notification Bot's notice), later events of the
 * closed object go to the resolved topic, and a reopening unresolves it. Real listening server,
 * PagerDuty (v3), Alertmanager, GitHub and Opsgenie payloads through the real endpoint.
 */
import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import fs from "node:fs";
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

/** #ops as iago reads it: topic, sender, text (oldest first). */
async function ops(): Promise<{ topic: string; sender: string; content: string }[]> {
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
  return (res.body.messages as { subject: string; sender_email: string; content: string }[]).map((m) => ({
    topic: m.subject,
    sender: m.sender_email,
    content: m.content,
  }));
}

const OK = { status: 200, body: { result: "success", msg: "" } };

const pagerduty = (eventType: string): unknown => ({
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

const alerts = (status: string): unknown => ({
  alerts: [
    {
      status,
      labels: { alertname: "DiskFull", instance: "db1" },
      annotations: {},
      generatorURL: "http://prom:9090/graph?g0.expr=up&g0.tab=1",
    },
  ],
});

const opsgenie = (action: string, alertId: string, alias = "disk-db1"): unknown => ({
  action,
  integrationName: "Prod",
  alert: { alertId, alias, message: "Disk full on db1", tags: ["disk"], tinyId: "7" },
});

describe("resolve_topics: a ticket's life in one topic", () => {
  it("resolves an incident's topic when it is resolved, and keeps its later events there", async () => {
    const bot = server.users.webhookBot;
    expect(await hook("pagerduty", pagerduty("incident.triggered"), "resolve_topics=true")).toEqual(OK);
    expect(await hook("pagerduty", pagerduty("incident.resolved"), "resolve_topics=true")).toEqual(OK);
    expect(await hook("pagerduty", pagerduty("incident.acknowledged"), "resolve_topics=true")).toEqual(OK);
    const messages = await ops();
    expect(messages.map((m) => [m.topic, m.sender])).toEqual([
      ["✔ Incident Disk full (#7)", bot.email],
      ["✔ Incident Disk full (#7)", bot.email],
      ["✔ Incident Disk full (#7)", "notification-bot@zulip.com"],
      ["✔ Incident Disk full (#7)", bot.email],
    ]);
    expect(messages[2]!.content).toBe(`@_**Zulip Webhook Bot|${bot.id}** has marked this topic as resolved.`);
  });

  it("unresolves an alert group's topic when it fires again", async () => {
    const bot = server.users.webhookBot;
    for (const status of ["firing", "resolved", "firing"]) {
      expect(await hook("alertmanager", alerts(status), "resolve_topics=true")).toEqual(OK);
    }
    const messages = await ops();
    expect(messages.map((m) => [m.topic, m.sender])).toEqual([
      ["db1", bot.email],
      ["db1", bot.email],
      ["db1", "notification-bot@zulip.com"],
      ["db1", "notification-bot@zulip.com"],
      ["db1", bot.email],
    ]);
    expect(messages.map((m) => m.content).slice(2, 4)).toEqual([
      `@_**Zulip Webhook Bot|${bot.id}** has marked this topic as resolved.`,
      `@_**Zulip Webhook Bot|${bot.id}** has marked this topic as unresolved.`,
    ]);
  });

  it("resolves a GitHub issue's topic when it is closed and unresolves it when it is reopened", async () => {
    const opened = JSON.parse(
      fs.readFileSync(
        new URL("../../integrations/github/fixtures/issues__opened.json", import.meta.url),
        "utf8",
      ),
    ) as { action: string; issue: { state: string } };
    const as = (action: string): unknown => ({ ...opened, action });
    const github = { "x-github-event": "issues" };
    for (const action of ["opened", "closed", "reopened"]) {
      expect(await hook("github", as(action), "resolve_topics=true", github)).toEqual(OK);
    }
    const topics = (await ops()).map((m) => [m.topic, m.sender === "notification-bot@zulip.com"]);
    const topic = "hello-world / issue #4 Greeting is misspelled";
    expect(topics).toEqual([
      [topic, false],
      [topic, false],
      [topic, true],
      [topic, true],
      [topic, false],
    ]);
  });

  it("gives each Opsgenie alert a topic of its own, resolved when it is closed, reopened by its alias", async () => {
    const bot = server.users.webhookBot;
    const notifier = "notification-bot@zulip.com";
    expect(await hook("opsgenie", opsgenie("Create", "A1"), "resolve_topics=true")).toEqual(OK);
    expect(await hook("opsgenie", opsgenie("Acknowledge", "A1"), "resolve_topics=true")).toEqual(OK);
    expect(await hook("opsgenie", opsgenie("Close", "A1"), "resolve_topics=true")).toEqual(OK);
    // Another alert of the same Opsgenie integration: a topic of its own, untouched.
    expect(await hook("opsgenie", opsgenie("Create", "B1", "cpu-web1"), "resolve_topics=true")).toEqual(OK);
    // The same trouble again: a new alert with the closed one's alias.
    expect(await hook("opsgenie", opsgenie("Create", "A2"), "resolve_topics=true")).toEqual(OK);
    const messages = await ops();
    expect(messages.map((m) => [m.topic, m.sender])).toEqual([
      ["Prod / disk-db1", bot.email],
      ["Prod / disk-db1", bot.email],
      ["Prod / disk-db1", bot.email],
      ["Prod / disk-db1", notifier],
      ["Prod / cpu-web1", bot.email],
      ["Prod / disk-db1", notifier],
      ["Prod / disk-db1", bot.email],
    ]);
    expect(messages[2]!.content).toBe(
      "[Opsgenie alert for Prod](https://app.opsgenie.com/alert/V2#/show/A1):\n" +
        "* **Type**: Close\n" +
        "* **Message**: Disk full on db1\n" +
        "* **Tags**: `disk`",
    );
    expect([messages[3]!.content, messages[5]!.content]).toEqual([
      `@_**Zulip Webhook Bot|${bot.id}** has marked this topic as resolved.`,
      `@_**Zulip Webhook Bot|${bot.id}** has marked this topic as unresolved.`,
    ]);
  });

  it("keeps Opsgenie's one topic per integration without the option, and with a topic in the URL", async () => {
    expect(await hook("opsgenie", opsgenie("Create", "A1"), "")).toEqual(OK);
    expect(await hook("opsgenie", opsgenie("Close", "A1"), "resolve_topics=true&topic=alerts")).toEqual(OK);
    expect((await ops()).map((m) => m.topic)).toEqual(["Prod", "alerts"]);
  });

  it("resolves an Intercom ticket's topic when it is closed", async () => {
    const bot = server.users.webhookBot;
    const fixture = (name: string): unknown =>
      JSON.parse(
        fs.readFileSync(
          new URL(`../../integrations/intercom/fixtures/${name}.json`, import.meta.url),
          "utf8",
        ),
      );
    expect(await hook("intercom", fixture("ticket.created__submitted"), "resolve_topics=true")).toEqual(OK);
    expect(await hook("intercom", fixture("ticket.closed__admin"), "resolve_topics=true")).toEqual(OK);
    // Cut to fit Zulip's 60 characters once resolved: 58 with its three dots, then "✔ ".
    const topic = "✔ Ticket #66040342: Unclear user message 'erf' with pendi...";
    expect((await ops()).map((m) => [m.topic, m.sender, m.content.split("\n")[0]])).toEqual([
      [
        topic,
        bot.email,
        "New ticket **Unclear user message 'erf' with pending email response** of type Tickets created (state: **Submitted**):",
      ],
      [topic, bot.email, "John Doe closed the ticket."],
      [
        topic,
        "notification-bot@zulip.com",
        `@_**Zulip Webhook Bot|${bot.id}** has marked this topic as resolved.`,
      ],
    ]);
  });

  it("leaves topics alone without the option", async () => {
    expect(await hook("pagerduty", pagerduty("incident.triggered"), "")).toEqual(OK);
    expect(await hook("pagerduty", pagerduty("incident.resolved"), "resolve_topics=false")).toEqual(OK);
    expect((await ops()).map((m) => m.topic)).toEqual(["Incident Disk full (#7)", "Incident Disk full (#7)"]);
  });

  it("is offered as a URL option of the integrations that support it", async () => {
    const res = await server.api.get("/api/v1/integrations");
    const byName = new Map(
      (res.body.integrations as { name: string; url_options: { key: string }[] }[]).map((i) => [i.name, i]),
    );
    expect(byName.get("pagerduty")?.url_options.map((o) => o.key)).toContain("resolve_topics");
    expect(byName.get("opsgenie")?.url_options.map((o) => o.key)).toEqual([
      "eu_region",
      "resolve_topics",
      "edit_status_messages",
    ]);
    expect(byName.get("helloworld")?.url_options).toEqual([]);
  });
});
