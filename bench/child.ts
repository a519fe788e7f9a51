/**
 * The benchmark's server-side processes, one per mode, driven over IPC by bench/run.ts:
 *
 *   chat       the chat server (startServer, fresh SQLite store in a temp dir) plus setup and
 *              in-process measurement commands (bulk users, streams, queues, fan-out timing)
 *   ceiling    a bare Koa app with @koa/router and the project's bodyParser answering a small JSON POST
 *   botserver  the bot server (startBotServer, helloworld) pointed at the chat server
 *   idle       a fresh chat server's services, used only to measure the RSS of idle event queues
 *
 * Timestamps sent back to the orchestrator are process.hrtime.bigint() values as decimal strings:
 * Node reads CLOCK_MONOTONIC, which is one clock for every process on the machine, so a child's
 * timestamp can be subtracted from one taken in the orchestrator.
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import v8 from "node:v8";
import Koa from "koa";
import Router from "@koa/router";
import { defaultConfig } from "../src/config.js";
import { startServer } from "../src/server.js";
import type { RunningServer } from "../src/server.js";
import { bodyParser } from "../src/http/middleware/body.js";
import type { AppState } from "../src/http/state.js";
import type { QueueRequest } from "../src/domain/events/event-queue-service.js";
import { generateApiKey } from "../src/domain/users/secrets.js";
import type { User } from "../src/domain/users/types.js";
import { placeholders } from "../src/store/db.js";
import { serveRpc } from "./lib/rpc.js";

const mode = process.argv[2];

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "chat-bench-"));
}

function forceGc(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) {
    v8.setFlagsFromString("--expose-gc");
    throw new Error("run with --expose-gc");
  }
  gc();
  gc();
}

function queueRequest(eventTypes: string[] | null): QueueRequest {
  return {
    eventTypes,
    narrow: [],
    allPublicStreams: false,
    applyMarkdown: false,
    clientGravatar: true,
    lifespanSecs: 0,
    capabilities: {},
  };
}

async function startChat(
  overrides: { maxQueueEvents?: number } = {},
): Promise<{ running: RunningServer; dir: string }> {
  const dir = tempDir();
  const base = defaultConfig();
  const running = await startServer(
    defaultConfig({
      port: 0,
      dataDir: dir,
      rateLimit: null,
      logLevel: "warn",
      externalUrl: "http://127.0.0.1:0",
      // The benchmark's bot server listens on loopback, as an operator's local bot server would.
      outgoingWebhookAllow: ["127.0.0.0/8", "::1", "localhost"],
      events: { ...base.events, maxQueueEvents: overrides.maxQueueEvents ?? base.events.maxQueueEvents },
    }),
    { ownerPassword: "bench-password-1234" },
  );
  return { running, dir };
}

/** Bulk SQL: `count` member accounts in one transaction (no realm_user events, no per-user HTTP). */
async function bulkUsers(running: RunningServer, prefix: string, count: number) {
  const { users, clock } = running.services;
  const { db } = running;
  const realm = await users.realm();
  const now = clock.now();
  await db.transaction(async (tx) => {
    const COLS = 8;
    for (let start = 0; start < count; start += 500) {
      const n = Math.min(500, count - start);
      const values: (string | number)[] = [];
      for (let i = start; i < start + n; i++) {
        const email = `${prefix}${i}@example.com`;
        values.push(
          realm.id,
          email,
          email,
          `${prefix} user ${i}`,
          `${prefix}${i}`,
          generateApiKey(),
          400,
          now,
        );
      }
      const rows = new Array<string>(n).fill(`(${placeholders(COLS)})`).join(", ");
      await tx.run(
        `INSERT INTO users (realm_id, email, email_lower, full_name, short_name, api_key, role, date_joined_ms) VALUES ${rows}`,
        values,
      );
    }
  });
  const rows = await db.all<{ id: number; email: string; api_key: string }>(
    "SELECT id, email, api_key FROM users WHERE email LIKE ? ORDER BY id",
    [`${prefix}%@example.com`],
  );
  return rows.map((r) => ({ id: r.id, email: r.email, apiKey: r.api_key }));
}

async function runChat(): Promise<void> {
  const { running, dir } = await startChat({ maxQueueEvents: 1_000_000 });
  const { services } = running;
  const owner = running.firstStart!.owner;
  const store = services.eventQueues.store;

  // Fan-out timing: every push notifies this listener with the queue id (synchronously, in push).
  let armed:
    { targets: Set<string>; reached: Set<string>; doneNs: bigint | undefined; done: () => void } | undefined;
  store.onEventsAvailable((queueId) => {
    const a = armed;
    if (a === undefined || !a.targets.has(queueId) || a.reached.has(queueId)) return;
    a.reached.add(queueId);
    if (a.reached.size === a.targets.size) {
      a.doneNs = process.hrtime.bigint();
      a.done();
    }
  });
  let armedDone: Promise<void> = Promise.resolve();

  const userById = async (id: number): Promise<User> => {
    const u = await services.users.byId(id);
    if (u === undefined) throw new Error(`no user ${id}`);
    return u;
  };

  serveRpc(
    {
      bulkUsers: (a: { prefix: string; count: number }) => bulkUsers(running, a.prefix, a.count),
      /** Creates a public stream through the domain service, then subscribes `userIds` with bulk SQL. */
      createStream: async (a: { name: string; userIds: number[] }) => {
        await services.streams.subscribe(owner, [{ name: a.name }], {
          inviteOnly: false,
          historyPublicToSubscribers: undefined,
          isAnnouncementOnly: false,
          announce: false,
          principals: [owner.id],
          authorizationErrorsFatal: true,
        });
        await services.eventQueues.idle();
        const stream = await services.streams.byName(a.name);
        const now = Math.floor(services.clock.now() / 1000);
        await running.db.transaction(async (tx) => {
          for (let start = 0; start < a.userIds.length; start += 1000) {
            const chunk = a.userIds.slice(start, start + 1000).filter((id) => id !== owner.id);
            if (chunk.length === 0) continue;
            const values = chunk.flatMap((id) => [id, stream!.id, now]);
            await tx.run(
              `INSERT INTO subscriptions (user_id, stream_id, date_subscribed) VALUES ${chunk.map(() => "(?, ?, ?)").join(", ")}`,
              values,
            );
          }
        });
        return {
          streamId: stream!.id,
          subscribers: (await services.streams.subscriberIds(stream!.id)).length,
        };
      },
      createBot: async (a: { shortName: string; fullName: string; botType: number; payloadUrl?: string }) => {
        const { bot, services: botServices } = await services.users.createBot(owner, {
          shortName: a.shortName,
          fullName: a.fullName,
          botType: a.botType,
          payloadUrl: a.payloadUrl,
        });
        await services.eventQueues.idle();
        return { id: bot.id, email: bot.email, apiKey: bot.apiKey, token: botServices[0]?.token };
      },
      /** Registers queues through the event-queue service (what POST /register calls), in process. */
      allocateQueues: async (a: { userIds: number[]; eventTypes: string[] | null }) => {
        let n = 0;
        for (const id of a.userIds) {
          await services.eventQueues.allocate(await userById(id), queueRequest(a.eventTypes));
          n++;
        }
        return n;
      },
      /** Targets every queue of `userIds`; the next push to each is counted (see the listener above). */
      armFanout: async (a: { userIds: number[] }) => {
        await services.eventQueues.idle();
        const targets = new Set<string>();
        for (const id of a.userIds) for (const q of await store.queueIdsForUser(id)) targets.add(q);
        let done!: () => void;
        armedDone = new Promise<void>((resolve) => (done = resolve));
        armed = { targets, reached: new Set(), doneNs: undefined, done };
        return targets.size;
      },
      /** Waits for the armed fan-out; then checks that each target queue really holds message `messageId`. */
      awaitFanout: async (a: { timeoutMs: number; messageId: number }) => {
        const a0 = armed!;
        await Promise.race([armedDone, new Promise((r) => setTimeout(r, a.timeoutMs))]);
        armed = undefined;
        let verified = 0;
        for (const q of a0.targets) {
          const events = await store.fetch(q);
          if (
            events.some(
              (e) => e.event.type === "message" && (e.event["message"] as { id: number }).id === a.messageId,
            )
          )
            verified++;
        }
        return {
          doneNs: a0.doneNs?.toString(),
          reached: a0.reached.size,
          targets: a0.targets.size,
          verified,
        };
      },
      /** Discards every queue of `userIds` (between sections, so they stop receiving events). */
      deleteQueues: async (a: { userIds: number[] }) => {
        let n = 0;
        for (const id of a.userIds) {
          for (const q of [...(await store.queueIdsForUser(id))]) {
            await services.eventQueues.deleteQueue(id, q);
            n++;
          }
        }
        return n;
      },
      stats: async () => ({
        rss: process.memoryUsage().rss,
        waiters: services.eventQueues.waiterCount,
        queues: await store.size(),
      }),
      idle: () => services.eventQueues.idle(),
    },
    async () => {
      await running.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
    { url: running.url, owner: { id: owner.id, email: owner.email, apiKey: owner.apiKey } },
  );
}

async function runCeiling(): Promise<void> {
  const app = new Koa<AppState>();
  app.use(bodyParser({ limitBytes: 25 * 1024 * 1024, lenientJsonPaths: /^\/api\/v1\/external\// }));
  const router = new Router<AppState>({ prefix: "/api/v1" });
  router.post("/echo", (ctx) => {
    ctx.body = { result: "success", msg: "", received: ctx.state.params };
  });
  app.use(router.routes());
  app.use(router.allowedMethods());
  // eslint-disable-next-line @typescript-eslint/no-misused-promises -- Koa's callback handles its own promise
  const server = http.createServer(app.callback());
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  serveRpc(
    {},
    async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
    { url: `http://127.0.0.1:${port}` },
  );
}

async function runBotServer(): Promise<void> {
  const { startBotServer } = await import("../bots/server/start.js");
  const { parseBotServerConfig } = await import("../bots/server/config.js");
  const { silentLogger } = await import("../bots/server/app.js");
  const cfg = JSON.parse(process.env["BENCH_BOT"] ?? "{}") as {
    email: string;
    key: string;
    site: string;
    token: string;
    port: number;
  };
  const rc = `[helloworld]\nemail = ${cfg.email}\nkey = ${cfg.key}\nsite = ${cfg.site}\ntoken = ${cfg.token}\n`;
  // Silent, except that the first error is kept: the orchestrator reports why requests failed.
  let firstError: string | undefined;
  const logger = {
    ...silentLogger,
    error: (message: string, fields?: Record<string, unknown>) => {
      const err = fields?.["error"];
      firstError ??= `${message}: ${err instanceof Error ? err.message : JSON.stringify(fields ?? {})}`;
    },
  };
  // The pacing of replies (20 per 5 s per bot) would turn a load test into a test of the pacing:
  // the bot gets a bucket the load cannot empty.
  const server = await startBotServer({
    config: parseBotServerConfig(rc),
    port: cfg.port,
    logger,
    pacing: { capacity: 1_000_000, refillPerSecond: 1_000_000 },
  });
  let requests = 0;
  const statuses: Record<string, number> = {};
  server.server.on("request", (_req: http.IncomingMessage, res: http.ServerResponse) => {
    requests++;
    res.once("finish", () => {
      statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
    });
  });
  serveRpc({ stats: () => ({ requests, statuses, firstError }) }, () => server.close(), { url: server.url });
}

async function runIdle(): Promise<void> {
  const { running, dir } = await startChat();
  const { services } = running;
  serveRpc(
    {
      /** RSS (and heap) growth for `count` idle queues over `users` users, forced GC before/after. */
      measure: async (a: { count: number; users: number }) => {
        const accounts = await bulkUsers(running, "idle", a.users);
        const users: User[] = [];
        for (const acc of accounts) users.push((await services.users.byId(acc.id))!);
        // Warm up code paths (and the options cache) so the first allocation does not count JIT code.
        const warm = await services.eventQueues.allocate(users[0]!, queueRequest(null));
        await services.eventQueues.deleteQueue(users[0]!.id, warm);
        forceGc();
        await new Promise((r) => setTimeout(r, 100));
        forceGc();
        const before = process.memoryUsage();
        for (let i = 0; i < a.count; i++) {
          await services.eventQueues.allocate(users[i % users.length]!, queueRequest(null));
        }
        forceGc();
        await new Promise((r) => setTimeout(r, 100));
        forceGc();
        const after = process.memoryUsage();
        const queues = await services.eventQueues.store.size();
        return {
          queues,
          rssBefore: before.rss,
          rssAfter: after.rss,
          heapBefore: before.heapUsed,
          heapAfter: after.heapUsed,
        };
      },
    },
    async () => {
      await running.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
    { pid: process.pid },
  );
}

const modes: Record<string, () => Promise<void>> = {
  chat: runChat,
  ceiling: runCeiling,
  botserver: runBotServer,
  idle: runIdle,
};
const run = mode === undefined ? undefined : modes[mode];
if (run === undefined) {
  console.error(`usage: bench/child.ts ${Object.keys(modes).join("|")}`);
  process.exit(2);
}
await run();
