/**
 * Issue 23, finding "a server started during a Redis outage exits". A real `chat-server serve`
 * process is started while a TCP proxy keeps Redis (then PostgreSQL) unreachable: it must log each
 * attempt and keep waiting, answer `/health` (alive) and `/ready` (not ready) meanwhile, and serve
 * once the backend is back. Runs on the PostgreSQL + Redis pass (TEST_STACK=postgres-redis).
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import fs from "node:fs";
import net from "node:net";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { freshPostgresSchema, postgresAvailable } from "../helpers/postgres.js";
import { startProcess } from "../helpers/process.js";
import type { RunningProcess } from "../helpers/process.js";
import { REDIS_URL, dropRedisPrefix, freshRedisPrefix, redisAvailable } from "../helpers/redis.js";
import { startTcpProxy } from "../helpers/tcp-proxy.js";
import type { TcpProxy } from "../helpers/tcp-proxy.js";
import { connectRedis } from "../../src/infra/redis/connection.js";
import { silentLogger } from "../../src/lib/logger.js";

const onStack = process.env["TEST_STACK"] === "postgres-redis";
const servicesUp = onStack && (await postgresAvailable()) && (await redisAvailable());
if (!onStack) {
  process.stdout.write("SKIPPED start-during-outage tests: they run on the TEST_STACK=postgres-redis pass\n");
} else if (!servicesUp) {
  process.stdout.write("SKIPPED start-during-outage tests: PostgreSQL or Redis not running\n");
}

async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", () => resolve()));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

async function get(url: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(url, { signal: AbortSignal.timeout(30_000) });
  return { status: res.status, body: await res.json() };
}

/** Polls `probe` every 200 ms until it returns true (at most 60 s). */
async function until(probe: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await probe().catch(() => false))) {
    if (Date.now() > deadline) throw new Error("condition not reached in 60 s");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const count = (text: string, re: RegExp): number => text.match(new RegExp(re.source, "g"))?.length ?? 0;

(servicesUp ? describe : describe.skip)("a server started while a backend is unreachable", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "start-outage-"));
  const prefix = freshRedisPrefix();
  let dbUrl: string;
  let dropSchema: () => Promise<void>;
  let pgProxy: TcpProxy;
  let redisProxy: TcpProxy;
  const running: RunningProcess[] = [];

  beforeAll(async () => {
    const schema = await freshPostgresSchema();
    dbUrl = schema.url;
    dropSchema = schema.drop;
    const pg = new URL(schema.url);
    pgProxy = await startTcpProxy(pg.hostname, Number(pg.port || 5432));
    const redis = new URL(REDIS_URL);
    redisProxy = await startTcpProxy(redis.hostname, Number(redis.port || 6379));
  }, 60_000);

  afterAll(async () => {
    for (const p of running) await p.stop("SIGKILL");
    await pgProxy.close();
    await redisProxy.close();
    await dropSchema();
    const cleanup = await connectRedis(REDIS_URL, silentLogger, prefix);
    await dropRedisPrefix(cleanup.client, prefix);
    await cleanup.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const start = (port: number, databaseUrl: string): RunningProcess => {
    const redisUrl = new URL(REDIS_URL);
    redisUrl.port = String(redisProxy.port);
    const p = startProcess([
      "bin/chat-server.js",
      "serve",
      "--port",
      String(port),
      "--data-dir",
      dataDir,
      "--database",
      databaseUrl,
      "--redis",
      redisUrl.toString(),
      "--redis-prefix",
      prefix,
      "--owner-email",
      "iago@zulip.com",
      "--owner-password",
      "iago-password",
      "--log-level",
      "warn",
    ]);
    running.push(p);
    return p;
  };

  it("waits for Redis instead of exiting, answering /health and /ready meanwhile (issue 23: it exited)", async () => {
    redisProxy.drop();
    const port = await freePort();
    const p = start(port, dbUrl);
    const base = `http://127.0.0.1:${port}`;
    await p.waitFor(/Redis cannot be reached; retrying.*attempt=2/, 60_000);
    expect(p.child.exitCode).toBeNull();
    expect(await get(`${base}/health`)).toEqual({
      status: 200,
      body: { result: "success", msg: "", status: "alive" },
    });
    expect(await get(`${base}/ready`)).toEqual({
      status: 503,
      body: {
        result: "error",
        msg: "Not ready: starting; Redis cannot be reached",
        code: "BAD_REQUEST",
        status: "starting",
      },
    });
    expect(await get(`${base}/api/v1/server_settings`)).toEqual({
      status: 503,
      body: {
        result: "error",
        msg: "Service temporarily unavailable: Redis cannot be reached; try again shortly",
        code: "BAD_REQUEST",
      },
    });
    await redisProxy.up();
    await p.waitFor(/Chat server listening on/, 60_000);
    await until(async () => (await get(`${base}/ready`)).status === 200);
    expect(count(p.output(), /Redis cannot be reached; retrying/)).toBeGreaterThanOrEqual(2);
    expect((await get(`${base}/api/v1/server_settings`)).status).toBe(200);
    await p.stop();
  }, 180_000);

  it("waits for PostgreSQL instead of exiting (issue 23)", async () => {
    await pgProxy.down();
    const port = await freePort();
    const pgUrl = new URL(dbUrl);
    pgUrl.port = String(pgProxy.port);
    const p = start(port, pgUrl.toString());
    const base = `http://127.0.0.1:${port}`;
    await p.waitFor(/the database cannot be reached; retrying.*attempt=2/, 60_000);
    expect(p.child.exitCode).toBeNull();
    expect((await get(`${base}/health`)).status).toBe(200);
    expect(await get(`${base}/ready`)).toEqual({
      status: 503,
      body: {
        result: "error",
        msg: "Not ready: starting; the database cannot be reached",
        code: "BAD_REQUEST",
        status: "starting",
      },
    });
    await pgProxy.up();
    await p.waitFor(/Chat server listening on/, 60_000);
    await until(async () => (await get(`${base}/ready`)).status === 200);
    expect((await get(`${base}/api/v1/server_settings`)).status).toBe(200);
    await p.stop();
  }, 180_000);
});
