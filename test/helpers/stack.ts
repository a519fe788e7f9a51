import { Redis } from "ioredis";
import type { ServerConfig } from "../../src/config.js";
import { pooledPostgresSchema } from "./postgres.js";
import { REDIS_URL, dropRedisPrefix, freshRedisPrefix } from "./redis.js";

/**
 * `TEST_STACK=postgres-redis npm test -- …` runs the test servers (test-server.ts) on PostgreSQL +
 * Redis instead of SQLite in memory: each server gets a migrated schema of its own (from a pool: reset
 * to the migrated state when the server closes) and a fresh Redis prefix (deleted when it closes).
 * Tests that set their own `databaseUrl` keep it.
 */
export function wantsPostgresRedis(config: Partial<ServerConfig> | undefined): boolean {
  return process.env["TEST_STACK"] === "postgres-redis" && config?.databaseUrl === undefined;
}

export async function freshPostgresRedis(): Promise<{
  config: Partial<ServerConfig>;
  drop(): Promise<void>;
}> {
  const schema = await pooledPostgresSchema();
  const prefix = freshRedisPrefix();
  let dropped = false;
  return {
    config: { databaseUrl: schema.url, redisUrl: REDIS_URL, redisPrefix: prefix },
    async drop() {
      if (dropped) return;
      dropped = true;
      await schema.release();
      const redis = new Redis(REDIS_URL);
      await dropRedisPrefix(redis, prefix);
      redis.disconnect();
    },
  };
}
