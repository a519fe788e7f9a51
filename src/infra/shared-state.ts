import crypto from "node:crypto";
import type { EventQueueStore } from "../domain/events/queue-store.js";
import type { PresenceStore } from "../domain/presence/presence-service.js";
import type { ServerConfig } from "../config.js";
import type { Logger } from "../lib/logger.js";
import type { RedisBackend } from "./redis/connection.js";
import { RedisEventQueueStore } from "./redis/redis-queue-store.js";
import { RedisRateLimitStore } from "./redis/redis-rate-limit.js";
import { redisPresenceStore } from "./redis/redis-presence.js";
import type { RateLimitStore } from "../http/rate-limit-store.js";
import { redisOnceEvery } from "./once-every.js";
import type { OnceEvery } from "./once-every.js";
import { redisFailureLog } from "./failure-log.js";
import type { FailureLog } from "./failure-log.js";
import { redisTokenBuckets } from "./token-buckets.js";
import type { TokenBuckets } from "./token-buckets.js";
import { redisChangeBus } from "./change-bus.js";
import type { ChangeBus } from "./change-bus.js";

/**
 * What several server processes share when the server runs with `--redis` (docs/deploy.md lists
 * every piece of per-process state and what became of it). Without it every field is undefined and
 * each service keeps its state in this process.
 */
export interface SharedState {
  redis?: RedisBackend | undefined;
  /** Event queues in Redis. */
  queueStore?: EventQueueStore | undefined;
  /** The API rate limit's window (one limit per user whichever process answers). */
  rateLimitStore?: RateLimitStore | undefined;
  /** "Once a minute" gates shared by every process (owner notifications of incoming webhooks). */
  onceEvery?: OnceEvery | undefined;
  /** Presence rows (who is online, seen by every process). */
  presence?: PresenceStore | undefined;
  /** Failed sign-ins (`fetch_api_key` and the web sign-in throttles). */
  failureLog?: FailureLog | undefined;
  /** Token buckets (per-bot incoming-webhook limits). */
  tokenBuckets?: TokenBuckets | undefined;
  /** The key that signs temporary upload URLs (any process honours another's URL). */
  uploadUrlSecret?: Buffer | undefined;
  /** Cache invalidation between processes (linkifiers). */
  changes?: ChangeBus | undefined;
}

/** How long a recorded long poll protects its queue from GC: two heartbeats and some slack. */
export function waiterLeaseMs(config: ServerConfig): number {
  return config.events.heartbeatSeconds * 2000 + 10_000;
}

/**
 * The deployment's temporary-URL key: the first process stores a random one (`SET NX`), every
 * process reads the stored one. Not expiring; if Redis loses it, processes started afterwards make
 * a new one (URLs live 60 s, so only URLs in flight across that moment are refused).
 */
async function sharedSecret(redis: RedisBackend, name: string): Promise<Buffer> {
  const key = `${redis.prefix}secret:${name}`;
  await redis.client.set(key, crypto.randomBytes(32).toString("base64"), "NX");
  const stored = await redis.client.get(key);
  if (stored === null) throw new Error(`Redis did not keep ${key}`);
  return Buffer.from(stored, "base64");
}

/** Builds the Redis-backed state and subscribes to its channels before the server answers. */
export async function redisSharedState(
  redis: RedisBackend,
  config: ServerConfig,
  logger: Logger,
): Promise<SharedState> {
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
    presence: redisPresenceStore(redis.client, redis.prefix),
    failureLog: redisFailureLog(redis.client, redis.prefix),
    tokenBuckets: redisTokenBuckets(redis.client, redis.prefix),
    uploadUrlSecret: await sharedSecret(redis, "upload-url"),
    changes: await redisChangeBus(redis, logger),
  };
}
