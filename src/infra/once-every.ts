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

/**
 * KEYS gate; ARGV now, interval. Granted when no grant is recorded within the interval before now
 * (by the callers' clocks, as the API rate limit counts); the key also expires with the interval.
 */
const ACQUIRE = `
local last = redis.call('GET', KEYS[1])
if last and tonumber(ARGV[1]) - tonumber(last) < tonumber(ARGV[2]) then
  return 0
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1`;

/** Every process: one key per gate (`<prefix>once:<key>`), tested and set by one script. */
export function redisOnceEvery(redis: Redis, prefix: string): OnceEvery {
  return {
    async acquire(key, nowMs, intervalMs) {
      return (await redis.eval(ACQUIRE, 1, `${prefix}once:${key}`, nowMs, intervalMs)) === 1;
    },
  };
}
