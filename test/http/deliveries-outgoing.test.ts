/** The delivery log of outgoing webhooks: delivered, failed, retrying, replay; retention; the rate limit. */
import { afterEach, describe, expect, it } from "@jest/globals";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { ManualClock } from "../../src/clock.js";
import { defaultConfig } from "../../src/config.js";
import type { ServerConfig } from "../../src/config.js";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer } from "../helpers/test-server.js";
import { createStream } from "./message-helpers.js";

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** An endpoint on port 0 answering `status` with `body`. */
async function endpoint(): Promise<{
  url: string;
  received: Received[];
  answer: { status: number; body: string };
  close(): Promise<void>;
}> {
  const received: Received[] = [];
  const answer = { status: 200, body: '{"content": "pong"}' };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(answer.status, { "content-type": "application/json" });
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    answer,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function server(clock: ManualClock, config: Partial<ServerConfig> = {}): Promise<TestServer> {
  const t = await startTestServer({
    clock,
    config: {
      outgoingWebhooks: {
        ...defaultConfig().outgoingWebhooks,
        pollIntervalMs: 0,
        maxAttempts: 2,
        retryScheduleMs: [1000],
        retryJitter: 0,
      },
      ...config,
    },
  });
  cleanups.push(() => t.close());
  return t;
}

/** iago's outgoing bot (id 8) pointing at `url`, and stream Denmark with iago and the bot. */
async function outgoingBot(t: TestServer, url: string): Promise<{ id: number; token: string }> {
  const res = await t.api.post("/api/v1/bots", {
    as: t.users.iago,
    params: {
      full_name: "Outgoing Bot",
      short_name: "outgoing",
      bot_type: 3,
      payload_url: JSON.stringify(url),
      interface_type: 1,
    },
  });
  expect(res.status).toBe(200);
  await createStream(t, "Denmark", [t.users.iago]);
  return { id: res.body.user_id as number, token: res.body.services[0].token as string };
}

async function mention(t: TestServer): Promise<number> {
  const res = await t.api.post("/api/v1/messages", {
    as: t.users.iago,
    params: { type: "stream", to: "Denmark", topic: "castle", content: "@**Outgoing Bot** ping" },
  });
  expect(res.status).toBe(200);
  await t.running.services.outgoing.idle();
  return res.body.id as number;
}

async function list(t: TestServer, botId: number): Promise<Record<string, unknown>[]> {
  const res = await t.api.get(`/api/v1/bots/${botId}/deliveries`, { as: t.users.iago });
  expect(res.status).toBe(200);
  return res.body.deliveries as Record<string, unknown>[];
}

describe("outgoing deliveries", () => {
  it("logs a 2xx answer as delivered, the service token redacted", async () => {
    const clock = new ManualClock();
    const t = await server(clock);
    const hook = await endpoint();
    cleanups.push(() => hook.close());
    const bot = await outgoingBot(t, hook.url);
    const messageId = await mention(t);
    const [entry] = await list(t, bot.id);
    const request = entry!["request"] as Record<string, unknown>;
    expect({ ...entry, request: undefined }).toEqual({
      id: 1,
      bot_id: 8,
      timestamp: 1767225600,
      direction: "outgoing",
      integration: "generic",
      event: "mention",
      request: undefined,
      response: { status: 200, body: '{"content": "pong"}' },
      outcome: "delivered",
      message_ids: [],
      attempts: 1,
      error: null,
      replay_of: null,
      old_credential: null,
    });
    expect(request["method"]).toBe("POST");
    expect(request["url"]).toBe(hook.url);
    expect(request["headers"]).toEqual({
      "content-type": "application/json",
      "x-delivery-id": `${messageId}.1`,
    });
    const body = JSON.parse(request["body"] as string) as Record<string, unknown>;
    expect(body["token"]).toBe("[redacted]");
    expect(body["data"]).toBe("@**Outgoing Bot** ping");
    expect(body["delivery_id"]).toBe(`${messageId}.1`);
    // What the service received carried the real token.
    expect((JSON.parse(hook.received[0]!.body) as Record<string, unknown>)["token"]).toBe(bot.token);
    expect(JSON.stringify(entry)).not.toContain(bot.token);
  });

  it("logs a non-2xx answer as failed, then replays it as delivered with the token restored", async () => {
    const clock = new ManualClock();
    const t = await server(clock);
    const hook = await endpoint();
    cleanups.push(() => hook.close());
    hook.answer.status = 500;
    hook.answer.body = "oops";
    const bot = await outgoingBot(t, hook.url);
    const messageId = await mention(t);
    const [failed] = await list(t, bot.id);
    expect(failed!["outcome"]).toBe("failed");
    expect(failed!["error"]).toBe("The service answered with HTTP 500");
    expect(failed!["response"]).toEqual({ status: 500, body: "oops" });

    hook.answer.status = 200;
    hook.answer.body = "{}";
    const res = await t.api.post(`/api/v1/bots/${bot.id}/deliveries/${failed!["id"] as number}/replay`, {
      as: t.users.iago,
    });
    expect(res.status).toBe(200);
    const replay = res.body.delivery as Record<string, unknown>;
    expect(replay["outcome"]).toBe("delivered");
    expect(replay["replay_of"]).toBe(failed!["id"]);
    expect(replay["direction"]).toBe("outgoing");
    expect(replay["response"]).toEqual({ status: 200, body: "{}" });
    const sent = hook.received[hook.received.length - 1]!;
    const sentBody = JSON.parse(sent.body) as Record<string, unknown>;
    expect(sentBody["token"]).toBe(bot.token);
    expect(sentBody["data"]).toBe("@**Outgoing Bot** ping");
    // A fresh delivery id, so that a receiver deduplicating on it does not drop the replay.
    expect(sentBody["delivery_id"]).toBe(`${messageId}.1.replay1767225600000`);
    expect(sent.headers["x-delivery-id"]).toBe(`${messageId}.1.replay1767225600000`);
    expect(JSON.stringify(replay)).not.toContain(bot.token);
  });

  it("logs a connection error as retrying, and as failed when no attempt is left", async () => {
    const clock = new ManualClock();
    const t = await server(clock);
    const hook = await endpoint();
    await hook.close();
    const bot = await outgoingBot(t, hook.url);
    await mention(t);
    const first = await list(t, bot.id);
    expect(first.map((d) => [d["outcome"], d["attempts"]])).toEqual([["retrying", 1]]);
    expect(first[0]!["response"]).toEqual({ status: null, body: null });
    expect(String(first[0]!["error"])).toMatch(/^Connection error: /);
    clock.advance(1000);
    await t.running.services.outgoing.tick();
    const second = await list(t, bot.id);
    expect(second.map((d) => [d["outcome"], d["attempts"]])).toEqual([
      ["failed", 2],
      ["retrying", 1],
    ]);
  });
});

async function helloworld(t: TestServer, query = "stream=test"): Promise<Response> {
  return fetch(`${t.url}/api/v1/external/helloworld?api_key=${t.users.webhookBot.apiKey}&${query}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: '{"featured_title":"T","featured_url":"https://example.com/"}',
  });
}

describe("retention", () => {
  it("keeps the newest entries per bot", async () => {
    const clock = new ManualClock();
    const t = await server(clock, { deliveryLog: { maxPerBot: 3 } });
    for (let i = 0; i < 5; i++) expect((await helloworld(t, `stream=s${i}`)).status).toBe(200);
    const entries = await list(t, t.users.webhookBot.id);
    expect(entries.map((d) => (d["request"] as { url: string }).url)).toEqual([
      "/api/v1/external/helloworld?stream=s4",
      "/api/v1/external/helloworld?stream=s3",
      "/api/v1/external/helloworld?stream=s2",
    ]);
  });

  it("prunes entries older than the maximum age", async () => {
    const clock = new ManualClock();
    const t = await server(clock, { deliveryLog: { maxAgeMs: 24 * 3600 * 1000 } });
    await helloworld(t, "stream=old");
    await list(t, t.users.webhookBot.id);
    clock.advance(2 * 24 * 3600 * 1000);
    await helloworld(t, "stream=new");
    const entries = await list(t, t.users.webhookBot.id);
    expect(entries.map((d) => (d["request"] as { url: string }).url)).toEqual([
      "/api/v1/external/helloworld?stream=new",
    ]);
  });

  it("records nothing when the log is off", async () => {
    const clock = new ManualClock();
    const t = await server(clock, { deliveryLog: { enabled: false } });
    await helloworld(t);
    expect(await list(t, t.users.webhookBot.id)).toEqual([]);
  });
});

describe("per-webhook rate limit", () => {
  it("answers 429 RATE_LIMIT_HIT with Retry-After over the bucket, logs it as rejected, tells the owner once", async () => {
    const clock = new ManualClock();
    const t = await server(clock, { webhookRateLimit: { count: 2, seconds: 60 } });
    await createStream(t, "test", [t.users.iago, t.users.webhookBot]);
    expect((await helloworld(t)).status).toBe(200);
    expect((await helloworld(t)).status).toBe(200);
    const over = await helloworld(t);
    expect(over.status).toBe(429);
    expect(over.headers.get("retry-after")).toBe("30");
    expect(over.headers.get("x-ratelimit-limit")).toBe("2");
    expect(over.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(over.headers.get("x-ratelimit-reset")).toBe("1767225660");
    expect(await over.json()).toEqual({
      result: "error",
      msg: "API usage exceeded rate limit",
      code: "RATE_LIMIT_HIT",
      "retry-after": 30,
    });
    expect((await helloworld(t)).status).toBe(429);
    const entries = await list(t, t.users.webhookBot.id);
    expect(entries.map((d) => d["outcome"])).toEqual(["rejected", "rejected", "sent", "sent"]);
    expect(entries[0]!["error"]).toBe("API usage exceeded rate limit");
    // One notice to the owner, however many requests were refused.
    const pms = await t.api.get("/api/v1/messages", {
      as: t.users.iago,
      params: {
        anchor: "newest",
        num_before: 10,
        num_after: 0,
        narrow: [{ operator: "is", operand: "private" }],
      },
    });
    const notices = (pms.body.messages as { content: string }[]).filter((m) =>
      m.content.includes("rate limit"),
    );
    expect(notices.length).toBe(1);
    // The bucket refills: one request per 30 s.
    clock.advance(30_000);
    expect((await helloworld(t)).status).toBe(200);
    expect((await helloworld(t)).status).toBe(429);
  });

  it("takes a bot's own limit from its config_data", async () => {
    const clock = new ManualClock();
    const t = await server(clock);
    const patch = await t.api.patch(`/api/v1/bots/${t.users.webhookBot.id}`, {
      as: t.users.iago,
      params: { config_data: JSON.stringify({ webhook_rate_limit: "1/10" }) },
    });
    expect(patch.status).toBe(200);
    expect((await helloworld(t)).status).toBe(200);
    const over = await helloworld(t);
    expect(over.status).toBe(429);
    expect(over.headers.get("retry-after")).toBe("10");
  });
});
