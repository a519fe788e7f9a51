/**
 * Where the per-user API rate limit keeps its sliding window (src/http/middleware/rate-limit.ts).
 * In memory for one process; in Redis (src/infra/redis/redis-rate-limit.ts) when several processes
 * serve one organization, so a user gets the same limit whichever process answers.
 */
export interface RateLimitStore {
  /**
   * Counts a request of `key` at `nowMs` unless `max` requests fall in the window
   * (`nowMs - windowMs`, `nowMs`]. Returns whether it was counted, the requests in the window
   * afterwards, and the time of the oldest one (the window resets when it leaves).
   */
  hit(key: string, nowMs: number, windowMs: number, max: number): Promise<RateLimitHit>;
}

export interface RateLimitHit {
  allowed: boolean;
  count: number;
  oldestMs: number;
}

/** The one-process window: a log of request times per key. */
export function memoryRateLimitStore(): RateLimitStore {
  const logs = new Map<string, number[]>();
  return {
    hit(key, nowMs, windowMs, max) {
      let log = logs.get(key);
      if (log === undefined) logs.set(key, (log = []));
      while (log.length > 0 && nowMs - (log[0] ?? 0) >= windowMs) log.shift();
      const oldestMs = log[0] ?? nowMs;
      if (log.length >= max) return Promise.resolve({ allowed: false, count: log.length, oldestMs });
      log.push(nowMs);
      return Promise.resolve({ allowed: true, count: log.length, oldestMs });
    },
  };
}
