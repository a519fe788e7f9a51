import type { Redis } from "ioredis";

/**
 * "At most once per interval" for a key, across processes when backed by Redis: the
 * incoming-webhook owner notifications (one message per bot and kind of problem a minute) use it
 * so N processes do not send N notices.
 */
export interface OnceEvery {
  /** True for the first caller per `key` in each `intervalMs` (then false until it has passed). */
  acquire(key: string, nowMs: number, intervalMs: number): Promise<boolean>;
}

/** One process: the time each key was last granted. */
export function memoryOnceEvery(): OnceEvery {
  const last = new Map<string, number>();
  return {
    acquire(key, nowMs, intervalMs) {
      if (nowMs - (last.get(key) ?? -Infinity) < intervalMs) return Promise.resolve(false);
      if (last.size >= 10_000) last.clear();
      last.set(key, nowMs);
      return Promise.resolve(true);
    },
  };
}

/** Every process: `SET <prefix>once:<key> 1 NX PX interval` (Redis's clock measures the interval). */
export function redisOnceEvery(redis: Redis, prefix: string): OnceEvery {
  return {
    async acquire(key, _nowMs, intervalMs) {
      return (await redis.set(`${prefix}once:${key}`, "1", "PX", intervalMs, "NX")) === "OK";
    },
  };
}
