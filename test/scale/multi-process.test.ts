/**
 * Two real server processes on one PostgreSQL + Redis, no sticky routing: register on A, send on B,
 * poll A's queue through B; kill -9 A in the middle of a long poll and carry on through B without
 * losing an event; outgoing webhooks delivered exactly once while both run.
 * Skipped where PostgreSQL or Redis does not run.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { call } from "../helpers/client.js";
import type { Credentials } from "../helpers/client.js";
import { freshPostgresSchema, postgresAvailable } from "../helpers/postgres.js";
import { startProcess } from "../helpers/process.js";
import type { RunningProcess } from "../helpers/process.js";
import { REDIS_URL, dropRedisPrefix, freshRedisPrefix, redisAvailable } from "../helpers/redis.js";
import { connectRedis } from "../../src/infra/redis/connection.js";
import { silentLogger } from "../../src/lib/logger.js";

const servicesUp = (await postgresAvailable()) && (await redisAvailable());
if (!servicesUp) process.stdout.write("SKIPPED multi-process tests: PostgreSQL or Redis not running\n");

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON bodies of any shape
type Json = any;

(servicesUp ? describe : describe.skip)("two server processes on PostgreSQL + Redis", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "scale-"));
  const prefix = freshRedisPrefix();
  let dropSchema: () => Promise<void>;
  let a: RunningProcess;
  let b: RunningProcess;
  let urlA = "";
  let urlB = "";
  let owner: Credentials;
  let hamlet: Credentials;
  let hamletId = 0;
  let receiver: http.Server;
  const deliveries: { messageId: number; content: string }[] = [];

  const start = async (dbUrl: string): Promise<[RunningProcess, string]> => {
    const p = startProcess([
      "bin/chat-server.js",
      "serve",
      "--port",
      "0",
      "--data-dir",
      dataDir,
      "--database",
      dbUrl,
      "--redis",
      REDIS_URL,
      "--redis-prefix",
      prefix,
      "--owner-email",
      "iago@zulip.com",
      "--owner-password",
      "iago-password",
      "--rate-limit",
      "off",
      "--log-level",
      "warn",
      "--outgoing-webhook-allow",
      "127.0.0.1",
    ]);
    const m = await p.waitFor(/Chat server listening on (http:\/\/\S+)/, 60_000);
    return [p, m[1]!];
  };

  beforeAll(async () => {
    const schema = await freshPostgresSchema();
    dropSchema = schema.drop;
    // A first: it applies the migrations and creates the organization; then B on the same store.
    [a, urlA] = await start(schema.url);
    [b, urlB] = await start(schema.url);
    const key = /^key=(.*)$/m.exec(fs.readFileSync(path.join(dataDir, "zuliprc"), "utf8"))![1]!;
    owner = { email: "iago@zulip.com", apiKey: key };
    const created = await call(urlA, "POST", "/api/v1/users", owner, {
      email: "hamlet@zulip.com",
      password: "hamlet-password",
      full_name: "King Hamlet",
    });
    hamletId = created.body.user_id as number;
    const fetched = await call(urlB, "POST", "/api/v1/fetch_api_key", undefined, {
      username: "hamlet@zulip.com",
      password: "hamlet-password",
    });
    hamlet = { email: "hamlet@zulip.com", apiKey: fetched.body.api_key as string };
    receiver = http.createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString("utf8")));
      req.on("end", () => {
        const payload = JSON.parse(body) as { message: { id: number }; data: string };
        deliveries.push({ messageId: payload.message.id, content: payload.data });
        res.setHeader("content-type", "application/json");
        res.end('{"response_not_required": true}');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", () => resolve()));
  }, 120_000);

  afterAll(async () => {
    await a.stop("SIGKILL");
    await b.stop();
    receiver.closeAllConnections();
    receiver.close();
    await dropSchema();
    const cleanup = await connectRedis(REDIS_URL, silentLogger, prefix);
    await dropRedisPrefix(cleanup.client, prefix);
    await cleanup.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const sendPrivate = (base: string, content: string) =>
    call(base, "POST", "/api/v1/messages", owner, {
      type: "private",
      to: JSON.stringify([hamletId]),
      content,
    });

  it("delivers each outgoing webhook exactly once while both processes run", async () => {
    const port = (receiver.address() as AddressInfo).port;
    const bot = await call(urlA, "POST", "/api/v1/bots", owner, {
      full_name: "Echo Bot",
      short_name: "echo",
      bot_type: "3",
      payload_url: JSON.stringify(`http://127.0.0.1:${port}/`),
      interface_type: "1",
    });
    expect(bot.body.result).toBe("success");
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) {
      const sent = await call(i % 2 === 0 ? urlA : urlB, "POST", "/api/v1/messages", owner, {
        type: "private",
        to: JSON.stringify([bot.body.user_id as number]),
        content: `job ${i}`,
      });
      ids.push(sent.body.id as number);
    }
    const deadline = Date.now() + 20_000;
    while (deliveries.length < 6 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    // Both workers scan for due jobs every 500 ms: give them several chances to deliver twice.
    await new Promise((r) => setTimeout(r, 2000));
    expect(deliveries.map((d) => d.content).sort()).toEqual([
      "job 0",
      "job 1",
      "job 2",
      "job 3",
      "job 4",
      "job 5",
    ]);
    expect(deliveries.map((d) => d.messageId).sort((x, y) => x - y)).toEqual(ids);
  }, 40_000);

  it("registers on A, sends on B, polls A's queue through B; after kill -9 of A the client carries on through B", async () => {
    const registered = await call(urlA, "POST", "/api/v1/register", hamlet, {
      event_types: JSON.stringify(["message"]),
    });
    const queueId = registered.body.queue_id as string;
    let last = registered.body.last_event_id as number;
    const seen: string[] = [];
    const take = (events: Json[]): void => {
      for (const e of events) {
        seen.push(e.message.content as string);
        last = e.id as number;
      }
    };

    await sendPrivate(urlB, "one");
    const first = await call(urlB, "GET", "/api/v1/events", hamlet, {
      queue_id: queueId,
      last_event_id: String(last),
    });
    expect(first.status).toBe(200);
    take(first.body.events as Json[]);
    expect(seen).toEqual(["one"]);

    // A long poll on A; a message arrives through B; A is killed -9 whether or not it answered.
    const controller = new AbortController();
    const onA = call(
      urlA,
      "GET",
      "/api/v1/events",
      hamlet,
      { queue_id: queueId, last_event_id: String(last) },
      controller.signal,
    );
    await new Promise((r) => setTimeout(r, 200));
    await sendPrivate(urlB, "two");
    a.child.kill("SIGKILL");
    const outcome = await onA.then(
      (res) => res,
      () => undefined,
    );
    if (outcome?.status === 200) take(outcome.body.events as Json[]);
    await sendPrivate(urlB, "three");

    // The client carries on through B with the same queue and its last acknowledged id.
    while (seen.length < 3) {
      const next = await call(urlB, "GET", "/api/v1/events", hamlet, {
        queue_id: queueId,
        last_event_id: String(last),
      });
      expect(next.status).toBe(200);
      take(next.body.events as Json[]);
    }
    expect(seen).toEqual(["one", "two", "three"]);
    expect(await a.stop()).toBe(null);
  }, 40_000);
});
