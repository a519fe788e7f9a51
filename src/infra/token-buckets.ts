import type { Redis } from "ioredis";

/** The outcome of taking a token: granted, or how long until one (and until the bucket is full). */
export type TokenTake = { ok: true } | { ok: false; waitMs: number; fullMs: number };

/**
 * Token buckets by key (the per-bot incoming-webhook limits, src/domain/webhooks/rate-limit.ts):
 * a burst of `capacity`, refilled at capacity / periodMs per millisecond. In this process's memory,
 * or in Redis (`serve --redis`) so that a bot gets its limit once however many processes answer.
 */
export interface TokenBuckets {
  take(key: string, nowMs: number, capacity: number, periodMs: number): Promise<TokenTake>;
}

interface Bucket {
  tokens: number;
  atMs: number;
  capacity: number;
  periodMs: number;
}

/** One process: a bucket per key (a changed rule starts a full bucket); at most `maxKeys`. */
export function memoryTokenBuckets(maxKeys = 100_000): TokenBuckets {
  const buckets = new Map<string, Bucket>();
  return {
    take(key, nowMs, capacity, periodMs) {
      const ratePerMs = capacity / periodMs;
      let bucket = buckets.get(key);
      if (bucket === undefined || bucket.capacity !== capacity || bucket.periodMs !== periodMs) {
        if (bucket === undefined && buckets.size >= maxKeys) buckets.clear();
        bucket = { tokens: capacity, atMs: nowMs, capacity, periodMs };
        buckets.set(key, bucket);
      }
      bucket.tokens = Math.min(capacity, bucket.tokens + Math.max(0, nowMs - bucket.atMs) * ratePerMs);
      bucket.atMs = nowMs;
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return Promise.resolve({ ok: true });
      }
      return Promise.resolve({
        ok: false,
        waitMs: (1 - bucket.tokens) / ratePerMs,
        fullMs: (capacity - bucket.tokens) / ratePerMs,
      });
    },
  };
}

/**
 * KEYS bucket hash; ARGV now, capacity, period ms. Returns {1} or {0, waitMs, fullMs} (as strings:
 * Lua numbers become integers on the way out). The same arithmetic as the memory buckets.
 */
const TAKE = `
local now = tonumber(ARGV[1])
local capacity = tonumber(ARGV[2])
local period = tonumber(ARGV[3])
local rate = capacity / period
local b = redis.call('HMGET', KEYS[1], 'tokens', 'at', 'capacity', 'period')
local tokens = capacity
local at = now
if b[1] and tonumber(b[3]) == capacity and tonumber(b[4]) == period then
  tokens = tonumber(b[1])
  at = tonumber(b[2])
end
tokens = math.min(capacity, tokens + math.max(0, now - at) * rate)
local ok = 0
if tokens >= 1 then
  tokens = tokens - 1
  ok = 1
end
redis.call('HSET', KEYS[1], 'tokens', string.format('%.17g', tokens), 'at', ARGV[1], 'capacity', ARGV[2], 'period', ARGV[3])
redis.call('PEXPIRE', KEYS[1], math.ceil(period) + 60000)
if ok == 1 then return {1} end
return {0, string.format('%.17g', (1 - tokens) / rate), string.format('%.17g', (capacity - tokens) / rate)}`;

/** Every process: one hash per key (`<prefix>tb:<key>`), updated by one script. */
export function redisTokenBuckets(redis: Redis, prefix: string): TokenBuckets {
  return {
    async take(key, nowMs, capacity, periodMs) {
      const out = (await redis.eval(TAKE, 1, `${prefix}tb:${key}`, nowMs, capacity, periodMs)) as [
        number,
        string?,
        string?,
      ];
      if (out[0] === 1) return { ok: true };
      return { ok: false, waitMs: Number(out[1]), fullMs: Number(out[2]) };
    },
  };
}
