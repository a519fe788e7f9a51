/**
 * Outgoing delivery that behaves: receivers that fail in each way (410, 429 + Retry-After, 503,
 * always 500, down until dead), dead letters, the owner's one summary, replay all and re-enabling.
 * A ManualClock drives the schedule (compressed by configuration); nothing sleeps.
 */
import { afterEach, describe, expect, it } from "@jest/globals";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { ManualClock } from "../../src/clock.js";
import { defaultConfig } from "../../src/config.js";
import type { OutgoingWebhookConfig } from "../../src/config.js";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer, TestUser } from "../helpers/test-server.js";
import { T0, createStream } from "./message-helpers.js";

interface Answer {
  status: number;
  body?: string;
  headers?: Record<string, string>;
}

/** A bot endpoint on a port of its own that records what it received and answers as told. */
class Receiver {
  readonly received: { deliveryId: string; content: string }[] = [];
  answer: () => Answer = () => ({ status: 200, body: '{"response_not_required": true}' });
  private server: http.Server | undefined;
  port = 0;

  async listen(port = 0): Promise<this> {
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { data: string };
        this.received.push({ deliveryId: String(req.headers["x-delivery-id"]), content: body.data });
        const a = this.answer();
        res.writeHead(a.status, { "content-type": "application/json", ...a.headers });
        res.end(a.body ?? "");
      });
    });
    await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", () => resolve()));
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
    return this;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (server === undefined) return;
    this.server = undefined;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

interface Setup {
  server: TestServer;
  clock: ManualClock;
  receiver: Receiver;
  botId: number;
  iago: TestUser;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup(config: Partial<OutgoingWebhookConfig> = {}): Promise<Setup> {
  const clock = new ManualClock();
  const outgoingWebhooks: OutgoingWebhookConfig = {
    ...defaultConfig().outgoingWebhooks,
    pollIntervalMs: 0,
    maxAttempts: 3,
    retryScheduleMs: [1000, 2000],
    retryJitter: 0,
    retryAfterMaxMs: 600_000,
    circuitBreakerThreshold: 100,
    deadNoticeWindowMs: 60_000,
    ...config,
  };
  const server = await startTestServer({ clock, config: { outgoingWebhooks } });
  cleanups.push(() => server.close());
  const receiver = await new Receiver().listen();
  cleanups.push(() => receiver.close());
  const { iago, hamlet, othello } = server.users;
  const res = await server.api.post("/api/v1/bots", {
    as: iago,
    params: {
      full_name: "Outgoing Bot",
      short_name: "outgoing",
      bot_type: 3,
      payload_url: JSON.stringify(`http://127.0.0.1:${receiver.port}/`),
      interface_type: 1,
    },
  });
  expect(res.status).toBe(200);
  await createStream(server, "Denmark", [iago, hamlet, othello]);
  return { server, clock, receiver, botId: res.body.user_id as number, iago };
}

/** Mentions the bot in Denmark > castle; answers the message's id once its first attempt ended. */
async function mention(s: Setup, text: string): Promise<number> {
  const res = await s.server.api.post("/api/v1/messages", {
    as: s.server.users.hamlet,
    params: { type: "stream", to: "Denmark", topic: "castle", content: `@**Outgoing Bot** ${text}` },
  });
  expect(res.status).toBe(200);
  await s.server.running.services.outgoing.idle();
  return res.body.id as number;
}

async function tick(s: Setup, advanceMs = 0): Promise<void> {
  s.clock.advance(advanceMs);
  await s.server.running.services.outgoing.tick();
  await s.server.running.services.outgoing.idle();
}

/** Private messages the bot sent its owner, oldest first. */
async function ownerNotices(s: Setup): Promise<string[]> {
  const rows = await s.server.running.db.all<{ content: string }>(
    "SELECT content FROM messages WHERE sender_id = ? AND stream_id IS NULL ORDER BY id",
    [s.botId],
  );
  return rows.map((r) => r.content);
}

async function deadState(s: Setup): Promise<unknown> {
  const res = await s.server.api.get(`/api/v1/bots/${s.botId}/dead_deliveries`, { as: s.iago });
  expect(res.status).toBe(200);
  return res.body;
}

function jobs(s: Setup): Promise<[number, string, number, string | null][]> {
  return s.server.running.services.outgoing
    .jobs()
    .then((all) => all.map((j) => [j.id, j.status, j.nextAttemptAtMs - T0 * 1000, j.lastError]));
}

const nearUrl = (s: Setup, id: number): string =>
  `${s.server.url}/#narrow/channel/2-Denmark/topic/castle/near/${id}`;

describe("outgoing delivery: 410 Gone", () => {
  it("disables the endpoint at once, tells the owner, parks the delivery and what follows until re-enabled", async () => {
    const s = await setup();
    s.receiver.answer = () => ({ status: 410, body: "gone" });
    const first = await mention(s, "one");
    expect(s.receiver.received).toHaveLength(1);
    const second = await mention(s, "two");
    await tick(s);
    expect(s.receiver.received).toHaveLength(1); // nothing more is sent to a disabled endpoint
    const url = `http://127.0.0.1:${s.receiver.port}/`;
    expect(await ownerNotices(s)).toEqual([
      `The outgoing webhook endpoint ${url} of your bot @_**Outgoing Bot** is disabled: it answered 410 Gone. ` +
        "Nothing is sent to it until you re-enable it (**Your bots → Deliveries → Re-enable endpoint**); " +
        "deliveries meanwhile are parked as dead letters, which you can replay once it works again.",
    ]);
    expect(await deadState(s)).toEqual({
      result: "success",
      msg: "",
      dead_deliveries: [
        {
          id: 1,
          delivery_id: `${first}.1`,
          service_id: 1,
          message_id: first,
          trigger: "mention",
          attempts: 1,
          error: "Third party responded with 410",
          created_at: T0,
          dead_at: T0,
        },
        {
          id: 2,
          delivery_id: `${second}.2`,
          service_id: 1,
          message_id: second,
          trigger: "mention",
          attempts: 0,
          error: "The endpoint is disabled: it answered 410 Gone.",
          created_at: T0,
          dead_at: T0,
        },
      ],
      endpoints: [
        {
          service_id: 1,
          url,
          state: "disabled",
          consecutive_failures: 0,
          failing_since: null,
          next_probe_at: null,
          last_error: "it answered 410 Gone",
          disabled_at: T0,
          disabled_reason: "it answered 410 Gone",
        },
      ],
    });

    // The owner fixes the endpoint, re-enables it and replays all.
    s.receiver.answer = () => ({ status: 200, body: '{"response_not_required": true}' });
    const enabled = await s.server.api.post(`/api/v1/bots/${s.botId}/endpoints/enable`, { as: s.iago });
    expect(enabled.status).toBe(200);
    expect(enabled.body).toEqual({
      result: "success",
      msg: "",
      endpoints: [
        {
          service_id: 1,
          url,
          state: "ok",
          consecutive_failures: 0,
          failing_since: null,
          next_probe_at: null,
          last_error: null,
          disabled_at: null,
          disabled_reason: null,
        },
      ],
    });
    const replay = await s.server.api.post(`/api/v1/bots/${s.botId}/dead_deliveries/replay`, { as: s.iago });
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual({ result: "success", msg: "", replayed: 2 });
    await tick(s);
    expect(s.receiver.received.slice(1)).toEqual([
      { deliveryId: `${first}.1`, content: "@**Outgoing Bot** one" },
      { deliveryId: `${second}.2`, content: "@**Outgoing Bot** two" },
    ]);
    expect(await jobs(s)).toEqual([]);
  });
});

describe("outgoing delivery: 429 and 503", () => {
  it("honours Retry-After in seconds on 429, without counting it as the endpoint's failure", async () => {
    const s = await setup({ circuitBreakerThreshold: 1 });
    s.receiver.answer = () => ({ status: 429, headers: { "retry-after": "120" } });
    await mention(s, "busy?");
    expect(await jobs(s)).toEqual([[1, "pending", 120_000, "Third party responded with 429"]]);
    await tick(s, 119_999);
    expect(s.receiver.received).toHaveLength(1);
    s.receiver.answer = () => ({ status: 200, body: '{"content": "now"}' });
    await tick(s, 1);
    expect(s.receiver.received).toHaveLength(2);
    expect(await jobs(s)).toEqual([]);
  });

  it("honours Retry-After as an HTTP date on 503, capped at the configured maximum", async () => {
    const s = await setup({ retryAfterMaxMs: 300_000 });
    const in90s = new Date(T0 * 1000 + 90_000).toUTCString();
    s.receiver.answer = () => ({ status: 503, headers: { "retry-after": in90s } });
    await mention(s, "one");
    expect(await jobs(s)).toEqual([[1, "pending", 90_000, "Third party responded with 503"]]);
    s.receiver.answer = () => ({ status: 503, headers: { "retry-after": "86400" } });
    await tick(s, 90_000);
    expect(await jobs(s)).toEqual([[1, "pending", 90_000 + 300_000, "Third party responded with 503"]]);
  });

  it("retries a 503 without Retry-After on the schedule, spread by the jitter", async () => {
    const s = await setup({ retryScheduleMs: [10_000], retryJitter: 0.5 });
    s.receiver.answer = () => ({ status: 503 });
    await mention(s, "one");
    const [[, status, at]] = (await jobs(s)) as [[number, string, number, string | null]];
    expect(status).toBe("pending");
    expect(at).toBeGreaterThanOrEqual(5_000);
    expect(at).toBeLessThanOrEqual(15_000);
  });
});

describe("outgoing delivery: circuit breaker", () => {
  it("stops sending to an endpoint that always answers 500, probes it, and sends what waited once it recovers", async () => {
    const s = await setup({ circuitBreakerThreshold: 2, circuitProbeIntervalMs: 30_000 });
    s.receiver.answer = () => ({ status: 500, body: "boom" });
    await mention(s, "one");
    await mention(s, "two");
    expect(s.receiver.received).toHaveLength(2);
    // The circuit is open: new deliveries wait (pending, no attempt spent), nothing is sent.
    await mention(s, "three");
    const four = await mention(s, "four");
    await tick(s, 29_999);
    expect(s.receiver.received).toHaveLength(2);
    expect(await jobs(s)).toEqual([
      [3, "pending", 0, null],
      [4, "pending", 0, null],
    ]);
    expect(((await deadState(s)) as { endpoints: unknown[] }).endpoints).toEqual([
      {
        service_id: 1,
        url: `http://127.0.0.1:${s.receiver.port}/`,
        state: "circuit_open",
        consecutive_failures: 2,
        failing_since: T0,
        next_probe_at: T0 + 30,
        last_error: "Third party responded with 500",
        disabled_at: null,
        disabled_reason: null,
      },
    ]);
    // The probe: one delivery; still 500 (reported as Zulip does), the circuit stays open.
    await tick(s, 1);
    expect(s.receiver.received.map((r) => r.content)).toEqual([
      "@**Outgoing Bot** one",
      "@**Outgoing Bot** two",
      "@**Outgoing Bot** three",
    ]);
    expect(await jobs(s)).toEqual([[4, "pending", 0, null]]);
    // Recovered: the next probe succeeds, the circuit closes and the rest goes.
    s.receiver.answer = () => ({ status: 200, body: '{"response_not_required": true}' });
    await tick(s, 30_000);
    await tick(s);
    expect(s.receiver.received.slice(3).map((r) => r.deliveryId)).toEqual([`${four}.4`]);
    expect(await jobs(s)).toEqual([]);
    await mention(s, "five");
    expect(s.receiver.received).toHaveLength(5);
  });
});

describe("outgoing delivery: down until dead", () => {
  it("parks deliveries as dead after the last attempt, sends the owner one summary, and replays all", async () => {
    const s = await setup();
    const port = s.receiver.port;
    await s.receiver.close();
    const one = await mention(s, "one");
    const two = await mention(s, "two");
    await tick(s, 1000);
    await tick(s, 2000);
    const down = "A connection error occurred. Is my bot server down?";
    expect(await jobs(s)).toEqual([
      [1, "dead", 3000 + 40_000, down],
      [2, "dead", 3000 + 40_000, down],
    ]);
    expect(await ownerNotices(s)).toEqual([]); // within the window: not yet
    await tick(s, 60_000);
    const summary =
      "Your bot @_**Outgoing Bot** could not deliver 2 messages to its outgoing webhook; they are parked as dead letters until you replay them (**Your bots → Deliveries → Replay all**).\n" +
      `* 2 × ${down}\n` +
      `Messages: [1](${nearUrl(s, one)}), [2](${nearUrl(s, two)})`;
    expect(await ownerNotices(s)).toEqual([summary]);
    await tick(s, 60_000);
    expect(await ownerNotices(s)).toEqual([summary]); // one summary, not one per delivery
    expect(await deadState(s)).toEqual({
      result: "success",
      msg: "",
      dead_deliveries: [
        {
          id: 1,
          delivery_id: `${one}.1`,
          service_id: 1,
          message_id: one,
          trigger: "mention",
          attempts: 3,
          error: down,
          created_at: T0,
          dead_at: T0 + 3,
        },
        {
          id: 2,
          delivery_id: `${two}.2`,
          service_id: 1,
          message_id: two,
          trigger: "mention",
          attempts: 3,
          error: down,
          created_at: T0,
          dead_at: T0 + 3,
        },
      ],
      endpoints: [
        {
          service_id: 1,
          url: `http://127.0.0.1:${port}/`,
          state: "failing",
          consecutive_failures: 6,
          failing_since: T0,
          next_probe_at: null,
          last_error: down,
          disabled_at: null,
          disabled_reason: null,
        },
      ],
    });
    // Back up: Replay all sends both with their delivery ids.
    const back = await new Receiver().listen(port);
    cleanups.push(() => back.close());
    const replay = await s.server.api.post(`/api/v1/bots/${s.botId}/dead_deliveries/replay`, { as: s.iago });
    expect(replay.body).toEqual({ result: "success", msg: "", replayed: 2 });
    await tick(s);
    expect(back.received).toEqual([
      { deliveryId: `${one}.1`, content: "@**Outgoing Bot** one" },
      { deliveryId: `${two}.2`, content: "@**Outgoing Bot** two" },
    ]);
    expect(await jobs(s)).toEqual([]);
    expect(((await deadState(s)) as { dead_deliveries: unknown[] }).dead_deliveries).toEqual([]);
  });

  it("disables an endpoint that has failed for the configured time, with a notice", async () => {
    const s = await setup({ maxAttempts: 10, retryScheduleMs: [5000], disableAfterMs: 10_000 });
    await s.receiver.close();
    await mention(s, "one");
    await tick(s, 5000);
    expect(await ownerNotices(s)).toEqual([]);
    await tick(s, 5000);
    expect(await ownerNotices(s)).toEqual([
      `The outgoing webhook endpoint http://127.0.0.1:${s.receiver.port}/ of your bot @_**Outgoing Bot** is disabled: ` +
        "it has failed for 10 seconds without a success (last: A connection error occurred. Is my bot server down?). " +
        "Nothing is sent to it until you re-enable it (**Your bots → Deliveries → Re-enable endpoint**); " +
        "deliveries meanwhile are parked as dead letters, which you can replay once it works again.",
    ]);
    await tick(s, 5000);
    expect(await jobs(s)).toEqual([
      [
        1,
        "dead",
        15_000,
        "The endpoint is disabled: it has failed for 10 seconds without a success (last: A connection error occurred. Is my bot server down?).",
      ],
    ]);
  });
});

describe("outgoing delivery: access", () => {
  it("answers 403 to a user who neither owns the bot nor administers", async () => {
    const s = await setup();
    const res = await s.server.api.post(`/api/v1/bots/${s.botId}/dead_deliveries/replay`, {
      as: s.server.users.hamlet,
    });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ result: "error", msg: "Insufficient permission", code: "BAD_REQUEST" });
  });
});
