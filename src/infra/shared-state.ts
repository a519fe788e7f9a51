import type { EventQueueStore } from "../domain/events/queue-store.js";
import type { ServerConfig } from "../config.js";
import type { RedisBackend } from "./redis/connection.js";
import { RedisEventQueueStore } from "./redis/redis-queue-store.js";
import { RedisRateLimitStore } from "./redis/redis-rate-limit.js";
import type { RateLimitStore } from "../http/rate-limit-store.js";
import { redisOnceEvery } from "./once-every.js";
import type { OnceEvery } from "./once-every.js";

/**
 * What several server processes share when the server runs with `--redis` (docs/deploy.md).
 * Without it every field is undefined and each service keeps its state in this process.
 */
export interface SharedState {
  redis?: RedisBackend | undefined;
  /** Event queues in Redis. */
  queueStore?: EventQueueStore | undefined;
  /** The API rate limit's window (one limit per user whichever process answers). */
  rateLimitStore?: RateLimitStore | undefined;
  /** "Once a minute" gates shared by every process (owner notifications of incoming webhooks). */
  onceEvery?: OnceEvery | undefined;
}

/** How long a recorded long poll protects its queue from GC: two heartbeats and some slack. */
export function waiterLeaseMs(config: ServerConfig): number {
  return config.events.heartbeatSeconds * 2000 + 10_000;
}

/** Builds the Redis-backed state and subscribes to its channels before the server answers. */
export async function redisSharedState(redis: RedisBackend, config: ServerConfig): Promise<SharedState> {
  const queueStore = new RedisEventQueueStore(redis.client, redis.subscriber, {
    prefix: redis.prefix,
    waiterLeaseMs: waiterLeaseMs(config),
  });
  await queueStore.subscribe();
  return {
    redis,
    queueStore,
    rateLimitStore: new RedisRateLimitStore(redis.client, redis.prefix),
    onceEvery: redisOnceEvery(redis.client, redis.prefix),
  };
}
