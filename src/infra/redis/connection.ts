import { Redis } from "ioredis";
import type { Logger } from "../../logger.js";

/**
 * The Redis connections of one server process (`serve --redis URL`): one for commands and one
 * subscribed to the pub/sub channels (wake-ups, supersede, invalidations).
 *
 * Commands never wait for a lost connection (no offline queue, one retry): while Redis is away
 * they fail at once and the request is answered 503 (src/infra/unavailable.ts); ioredis
 * reconnects by itself and re-subscribes, so the process recovers without a restart.
 */
export interface RedisBackend {
  readonly client: Redis;
  readonly subscriber: Redis;
  /** Key and channel prefix shared by every process of one deployment. */
  readonly prefix: string;
  /** Whether Redis answers PING now (GET /ready). */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

function connection(url: string, logger: Logger, role: string): Redis {
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: role === "subscriber",
    maxRetriesPerRequest: 1,
    connectTimeout: 3000,
    retryStrategy: (times) => Math.min(100 * times, 1000),
  });
  let down = false;
  redis.on("error", (err: Error) => {
    if (down) return;
    down = true;
    logger.warn("redis connection lost; reconnecting", { role, error: err.message });
  });
  redis.on("ready", () => {
    if (!down) return;
    down = false;
    logger.info("redis connection restored", { role });
  });
  return redis;
}

/** Connects both connections (fails when Redis cannot be reached at start-up). */
export async function connectRedis(url: string, logger: Logger, prefix = "chat:"): Promise<RedisBackend> {
  const client = connection(url, logger, "client");
  const subscriber = connection(url, logger, "subscriber");
  try {
    await Promise.all([client.connect(), subscriber.connect()]);
  } catch (err) {
    client.disconnect();
    subscriber.disconnect();
    throw new Error(`Redis at ${redactRedisUrl(url)} cannot be reached: ${(err as Error).message}`, {
      cause: err,
    });
  }
  return {
    client,
    subscriber,
    prefix,
    async ping() {
      try {
        return (await client.ping()) === "PONG";
      } catch {
        return false;
      }
    },
    async close() {
      client.disconnect();
      subscriber.disconnect();
      return Promise.resolve();
    },
  };
}

/** A Redis URL without its password, for messages and logs. */
export function redactRedisUrl(url: string): string {
  return url.replace(/^(rediss?:\/\/[^:/@]*):[^@/]*@/i, "$1:***@");
}
