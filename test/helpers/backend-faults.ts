/**
 * Real `chat-server serve` processes on one PostgreSQL + Redis, each reaching them through TCP
 * proxies of its own (test/helpers/tcp-proxy.ts), so a test can refuse, drop and restore one
 * process's backends while the others carry on. For the fault-injection suites of issue 23.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { call } from "./client.js";
import type { Credentials } from "./client.js";
import { freshPostgresSchema, postgresAvailable } from "./postgres.js";
import { startProcess } from "./process.js";
import type { RunningProcess } from "./process.js";
import { REDIS_URL, dropRedisPrefix, freshRedisPrefix, redisAvailable } from "./redis.js";
import { startTcpProxy } from "./tcp-proxy.js";
import type { TcpProxy } from "./tcp-proxy.js";
import { connectRedis } from "../../src/infra/redis/connection.js";
import { silentLogger } from "../../src/lib/logger.js";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON bodies of any shape
export type Json = any;

/** Whether a fault suite runs here: on the PostgreSQL + Redis pass, with both running. */
export async function faultSuiteRuns(name: string): Promise<boolean> {
  if (process.env["TEST_STACK"] !== "postgres-redis") {
    process.stdout.write(`SKIPPED ${name}: run only on the TEST_STACK=postgres-redis pass\n`);
    return false;
  }
  if (!(await postgresAvailable()) || !(await redisAvailable())) {
    process.stdout.write(`SKIPPED ${name}: PostgreSQL or Redis not running\n`);
    return false;
  }
  return true;
}

/** A request that has not completed after this long counts as hung. */
export const HUNG_MS = 30_000;

/** Polls `probe` every 200 ms until it returns true (at most `ms`). */
export async function until(probe: () => Promise<boolean>, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await probe().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`condition not reached in ${ms / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export interface ServerProcess {
  name: string;
  url: string;
  process: RunningProcess;
  /** This process's way to PostgreSQL and to Redis. */
  pg: TcpProxy;
  redis: TcpProxy;
  /** kill -9, then start again on the same proxies (a new port). */
  restart(): Promise<void>;
}

export interface Deployment {
  servers: ServerProcess[];
  owner: Credentials;
  /** Creates a member through the first server; returns their credentials and id. */
  createUser(name: string): Promise<Credentials & { id: number }>;
  close(): Promise<void>;
}

/** Starts `count` processes on a fresh schema and Redis prefix; the first creates the organization. */
export async function startDeployment(count: number, extraArgs: string[] = []): Promise<Deployment> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "faults-"));
  const prefix = freshRedisPrefix();
  const schema = await freshPostgresSchema();
  const pgTarget = new URL(schema.url);
  const redisTarget = new URL(REDIS_URL);
  const servers: ServerProcess[] = [];

  const launch = async (pg: TcpProxy, redis: TcpProxy): Promise<[RunningProcess, string]> => {
    const dbUrl = new URL(schema.url);
    dbUrl.port = String(pg.port);
    const redisUrl = new URL(REDIS_URL);
    redisUrl.port = String(redis.port);
    const p = startProcess([
      "bin/chat-server.js",
      "serve",
      "--port",
      "0",
      "--data-dir",
      dataDir,
      "--database",
      dbUrl.toString(),
      "--redis",
      redisUrl.toString(),
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
      ...extraArgs,
    ]);
    const m = await p.waitFor(/Chat server listening on (http:\/\/\S+)/, 90_000);
    return [p, m[1]!];
  };

  for (let i = 0; i < count; i++) {
    const pg = await startTcpProxy(pgTarget.hostname, Number(pgTarget.port || 5432));
    const redis = await startTcpProxy(redisTarget.hostname, Number(redisTarget.port || 6379));
    const [p, url] = await launch(pg, redis);
    const server: ServerProcess = {
      name: String.fromCharCode(65 + i),
      url,
      process: p,
      pg,
      redis,
      async restart() {
        await server.process.stop("SIGKILL");
        [server.process, server.url] = await launch(pg, redis);
      },
    };
    servers.push(server);
  }
  const key = /^key=(.*)$/m.exec(fs.readFileSync(path.join(dataDir, "zuliprc"), "utf8"))![1]!;
  const owner: Credentials = { email: "iago@zulip.com", apiKey: key };

  return {
    servers,
    owner,
    async createUser(name) {
      const email = `${name}@zulip.com`;
      const created = await call(servers[0]!.url, "POST", "/api/v1/users", owner, {
        email,
        password: `${name}-password`,
        full_name: name,
      });
      const fetched = await call(servers[0]!.url, "POST", "/api/v1/fetch_api_key", undefined, {
        username: email,
        password: `${name}-password`,
      });
      return { email, apiKey: fetched.body.api_key as string, id: created.body.user_id as number };
    },
    async close() {
      for (const s of servers) {
        await s.process.stop("SIGKILL");
        await s.pg.close();
        await s.redis.close();
      }
      await schema.drop();
      const cleanup = await connectRedis(REDIS_URL, silentLogger, prefix);
      await dropRedisPrefix(cleanup.client, prefix);
      await cleanup.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
