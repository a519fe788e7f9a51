import type { Middleware } from "koa";
import { MethodNotAllowedError, NotFoundError, errorAnswer } from "../errors.js";
import type { Logger } from "./logger.js";

/**
 * Mounted first: writes every error body. JsonableErrors (and exposed Koa http errors) become
 * Zulip's error JSON with their status and headers; anything else is logged and answered 500
 * `{"result":"error","msg":"Internal server error"}`, never with a stack trace.
 */
export function errorHandler(logger: Logger): Middleware {
  return async function errorHandlerMiddleware(ctx, next) {
    try {
      await next();
      // The router answers OPTIONS with an Allow header and no body: give it a JSON one.
      if (ctx.method === "OPTIONS" && ctx.status === 200 && (ctx.body == null || ctx.body === "")) {
        ctx.body = { result: "success", msg: "" };
        return;
      }
      if (ctx.status === 404 && ctx.body == null) throw new NotFoundError();
      if (ctx.status === 405 && ctx.body == null) {
        throw new MethodNotAllowedError(
          ctx.response
            .get("Allow")
            .split(/,\s*/)
            .filter((m) => m !== ""),
        );
      }
    } catch (err) {
      const answer = errorAnswer(err);
      if (answer.jsonable === undefined) {
        logger.error("unhandled error", { method: ctx.method, path: ctx.path, error: err as Error });
      }
      ctx.status = answer.status;
      for (const [k, v] of Object.entries(answer.headers)) ctx.set(k, v);
      ctx.body = answer.body;
    }
  };
}
