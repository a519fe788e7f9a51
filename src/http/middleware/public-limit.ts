import type { Middleware } from "koa";
import { RateLimitedError } from "../../errors.js";
import type { AppState } from "../state.js";

/**
 * Caps the requests one client IP may have in flight without credentials verified before the body
 * (credentials-first.ts: no or wrong `Authorization`, fetch_api_key, server_settings, unknown
 * URLs, web sessions): more get 429 RATE_LIMIT_HIT at once. Requests with valid Basic credentials
 * or a webhook's valid `api_key` (long polls included) are not counted; they have the per-user
 * rate limit. `max` 0 disables the cap.
 */
export function publicRequestCap(max: number): Middleware<AppState> {
  const inFlight = new Map<string, number>();
  return async function publicRequestCapMiddleware(ctx, next) {
    if (max <= 0 || ctx.state.credentialsVerified === true) {
      await next();
      return;
    }
    const ip = ctx.ip;
    const current = inFlight.get(ip) ?? 0;
    if (current >= max) throw new RateLimitedError(1);
    inFlight.set(ip, current + 1);
    try {
      await next();
    } finally {
      const left = (inFlight.get(ip) ?? 1) - 1;
      if (left <= 0) inFlight.delete(ip);
      else inFlight.set(ip, left);
    }
  };
}
