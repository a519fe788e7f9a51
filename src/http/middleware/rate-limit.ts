import type { Middleware } from "koa";
import { RateLimitedError } from "../../errors.js";
import type { Clock } from "../../clock.js";
import type { AppState } from "../state.js";
import { memoryRateLimitStore } from "../rate-limit-store.js";
import type { RateLimitStore } from "../rate-limit-store.js";

export interface RateLimitRule {
  windowSeconds: number;
  maxRequests: number;
}

/**
 * Zulip's per-user API rate limit (default 200 requests per 60 s): a sliding log of request times;
 * every checked response carries X-RateLimit-Limit/Remaining/Reset, and an exceeded limit is a
 * 429 RATE_LIMIT_HIT with Retry-After. Runs after authentication. The window lives in `store`
 * (in memory, or in Redis with `serve --redis` so every process counts against one limit).
 */
export function rateLimit(
  rule: RateLimitRule,
  clock: Clock,
  store: RateLimitStore = memoryRateLimitStore(),
): Middleware<AppState> {
  const windowMs = rule.windowSeconds * 1000;
  return async function rateLimitMiddleware(ctx, next) {
    // Long polls are how clients wait, not load they generate: like Zulip's Tornado, not limited.
    if (ctx.path === "/api/v1/events") {
      await next();
      return;
    }
    const now = clock.now();
    const hit = await store.hit(String(ctx.state.user.id), now, windowMs, rule.maxRequests);
    const oldest = hit.oldestMs;
    const resetAt = Math.floor((oldest + windowMs) / 1000);
    ctx.set("X-RateLimit-Limit", String(rule.maxRequests));
    ctx.set("X-RateLimit-Reset", String(resetAt));
    if (!hit.allowed) {
      ctx.set("X-RateLimit-Remaining", "0");
      throw new RateLimitedError((oldest + windowMs - now) / 1000);
    }
    ctx.set("X-RateLimit-Remaining", String(rule.maxRequests - hit.count));
    await next();
  };
}
