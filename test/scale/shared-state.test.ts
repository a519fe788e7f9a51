/**
 * What two server processes share through Redis besides event queues: the API rate limit (one
 * window per user whichever process answers) and auth-cache invalidations. Two servers in this
 * Jest process on one PostgreSQL schema and one Redis prefix. Skipped without PostgreSQL + Redis.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { Redis } from "ioredis";
import { ManualClock } from "../../src/clock.js";
import { defaultConfig } from "../../src/config.js";
import { silentLogger } from "../../src/lib/logger.js";
import { startServer } from "../../src/server.js";
import type { RunningServer } from "../../src/server.js";
import { UsersRepo } from "../../src/store/users-repo.js";
import { apiClient } from "../helpers/client.js";
import { freshPostgresSchema, postgresAvailable } from "../helpers/postgres.js";
import { REDIS_URL, dropRedisPrefix, freshRedisPrefix, redisAvailable } from "../helpers/redis.js";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer } from "../helpers/test-server.js";

const servicesUp = (await postgresAvailable()) && (await redisAvailable());
if (!servicesUp) process.stdout.write("SKIPPED shared-state tests: PostgreSQL or Redis not running\n");

(servicesUp ? describe : describe.skip)("state shared by two processes through Redis", () => {
  const prefix = freshRedisPrefix();
  const clock = new ManualClock();
  let a: TestServer;
  let b: RunningServer;
  let raw: Redis;
  let dropSchema: () => Promise<void>;

  beforeAll(async () => {
    const schema = await freshPostgresSchema();
    dropSchema = schema.drop;
    const shared = {
      databaseUrl: schema.url,
      redisUrl: REDIS_URL,
      redisPrefix: prefix,
      rateLimit: { windowSeconds: 60, maxRequests: 4 },
    };
    a = await startTestServer({ clock, config: shared });
    b = await startServer(defaultConfig({ port: 0, dataDir: ":memory:", logLevel: "silent", ...shared }), {
      clock,
      logger: silentLogger,
    });
    raw = new Redis(REDIS_URL);
  });

  afterAll(async () => {
    await b.close();
    await a.close();
    await dropRedisPrefix(raw, prefix);
    raw.disconnect();
    await dropSchema();
  });

  it("counts a user's requests on both processes against one window, with the same headers", async () => {
    const onB = apiClient(b.url);
    const as = a.users.othello;
    const answers = [];
    for (const api of [a.api, onB, a.api, onB, a.api]) {
      const res = await api.get("/api/v1/users/me", { as, skipSchemaCheck: true });
      answers.push([
        res.status,
        res.headers.get("x-ratelimit-limit"),
        res.headers.get("x-ratelimit-remaining"),
      ]);
    }
    expect(answers).toEqual([
      [200, "4", "3"],
      [200, "4", "2"],
      [200, "4", "1"],
      [200, "4", "0"],
      [429, "4", "0"],
    ]);
    const limited = await onB.get("/api/v1/users/me", { as, skipSchemaCheck: true });
    expect([limited.status, limited.body.code, limited.headers.get("retry-after")]).toEqual([
      429,
      "RATE_LIMIT_HIT",
      "60",
    ]);
  });

  it("drops a user from every process's auth cache when one process changes the credentials", async () => {
    const onB = apiClient(b.url);
    const hamlet = a.users.hamlet;
    expect((await onB.get("/api/v1/users/me", { as: hamlet, skipSchemaCheck: true })).status).toBe(200);
    // A write no process hears about: B's cache (its clock stands still) keeps the old key.
    await a.running.db.run("UPDATE users SET api_key = ? WHERE id = ?", ["Z".repeat(32), hamlet.id]);
    expect((await onB.get("/api/v1/users/me", { as: hamlet, skipSchemaCheck: true })).status).toBe(200);
    // Another process publishes the change: B forgets the user at once.
    await raw.publish(`${prefix}auth-invalidate`, String(hamlet.id));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await onB.get("/api/v1/users/me", { as: hamlet, skipSchemaCheck: true })).status).toBe(401);

    // And a change written through this process's store is published for the others.
    const sub = raw.duplicate();
    const heard = new Promise<string>((resolve) => sub.on("message", (_ch: string, m: string) => resolve(m)));
    await sub.subscribe(`${prefix}auth-invalidate`);
    await new UsersRepo(a.running.db).setActive(a.users.cordelia.id, false);
    expect(await heard).toBe(String(a.users.cordelia.id));
    sub.disconnect();
  });
});
