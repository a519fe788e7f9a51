import type { Middleware } from "koa";
import type { Logger } from "../../lib/logger.js";
import { inRequestContext } from "../../lib/tracing.js";

/**
 * One line per request: method, path (never the query string, which may hold an api_key), status,
 * time. The request gets an id (the caller's `X-Request-Id`, else a new one) echoed in the answer,
 * and a W3C trace id (the caller's `traceparent`, else a new one): every log line written while it
 * is served carries both, and the requests it causes (outgoing webhooks) pass them on.
 */
export function requestLog(logger: Logger): Middleware {
  return async function requestLogMiddleware(ctx, next) {
    const started = process.hrtime.bigint();
    await inRequestContext(ctx, async () => {
      try {
        await next();
      } finally {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        const user = (ctx.state as { user?: { id: number } }).user;
        logger.info(`${ctx.method} ${ctx.path} ${ctx.status}`, {
          ms: Math.round(ms * 10) / 10,
          ...(user ? { user_id: user.id } : {}),
        });
      }
    });
  };
}
