import type { Middleware } from "koa";
import {
  ServiceUnavailableError,
  UnstorableTextError,
  isDatabaseConnectionError,
  isRedisConnectionError,
  isUnstorableTextError,
} from "../infra/unavailable.js";

/**
 * Mounted right after the error handler: a request that failed because the database or Redis
 * cannot be reached is answered 503 with a clear JSON error (and Retry-After) instead of a 500, and
 * one whose text PostgreSQL cannot store (NUL) is answered 400.
 * Nothing is retried here; the connections recover by themselves when the service is back.
 */
export function backendUnavailable(): Middleware {
  return async function backendUnavailableMiddleware(_ctx, next) {
    try {
      await next();
    } catch (err) {
      if (isRedisConnectionError(err)) throw new ServiceUnavailableError("redis", { cause: err });
      if (isDatabaseConnectionError(err)) throw new ServiceUnavailableError("database", { cause: err });
      if (isUnstorableTextError(err)) throw new UnstorableTextError({ cause: err });
      throw err;
    }
  };
}
