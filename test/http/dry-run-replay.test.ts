/**
 * Dry-run replay (issue 28): for a logged incoming delivery, what today's code — or a draft
 * template — would post, beside what was posted then, posting and logging nothing; and the same
 * over a bot's last deliveries, naming those whose message would change. Real listening server.
 */
import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer } from "../helpers/test-server.js";

let t: TestServer;
let templateBot: { id: number; apiKey: string };
beforeEach(async () => {
  t = await startTestServer();
  const sub = await t.api.post("/api/v1/users/me/subscriptions", {
    as: t.users.iago,
    params: { subscriptions: [{ name: "ops" }] },
  });
  expect(sub.status).toBe(200);
  const bot = await t.api.post("/api/v1/bots", {
    as: t.users.iago,
    params: {
      full_name: "Deploy notices",
      short_name: "deploys",
      bot_type: 2,
      config_data: { template_topic: "deploys", template_body: "{{ payload.app }} deployed" },
    },
  });
  expect(bot.status).toBe(200);
  templateBot = { id: bot.body.user_id as number, apiKey: bot.body.api_key as string };
});
afterEach(() => t.close());

async function deliver(apiKey: string, integration: string, body: unknown): Promise<void> {
  const res = await fetch(`${t.url}/api/v1/external/${integration}?api_key=${apiKey}&stream=ops`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect({ status: res.status, body: res.status === 200 ? "" : await res.text() }).toEqual({
    status: 200,
    body: "",
  });
}

async function logged(botId: number): Promise<{ id: number }[]> {
  const res = await t.api.get(`/api/v1/bots/${botId}/deliveries`, { as: t.users.iago });
  return res.body.deliveries as { id: number }[];
}

async function messageCount(): Promise<number> {
  const res = await t.api.get("/api/v1/messages", {
    as: t.users.iago,
    params: {
      anchor: "newest",
      num_before: 100,
      num_after: 0,
      narrow: [{ operator: "stream", operand: "ops" }],
    },
  });
  return (res.body.messages as unknown[]).length;
}

describe("POST /api/v1/bots/{bot_id}/deliveries/{delivery_id}/replay with dry_run=true", () => {
  it("answers what today's code would post beside what was posted, and posts and logs nothing", async () => {
    const hello = {
      featured_title: "Ada Lovelace",
      featured_url: "https://en.wikipedia.org/wiki/Ada_Lovelace",
    };
    await deliver(t.users.webhookBot.apiKey, "helloworld", hello);
    const [entry] = await logged(t.users.webhookBot.id);
    const before = { messages: await messageCount(), log: (await logged(t.users.webhookBot.id)).length };
    const res = await t.api.post(`/api/v1/bots/${t.users.webhookBot.id}/deliveries/${entry!.id}/replay`, {
      as: t.users.iago,
      params: { dry_run: true },
    });
    const body =
      "Hello! I am happy to be here! :smile:\nThe Wikipedia featured article for today is **[Ada Lovelace](https://en.wikipedia.org/wiki/Ada_Lovelace)**";
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      result: "success",
      msg: "",
      delivery_id: entry!.id,
      event: "default",
      topic: "Hello World",
      content: body,
      messages: [{ topic: "Hello World", content: body }],
      error: null,
      posted: { topic: "Hello World", content: body },
      changed: false,
    });
    expect({ messages: await messageCount(), log: (await logged(t.users.webhookBot.id)).length }).toEqual(
      before,
    );
  });

  it("renders a draft template against a delivery it received, and says what changes", async () => {
    await deliver(templateBot.apiKey, "template", { app: "billing" });
    const [entry] = await logged(templateBot.id);
    const res = await t.api.post(`/api/v1/bots/${templateBot.id}/deliveries/${entry!.id}/replay`, {
      as: t.users.iago,
      params: { dry_run: true, template_body: "**{{ payload.app }}** is live" },
    });
    expect(res.body).toEqual({
      result: "success",
      msg: "",
      delivery_id: entry!.id,
      event: "default",
      topic: "deploys",
      content: "**billing** is live",
      messages: [{ topic: "deploys", content: "**billing** is live" }],
      error: null,
      posted: { topic: "deploys", content: "billing deployed" },
      changed: true,
    });
  });

  it("answers the errors of a delivery that does not exist or is not incoming", async () => {
    const missing = await t.api.post(`/api/v1/bots/${templateBot.id}/deliveries/999/replay`, {
      as: t.users.iago,
      params: { dry_run: true },
    });
    expect({ status: missing.status, body: missing.body }).toEqual({
      status: 404,
      body: { result: "error", msg: "No such delivery", code: "NOT_FOUND" },
    });
    const notYours = await t.api.post(`/api/v1/bots/${templateBot.id}/deliveries/1/replay`, {
      as: t.users.hamlet,
      params: { dry_run: true },
    });
    expect(notYours.status).toBe(403);
  });
});

describe("POST /api/v1/bots/{bot_id}/deliveries/dry_run", () => {
  it("lists the last deliveries whose message a draft template would change", async () => {
    for (const app of ["billing", "search", "auth"]) await deliver(templateBot.apiKey, "template", { app });
    const same = await t.api.post(`/api/v1/bots/${templateBot.id}/deliveries/dry_run`, {
      as: t.users.iago,
      params: { num: 2 },
    });
    expect(same.body.changed).toBe(0);
    expect((same.body.dry_runs as { content: string }[]).map((r) => r.content)).toEqual([
      "auth deployed",
      "search deployed",
    ]);
    const draft = await t.api.post(`/api/v1/bots/${templateBot.id}/deliveries/dry_run`, {
      as: t.users.iago,
      params: {
        num: 10,
        template_body:
          "{% if payload.app == 'auth' %}auth deployed{% else %}{{ payload.app }} is live{% endif %}",
      },
    });
    expect(draft.body.changed).toBe(2);
    expect(
      (draft.body.dry_runs as { content: string; changed: boolean }[]).map((r) => [r.content, r.changed]),
    ).toEqual([
      ["auth deployed", false],
      ["search is live", true],
      ["billing is live", true],
    ]);
    const bad = await t.api.post(`/api/v1/bots/${templateBot.id}/deliveries/dry_run`, {
      as: t.users.iago,
      params: { num: 0 },
    });
    expect({ status: bad.status, body: bad.body }).toEqual({
      status: 400,
      body: { result: "error", msg: "num must be between 1 and 200", code: "BAD_REQUEST" },
    });
  });

  it("does not count a topic resolve_topics has since resolved as a change", async () => {
    const bot = t.users.webhookBot;
    const incident = (eventType: string): unknown => ({
      event: {
        event_type: eventType,
        data: {
          id: "Q1",
          html_url: "https://acme.pagerduty.com/incidents/Q1",
          number: 7,
          title: "Disk full",
          service: { html_url: "https://acme.pagerduty.com/services/S1", summary: "Storage" },
          assignees: [],
        },
      },
    });
    for (const type of ["incident.triggered", "incident.resolved"]) {
      const res = await fetch(
        `${t.url}/api/v1/external/pagerduty?api_key=${bot.apiKey}&stream=ops&resolve_topics=true`,
        {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(incident(type)),
        },
      );
      expect(res.status).toBe(200);
    }
    const runs = await t.api.post(`/api/v1/bots/${bot.id}/deliveries/dry_run`, {
      as: t.users.iago,
      params: { num: 10 },
    });
    expect(runs.body.changed).toBe(0);
    expect(
      (runs.body.dry_runs as { topic: string; posted: { topic: string } }[]).map((r) => [
        r.topic,
        r.posted.topic,
      ]),
    ).toEqual([
      ["Incident Disk full (#7)", "✔ Incident Disk full (#7)"],
      ["Incident Disk full (#7)", "✔ Incident Disk full (#7)"],
    ]);
  });
});
