import type { Middleware, ParameterizedContext } from "koa";
import type { SessionService, WebSession } from "../../domain/web/session-service.js";
import { CsrfFailedError, UnauthorizedError } from "../../errors.js";
import { constantTimeEqual } from "../../lib/constant-time.js";
import type { AppState } from "../state.js";
import { CSRF_HEADER, SESSION_COOKIE, readCookie } from "./cookies.js";

/** 401 for a `/json` request without a session: no Basic challenge, so browsers show no password dialog. */
export class SessionRequiredError extends UnauthorizedError {
  override headers(): Record<string, string> {
    return {};
  }
}

const jsonRequests = new WeakSet<object>();

/** Whether this request came in under `/json/` (set by `jsonPrefix`). */
export function isJsonRequest(ctx: object): boolean {
  return jsonRequests.has(ctx);
}

/**
 * Zulip's `/json/...` convention: the web app calls the same handlers as `/api/v1/...`,
 * authenticated by its session instead of Basic auth. This rewrites `/json/x` to `/api/v1/x` for
 * the routers behind it (so both answer identically) and restores the path on the way out.
 */
export function jsonPrefix(): Middleware<AppState> {
  return async function jsonPrefixMiddleware(ctx, next) {
    if (!ctx.path.startsWith("/json/")) {
      await next();
      return;
    }
    const original = ctx.path;
    jsonRequests.add(ctx);
    ctx.path = "/api/v1/" + original.slice("/json/".length);
    try {
      await next();
    } finally {
      ctx.path = original;
    }
  };
}

/** The valid session named by the request's cookie, if any. */
export async function sessionOf(
  ctx: ParameterizedContext,
  sessions: SessionService,
): Promise<WebSession | undefined> {
  const id = readCookie(ctx, SESSION_COOKIE);
  return id === undefined ? undefined : sessions.lookUp(id);
}

/** Rejects a state-changing request whose `X-CSRFToken` is not the session's token. */
export function checkCsrf(ctx: ParameterizedContext, expected: string): void {
  if (ctx.method === "GET" || ctx.method === "HEAD" || ctx.method === "OPTIONS") return;
  const token = ctx.get(CSRF_HEADER);
  if (token === "") throw new CsrfFailedError("CSRF token missing.");
  if (!constantTimeEqual(token, expected)) throw new CsrfFailedError("CSRF token incorrect.");
}

/**
 * Authentication for the API routers: `/json` requests by web session (+ CSRF token on every
 * state-changing request), everything else by the given Basic-auth middleware, unchanged.
 */
export function sessionOrBasicAuth(
  sessions: SessionService,
  basic: Middleware<AppState>,
): Middleware<AppState> {
  return async function sessionOrBasicAuthMiddleware(ctx, next) {
    if (!isJsonRequest(ctx)) {
      await basic(ctx, next);
      return;
    }
    const session = await sessionOf(ctx, sessions);
    if (session === undefined) throw new SessionRequiredError();
    checkCsrf(ctx, session.csrfToken);
    ctx.state.user = session.user;
    await next();
  };
}
