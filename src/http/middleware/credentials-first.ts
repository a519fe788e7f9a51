import type { Middleware } from "koa";
import type { UserService } from "../../domain/users/user-service.js";
import type { AppState } from "../state.js";
import { parseBasicAuth } from "./basic-auth.js";

/** Webhook URLs: they take `api_key` in the query (or body) and may carry a service's own Authorization. */
const WEBHOOK_PATH = /^\/api\/v1\/external\/([^/]+)\/?$/;

/** Whether the request announces a body (Content-Length above 0, or chunked). */
function announcesBody(headers: Record<string, string | string[] | undefined>): boolean {
  const length = Number(headers["content-length"] ?? "0");
  return (Number.isFinite(length) && length > 0) || headers["transfer-encoding"] !== undefined;
}

/**
 * Checks credentials before any body is read (mounted before the per-IP cap and the body parser):
 * - `Authorization: Basic …` (any path but webhook URLs): valid → the request counts as
 *   authenticated (`ctx.state.credentialsVerified`); wrong, on a request with a body to a route
 *   behind Basic auth (or an unknown URL) → its 401 (the Basic-auth middleware's error) at once,
 *   the body never read;
 * - a webhook's `api_key` in the query string (of a known integration): the same, with the
 *   webhook's own error for a wrong key.
 * Anything else passes unverified: the per-IP cap for anonymous requests counts it, and the route
 * authenticates it as before (so an unknown URL without a body is still a 404).
 */
export function credentialsFirst(
  users: UserService,
  routes: {
    /** A registered integration's slug (an unknown one stays the route's 404). */
    isIntegration(name: string): boolean;
    /** A route that needs no Basic auth (server_settings, fetch_api_key, web pages): never refused here. */
    isPublicRoute(path: string, method: string): boolean;
  },
): Middleware<AppState> {
  return async function credentialsFirstMiddleware(ctx, next) {
    const reject = announcesBody(ctx.headers);
    const webhook = WEBHOOK_PATH.exec(ctx.path);
    if (webhook !== null) {
      const key = ctx.query["api_key"];
      if (typeof key === "string" && routes.isIntegration(webhook[1] ?? "")) {
        const verified = await users.authenticateApiKey(key).then(
          () => true,
          (err: unknown) => {
            if (reject) throw err;
            return false;
          },
        );
        ctx.state.credentialsVerified = verified;
      }
    } else if (/^basic /i.test(ctx.get("authorization"))) {
      try {
        const [email, key] = parseBasicAuth(ctx.get("authorization"));
        await users.authenticate(email, key);
        ctx.state.credentialsVerified = true;
      } catch (err) {
        if (reject && !routes.isPublicRoute(ctx.path, ctx.method)) throw err;
      }
    }
    await next();
  };
}
