import type { Redis } from "ioredis";

/**
 * Recent failures per key (the sign-in throttles of src/domain/users/login-throttle.ts): in this
 * process's memory, or in Redis (`serve --redis`) so that every process counts the same failures.
 */
export interface FailureLog {
  /** The failure times of `key` in (`nowMs` − `windowMs`, `nowMs`], ascending. */
  recent(key: string, nowMs: number, windowMs: number): Promise<number[]>;
  /** Records a failure of `key` at `nowMs`, keeping at most the `max` newest. */
  add(key: string, nowMs: number, windowMs: number, max: number): Promise<void>;
  clear(key: string): Promise<void>;
}

/** One process: a list of times per key, at most `maxKeys` keys (the oldest dropped first). */
export function memoryFailureLog(maxKeys = 100_000): FailureLog {
  const failures = new Map<string, number[]>();
  return {
    recent(key, nowMs, windowMs) {
      const recent = (failures.get(key) ?? []).filter((t) => nowMs - t < windowMs);
      if (recent.length === 0) failures.delete(key);
      else failures.set(key, recent);
      return Promise.resolve(recent);
    },
    add(key, nowMs, _windowMs, max) {
      const list = failures.get(key) ?? [];
      list.push(nowMs);
      while (list.length > max) list.shift();
      // Re-inserted so that the map's order is the order of last failure.
      failures.delete(key);
      failures.set(key, list);
      if (failures.size > maxKeys) {
        const first = failures.keys().next();
        if (first.done !== true) failures.delete(first.value);
      }
      return Promise.resolve();
    },
    clear(key) {
      failures.delete(key);
      return Promise.resolve();
    },
  };
}

/** KEYS log (sorted set scored by time); ARGV now, window ms, max, unique member. */
const ADD = `
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])
local over = redis.call('ZCARD', KEYS[1]) - tonumber(ARGV[3])
if over > 0 then redis.call('ZREMRANGEBYRANK', KEYS[1], 0, over - 1) end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;

/**
 * Every process: a sorted set of failure times per key (`<prefix>fail:<key>`), expiring with its
 * window. Times come from the callers' clocks, as with the API rate limit.
 */
export function redisFailureLog(redis: Redis, prefix: string): FailureLog {
  const tag = Math.random().toString(36).slice(2, 10);
  let seq = 0;
  const keyOf = (key: string): string => `${prefix}fail:${key}`;
  return {
    async recent(key, nowMs, windowMs) {
      const flat = await redis.zrangebyscore(keyOf(key), `(${nowMs - windowMs}`, nowMs, "WITHSCORES");
      const out: number[] = [];
      for (let i = 1; i < flat.length; i += 2) out.push(Number(flat[i]));
      return out;
    },
    async add(key, nowMs, windowMs, max) {
      await redis.eval(ADD, 1, keyOf(key), nowMs, windowMs, max, `${nowMs}:${tag}:${++seq}`);
    },
    async clear(key) {
      await redis.del(keyOf(key));
    },
  };
}
