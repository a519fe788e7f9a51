import type { Middleware } from "koa";
import type { Logger } from "../../logger.js";

/** One line per request: method, path (never the query string, which may hold an api_key), status, time. */
export function requestLog(logger: Logger): Middleware {
  return async function requestLogMiddleware(ctx, next) {
    const started = process.hrtime.bigint();
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
  };
}
