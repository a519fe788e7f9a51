import Router from "@koa/router";
import type { ParameterizedContext } from "koa";
import { DEFAULT_EXPIRY_MINUTES } from "../../domain/invites/types.js";
import { JsonableError, NotFoundError } from "../../errors.js";
import type { Services } from "../../services.js";
import { Role } from "../../domain/users/types.js";
import { bool, int, json, optional, parseArgs, str } from "../params.js";
import type { AppState } from "../state.js";
import { success } from "../state.js";

/** `invite_expires_in_minutes`: a positive integer, or JSON `null` for a link that never expires. */
function expiry(raw: string, name: string): number | null {
  const v = json(raw, name);
  if (v === null) return null;
  if (typeof v !== "number" || !Number.isSafeInteger(v)) throw new JsonableError(`${name} is not an integer`);
  return v;
}

function idOf(ctx: ParameterizedContext<AppState>): number {
  const raw = (ctx.params as Record<string, string | undefined>)["invite_id"] ?? "";
  if (!/^[0-9]+$/.test(raw) || !Number.isSafeInteger(Number(raw))) throw new NotFoundError();
  return Number(raw);
}

/**
 * Invitation links (Zulip's invite API where it fits): POST /invites/multiuse (with our
 * `single_use` for a link one person can use), GET /invites, DELETE /invites/multiuse/{id}. Who
 * may make links, the realm's `can_invite_users_group`, is changed with PATCH /realm
 * (src/http/routes/realm.ts).
 */
export function invitesRouter(services: Pick<Services, "invites">): Router<AppState> {
  const { invites } = services;
  const router = new Router<AppState>({ prefix: "/api/v1" });

  router.post("/invites/multiuse", async (ctx) => {
    const args = parseArgs(ctx.state.params, {
      invite_expires_in_minutes: optional(expiry, DEFAULT_EXPIRY_MINUTES),
      invite_as: optional(int, Role.MEMBER),
      single_use: optional(bool, false),
    });
    const made = await invites.create(ctx.state.user, {
      expiresInMinutes: args.invite_expires_in_minutes,
      inviteAs: args.invite_as,
      singleUse: args.single_use,
    });
    ctx.body = success({ invite_link: made.link });
  });

  router.get("/invites", async (ctx) => {
    const list = await invites.list(ctx.state.user);
    ctx.body = success({
      invites: list.map((i) => ({
        id: i.id,
        invited_by_user_id: i.invitedByUserId,
        invited: i.invitedSeconds,
        expiry_date: i.expirySeconds,
        invite_as: i.inviteAs,
        is_multiuse: i.isMultiuse,
      })),
    });
  });

  router.delete("/invites/multiuse/:invite_id", async (ctx) => {
    await invites.revoke(ctx.state.user, idOf(ctx));
    ctx.body = success();
  });

  return router;
}

/**
 * Where an invitation link leads (the page itself is the web app's, src/http/routes/web.ts):
 * GET /join/{key}/status says whether the link is usable; POST /join/{key} makes the account
 * (`email`, `full_name`, `password`), after which the page signs in through POST /login.
 */
export function joinRouter(services: Pick<Services, "invites" | "users">): Router<AppState> {
  const router = new Router<AppState>();
  const keyOf = (ctx: ParameterizedContext<AppState>) =>
    (ctx.params as Record<string, string | undefined>)["key"] ?? "";

  router.get("/join/:key/status", async (ctx) => {
    await services.invites.check(keyOf(ctx));
    const realm = await services.users.realm();
    ctx.set("Cache-Control", "no-store");
    ctx.body = success({ realm_name: realm.name });
  });

  router.post("/join/:key", async (ctx) => {
    const args = parseArgs(ctx.state.params, { email: str, full_name: str, password: str });
    const user = await services.invites.accept(keyOf(ctx), {
      email: args.email,
      fullName: args.full_name,
      password: args.password,
    });
    ctx.set("Cache-Control", "no-store");
    ctx.body = success({ user_id: user.id, email: user.email });
  });

  return router;
}
