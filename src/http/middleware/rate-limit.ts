import type { Middleware } from "koa";
import { RateLimitedError } from "../../errors.js";
import type { Clock } from "../../clock.js";
import type { AppState } from "../state.js";

export interface RateLimitRule {
  windowSeconds: number;
  maxRequests: number;
}

/**
 * Zulip's per-user API rate limit (default 200 requests per 60 s): a sliding log of request times;
 * every checked response carries X-RateLimit-Limit/Remaining/Reset, and an exceeded limit is a
 * 429 RATE_LIMIT_HIT with Retry-After. Runs after authentication.
 */
export function rateLimit(rule: RateLimitRule, clock: Clock): Middleware<AppState> {
  const logs = new Map<number, number[]>();
  const windowMs = rule.windowSeconds * 1000;
  return async function rateLimitMiddleware(ctx, next) {
    // Long polls are how clients wait, not load they generate: like Zulip's Tornado, not limited.
    if (ctx.path === "/api/v1/events") {
      await next();
      return;
    }
    const userId = ctx.state.user.id;
    const now = clock.now();
    let log = logs.get(userId);
    if (log === undefined) logs.set(userId, (log = []));
    while (log.length > 0 && now - (log[0] ?? 0) >= windowMs) log.shift();
    const oldest = log[0] ?? now;
    const resetAt = Math.floor((oldest + windowMs) / 1000);
    ctx.set("X-RateLimit-Limit", String(rule.maxRequests));
    ctx.set("X-RateLimit-Reset", String(resetAt));
    if (log.length >= rule.maxRequests) {
      ctx.set("X-RateLimit-Remaining", "0");
      throw new RateLimitedError((oldest + windowMs - now) / 1000);
    }
    log.push(now);
    ctx.set("X-RateLimit-Remaining", String(rule.maxRequests - log.length));
    await next();
  };
}
