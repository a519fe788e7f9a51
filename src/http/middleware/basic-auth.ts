import type { Middleware } from "koa";
import { JsonableError, UnauthorizedError } from "../../errors.js";
import type { UserService } from "../../domain/users/user-service.js";
import { BotType } from "../../domain/users/types.js";
import type { AppState } from "../state.js";

/** Decodes `Authorization: Basic …` into [email, key], with Zulip's errors for each malformation. */
export function parseBasicAuth(header: string | undefined): [string, string] {
  if (header === undefined || header === "") throw new UnauthorizedError();
  const space = header.indexOf(" ");
  const scheme = space === -1 ? header : header.slice(0, space);
  if (scheme.toLowerCase() !== "basic")
    throw new JsonableError("This endpoint requires HTTP basic authentication.");
  const encoded = header.slice(space + 1).trim();
  const decoded = Buffer.from(encoded, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (encoded === "" || !/^[A-Za-z0-9+/=]+$/.test(encoded) || colon === -1) {
    throw new UnauthorizedError("Invalid authorization header for basic auth");
  }
  return [decoded.slice(0, colon).trim(), decoded.slice(colon + 1).trim()];
}

/**
 * HTTP Basic (email:api_key) for authenticated endpoints. Incoming-webhook bots may only send
 * messages, as in Zulip.
 */
export function basicAuth(users: UserService): Middleware<AppState> {
  return async function basicAuthMiddleware(ctx, next) {
    const [email, key] = parseBasicAuth(ctx.get("authorization") || undefined);
    const user = await users.authenticate(email, key);
    if (
      user.botType === BotType.INCOMING_WEBHOOK &&
      !(ctx.method === "POST" && ctx.path === "/api/v1/messages")
    ) {
      throw new UnauthorizedError("This API is not available to incoming webhook bots.");
    }
    ctx.state.user = user;
    await next();
  };
}
