import type { Middleware } from "koa";
import {
  ConcurrentChangeError,
  ServiceUnavailableError,
  UnstorableTextError,
  isConcurrentChangeError,
  isDatabaseConnectionError,
  isRedisConnectionError,
  isUnstorableTextError,
} from "../infra/unavailable.js";
import type { Logger } from "../lib/logger.js";

/**
 * Mounted right after the error handler: a request that failed because the database or Redis
 * cannot be reached is answered 503 with a clear JSON error (and Retry-After) instead of a 500, one
 * whose text PostgreSQL cannot store (NUL) is answered 400, and so is one whose write lost a race
 * with another request (logged, with the database's reason).
 * Nothing is retried here; the connections recover by themselves when the service is back.
 */
export function backendUnavailable(logger: Logger): Middleware {
  return async function backendUnavailableMiddleware(ctx, next) {
    try {
      await next();
    } catch (err) {
      if (isRedisConnectionError(err)) throw new ServiceUnavailableError("redis", { cause: err });
      if (isDatabaseConnectionError(err)) throw new ServiceUnavailableError("database", { cause: err });
      if (isUnstorableTextError(err)) throw new UnstorableTextError({ cause: err });
      if (isConcurrentChangeError(err)) {
        logger.warn("write lost a race with a concurrent request", {
          method: ctx.method,
          path: ctx.path,
          reason: err instanceof Error ? err.message : String(err),
        });
        throw new ConcurrentChangeError({ cause: err });
      }
      throw err;
    }
  };
}
