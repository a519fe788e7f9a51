/**
 * GET /health and /ready, and what clients see while PostgreSQL or Redis is away: a 503 JSON
 * error, never a crash, and recovery without a restart. The outages are made with a TCP proxy
 * this test starts and stops (the machine's PostgreSQL and Redis keep running for others).
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { freshPostgresSchema, postgresAvailable } from "../helpers/postgres.js";
import { REDIS_URL, dropRedisPrefix, freshRedisPrefix, redisAvailable } from "../helpers/redis.js";
import { startTcpProxy } from "../helpers/tcp-proxy.js";
import type { TcpProxy } from "../helpers/tcp-proxy.js";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer } from "../helpers/test-server.js";
import { connectRedis } from "../../src/infra/redis/connection.js";
import { silentLogger } from "../../src/lib/logger.js";

const servicesUp = (await postgresAvailable()) && (await redisAvailable());
if (!servicesUp) process.stdout.write("SKIPPED outage tests: PostgreSQL or Redis not running\n");

async function get(url: string): Promise<{ status: number; body: unknown; retryAfter: string | null }> {
  const res = await fetch(url);
  return { status: res.status, body: await res.json(), retryAfter: res.headers.get("retry-after") };
}

/** Polls `probe` every 100 ms until it returns true (at most 15 s). */
async function until(probe: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error("condition not reached in 15 s");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("GET /health and /ready on the embedded store", () => {
  let t: TestServer;
  beforeAll(async () => {
    // The embedded store (SQLite, no Redis) whatever TEST_STACK says.
    t = await startTestServer({ config: { databaseUrl: "sqlite::memory:" } });
  });
  afterAll(async () => {
    await t.close();
  });

  it("answers alive, and ready with the database and no Redis configured", async () => {
    expect(await get(`${t.url}/health`)).toEqual({
      status: 200,
      body: { result: "success", msg: "", status: "alive" },
      retryAfter: null,
    });
    expect(await get(`${t.url}/ready`)).toEqual({
      status: 200,
      body: { result: "success", msg: "", status: "ready", database: "ok", redis: "not configured" },
      retryAfter: null,
    });
  });
});

(servicesUp ? describe : describe.skip)("PostgreSQL or Redis away for a few seconds", () => {
  let t: TestServer;
  let pgProxy: TcpProxy;
  let redisProxy: TcpProxy;
  let dropSchema: () => Promise<void>;
  const prefix = freshRedisPrefix();

  beforeAll(async () => {
    const schema = await freshPostgresSchema();
    dropSchema = schema.drop;
    const pgUrl = new URL(schema.url);
    pgProxy = await startTcpProxy(pgUrl.hostname, Number(pgUrl.port || 5432));
    pgUrl.port = String(pgProxy.port);
    const redisUrl = new URL(REDIS_URL);
    redisProxy = await startTcpProxy(redisUrl.hostname, Number(redisUrl.port || 6379));
    redisUrl.port = String(redisProxy.port);
    t = await startTestServer({
      config: { databaseUrl: pgUrl.toString(), redisUrl: redisUrl.toString(), redisPrefix: prefix },
    });
  });

  afterAll(async () => {
    await t.close();
    await pgProxy.close();
    await redisProxy.close();
    await dropSchema();
    const cleanup = await connectRedis(REDIS_URL, silentLogger, prefix);
    await dropRedisPrefix(cleanup.client, prefix);
    await cleanup.close();
  });

  const register = () => t.api.post("/api/v1/register", { as: t.users.hamlet, skipSchemaCheck: true });
  const send = () =>
    t.api.post("/api/v1/messages", {
      as: t.users.hamlet,
      params: { type: "private", to: JSON.stringify([t.users.othello.id]), content: "still there?" },
      skipSchemaCheck: true,
    });

  it("answers 503 JSON while Redis is away and recovers by itself", async () => {
    expect((await get(`${t.url}/ready`)).body).toEqual({
      result: "success",
      msg: "",
      status: "ready",
      database: "ok",
      redis: "ok",
    });
    await redisProxy.down();
    expect(await get(`${t.url}/ready`)).toEqual({
      status: 503,
      body: {
        result: "error",
        msg: "Not ready: Redis cannot be reached",
        code: "BAD_REQUEST",
        status: "unavailable",
        database: "ok",
        redis: "unreachable",
      },
      retryAfter: "5",
    });
    const during = await register();
    expect([during.status, during.body, during.headers.get("retry-after")]).toEqual([
      503,
      {
        result: "error",
        msg: "Service temporarily unavailable: Redis cannot be reached; try again shortly",
        code: "BAD_REQUEST",
      },
      "5",
    ]);
    expect((await get(`${t.url}/health`)).status).toBe(200);
    await redisProxy.up();
    await until(async () => (await get(`${t.url}/ready`)).status === 200);
    const after = await register();
    expect([after.status, after.body.result]).toEqual([200, "success"]);
  });

  it("answers 503 JSON while PostgreSQL is away and recovers by itself", async () => {
    await pgProxy.down();
    expect(await get(`${t.url}/ready`)).toEqual({
      status: 503,
      body: {
        result: "error",
        msg: "Not ready: the database cannot be reached",
        code: "BAD_REQUEST",
        status: "unavailable",
        database: "unreachable",
        redis: "ok",
      },
      retryAfter: "5",
    });
    const during = await send();
    expect([during.status, during.body]).toEqual([
      503,
      {
        result: "error",
        msg: "Service temporarily unavailable: the database cannot be reached; try again shortly",
        code: "BAD_REQUEST",
      },
    ]);
    await pgProxy.up();
    await until(async () => (await get(`${t.url}/ready`)).status === 200);
    const after = await send();
    expect([after.status, after.body.result]).toEqual([200, "success"]);
  });
});
