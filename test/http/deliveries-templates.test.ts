/** The template integration over HTTP: the preview endpoint, and a bot's templates posting a message. */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer } from "../helpers/test-server.js";

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
  const res = await t.api.post("/api/v1/users/me/subscriptions", {
    as: t.users.iago,
    params: { subscriptions: [{ name: "ops" }], principals: [t.users.webhookBot.email, t.users.iago.email] },
  });
  expect(res.status).toBe(200);
});
afterAll(async () => {
  await t.close();
});

describe("POST /api/v1/integrations/template/preview", () => {
  it("renders topic and body against the sample payload, headers and query", async () => {
    const res = await t.api.post("/api/v1/integrations/template/preview", {
      as: t.users.hamlet,
      params: {
        template_topic: "{{ payload.repository.repo_name }}",
        template_body:
          "{{ payload.push_data.pusher | markdown_escape }} pushed `{{ payload.push_data.tag }}` ({{ headers['x-env'] }}, {{ query.region }})",
        payload: JSON.stringify({
          repository: { repo_name: "ann/web" },
          push_data: { pusher: "ann_b", tag: "v1" },
        }),
        headers: JSON.stringify({ "X-Env": "prod" }),
        query: JSON.stringify({ region: "eu" }),
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      result: "success",
      msg: "",
      topic: "ann/web",
      body: "ann\\_b pushed `v1` (prod, eu)",
    });
  });

  it("names the line and column of an error", async () => {
    const res = await t.api.post("/api/v1/integrations/template/preview", {
      as: t.users.hamlet,
      params: { template_topic: "t", template_body: "ok\n{% for x in payload %}", payload: "{}" },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      result: "error",
      msg: "Error in template_body at line 2, column 1: tag {% for x in payload %} not closed",
      code: "BAD_REQUEST",
      template: "template_body",
      line: 2,
      column: 1,
    });
  });

  it("requires a JSON payload", async () => {
    const res = await t.api.post("/api/v1/integrations/template/preview", {
      as: t.users.hamlet,
      params: { template_body: "b", payload: "{not json" },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      result: "error",
      msg: 'Argument "payload" is not valid JSON.',
      code: "BAD_REQUEST",
    });
  });

  it("needs authentication", async () => {
    const res = await fetch(`${t.url}/api/v1/integrations/template/preview`, { method: "POST" });
    expect(res.status).toBe(401);
  });
});

describe("POST /api/v1/external/template", () => {
  it("posts what the bot's templates render, and logs the delivery", async () => {
    const patch = await t.api.patch(`/api/v1/bots/${t.users.webhookBot.id}`, {
      as: t.users.iago,
      params: {
        config_data: JSON.stringify({
          template_topic: "{{ payload.check }}",
          template_body:
            "{{ payload.check }} is **{{ payload.status }}** {{ payload.url | link: 'details' }}",
        }),
      },
    });
    expect(patch.status).toBe(200);
    const res = await fetch(
      `${t.url}/api/v1/external/template?api_key=${t.users.webhookBot.apiKey}&stream=ops`,
      {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ check: "api", status: "down", url: "https://status.example.com/api" }),
      },
    );
    expect(res.status).toBe(200);
    const messages = await t.api.get("/api/v1/messages", {
      as: t.users.iago,
      params: { anchor: "newest", num_before: 1, num_after: 0, apply_markdown: false },
    });
    const [msg] = messages.body.messages as { subject: string; content: string }[];
    expect({ subject: msg!.subject, content: msg!.content }).toEqual({
      subject: "api",
      content: "api is **down** [details](https://status.example.com/api)",
    });
  });

  it("answers a template error with its position, logged as rejected", async () => {
    await t.api.patch(`/api/v1/bots/${t.users.webhookBot.id}`, {
      as: t.users.iago,
      params: { config_data: JSON.stringify({ template_body: "{{ payload | nofilter }}" }) },
    });
    const res = await fetch(
      `${t.url}/api/v1/external/template?api_key=${t.users.webhookBot.apiKey}&stream=ops`,
      {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      },
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      result: "error",
      msg: "Error in template_body at line 1, column 1: undefined filter: nofilter",
      code: "BAD_REQUEST",
      template: "template_body",
      line: 1,
      column: 1,
    });
    const log = await t.api.get(`/api/v1/bots/${t.users.webhookBot.id}/deliveries`, {
      as: t.users.iago,
      params: { num: 1 },
    });
    const [entry] = log.body.deliveries as { outcome: string; integration: string; error: string }[];
    expect({ outcome: entry!.outcome, integration: entry!.integration, error: entry!.error }).toEqual({
      outcome: "rejected",
      integration: "template",
      error: "Error in template_body at line 1, column 1: undefined filter: nofilter",
    });
  });
});
