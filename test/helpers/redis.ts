import crypto from "node:crypto";
import { Redis } from "ioredis";
import { connectRedis } from "../../src/infra/redis/connection.js";
import type { RedisBackend } from "../../src/infra/redis/connection.js";
import { silentLogger } from "../../src/lib/logger.js";

/** The machine's Redis; tests that need it are skipped where none runs. */
export const REDIS_URL = process.env["TEST_REDIS_URL"] ?? "redis://127.0.0.1:6379";

export async function redisAvailable(): Promise<boolean> {
  const r = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 2000, maxRetriesPerRequest: 0 });
  r.on("error", () => undefined);
  try {
    await r.connect();
    return (await r.ping()) === "PONG";
  } catch {
    return false;
  } finally {
    r.disconnect();
  }
}

/** A fresh key prefix (`t:<random>:`) so tests never see each other's keys. */
export function freshRedisPrefix(): string {
  return `t:${crypto.randomBytes(6).toString("hex")}:`;
}

/** Deletes every key under `prefix`. */
export async function dropRedisPrefix(client: Redis, prefix: string): Promise<void> {
  let cursor = "0";
  do {
    const [next, keys] = await client.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 500);
    cursor = next;
    if (keys.length > 0) await client.del(...keys);
  } while (cursor !== "0");
}

/** Connections with a fresh prefix; `drop()` deletes its keys and disconnects. */
export async function freshRedis(): Promise<RedisBackend & { drop(): Promise<void> }> {
  const backend = await connectRedis(REDIS_URL, silentLogger, freshRedisPrefix());
  return {
    ...backend,
    async drop() {
      await dropRedisPrefix(backend.client, backend.prefix);
      await backend.close();
    },
  };
}
