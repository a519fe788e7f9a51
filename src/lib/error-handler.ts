import type { Middleware } from "koa";
import { JsonableError, MethodNotAllowedError, NotFoundError, RequestTooLargeError } from "../errors.js";
import type { Logger } from "./logger.js";

interface HttpLikeError {
  status?: number;
  statusCode?: number;
  expose?: boolean;
  message?: string;
}

function asJsonable(err: unknown): JsonableError | undefined {
  if (err instanceof JsonableError) return err;
  const e = err as HttpLikeError | null;
  const status = e?.status ?? e?.statusCode;
  if (typeof status !== "number" || status >= 500) return undefined;
  if (status === 404) return new NotFoundError();
  if (status === 405) return new MethodNotAllowedError([]);
  if (status === 413) return new RequestTooLargeError(0);
  // Other client errors from Koa/formidable (a malformed multipart body, …): a plain 400.
  return new JsonableError(e?.expose === true && e.message ? e.message : "Bad request");
}

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
      const jsonable = asJsonable(err);
      if (jsonable === undefined) {
        logger.error("unhandled error", { method: ctx.method, path: ctx.path, error: err as Error });
        ctx.status = 500;
        ctx.body = { result: "error", msg: "Internal server error" };
        return;
      }
      ctx.status = jsonable.httpStatus;
      for (const [k, v] of Object.entries(jsonable.headers())) ctx.set(k, v);
      ctx.body = jsonable.toJSON();
    }
  };
}
