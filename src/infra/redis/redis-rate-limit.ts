import type { Redis } from "ioredis";
import type { RateLimitHit, RateLimitStore } from "../../http/rate-limit-store.js";

/**
 * KEYS window (sorted set of request times); ARGV now, window ms, max, unique member.
 * The same sliding log as the in-memory store, atomically, shared by every process.
 */
const HIT = `
local now = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[2]))
local count = redis.call('ZCARD', KEYS[1])
local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
local oldest = now
if first[2] then oldest = tonumber(first[2]) end
if count >= tonumber(ARGV[3]) then return {0, count, tostring(oldest)} end
redis.call('ZADD', KEYS[1], now, ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return {1, count + 1, tostring(oldest)}`;

/** The API rate limit's window in Redis (`serve --redis`): one limit per user across processes. */
export class RedisRateLimitStore implements RateLimitStore {
  private seq = 0;
  private readonly tag = Math.random().toString(36).slice(2, 10);

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  async hit(key: string, nowMs: number, windowMs: number, max: number): Promise<RateLimitHit> {
    const [allowed, count, oldest] = (await this.redis.eval(
      HIT,
      1,
      `${this.prefix}rl:${key}`,
      nowMs,
      windowMs,
      max,
      `${nowMs}:${this.tag}:${++this.seq}`,
    )) as [number, number, string];
    return { allowed: allowed === 1, count, oldestMs: Number(oldest) };
  }
}
