import Router from "@koa/router";
import { legacyPresence, presencesWire } from "../../domain/presence/presence-service.js";
import type { TypingNotice } from "../../domain/typing/typing-service.js";
import { BadRequestError, JsonableError } from "../../errors.js";
import type { Services } from "../../services.js";
import {
  bool,
  checkInt,
  checkList,
  checkString,
  checkUnion,
  int,
  jsonOf,
  oneOf,
  optional,
  parseArgs,
  str,
} from "../params.js";
import type { AppState } from "../state.js";
import { success } from "../state.js";

/**
 * The realm's presence rows as clients see them: keyed by id when slim, else by email (looked up
 * for those rows only: every client posts its presence every minute, whatever the realm's size).
 */
async function realmPresences(
  services: Pick<Services, "presence" | "users">,
  slim: boolean,
): Promise<Record<string, unknown>> {
  const rows = await services.presence.recent();
  const emails = slim ? new Map<number, string>() : await services.users.emailsOf(rows.map((p) => p.userId));
  return presencesWire(rows, (id) => emails.get(id), slim);
}

/** Presence, typing notifications and user status. */
export function presenceRouter(
  services: Pick<Services, "presence" | "typing" | "userStatus" | "users">,
): Router<AppState> {
  const router = new Router<AppState>({ prefix: "/api/v1" });

  router.post("/users/me/presence", async (ctx) => {
    const args = parseArgs(ctx.state.params, {
      status: str,
      ping_only: optional(bool, false),
      new_user_input: optional(bool, false),
      slim_presence: optional(bool, false),
    });
    await services.presence.update(ctx.state.user, args.status);
    if (args.ping_only) {
      ctx.body = success();
      return;
    }
    ctx.body = success({
      presences: await realmPresences(services, args.slim_presence),
      server_timestamp: services.presence.serverTimestamp(),
    });
  });

  router.get("/realm/presence", async (ctx) => {
    ctx.body = success({
      presences: await realmPresences(services, false),
      server_timestamp: services.presence.serverTimestamp(),
    });
  });

  router.get("/users/:user_id_or_email/presence", async (ctx) => {
    const key = ctx.params["user_id_or_email"] ?? "";
    const target = /^\d+$/.test(key)
      ? await services.users.byId(Number(key))
      : await services.users.byEmail(key);
    if (target === undefined || target.realmId !== ctx.state.user.realmId) {
      throw new JsonableError("No such user");
    }
    if (target.isBot) throw new BadRequestError("Presence is not supported for bot users.");
    const row = await services.presence.of(target.id);
    if (row === undefined) throw new BadRequestError(`No presence data for ${key}`);
    const { status, timestamp } = legacyPresence(row);
    ctx.body = success({ presence: { website: { status, timestamp }, aggregated: { status, timestamp } } });
  });

  router.post("/typing", async (ctx) => {
    const args = parseArgs(ctx.state.params, {
      op: oneOf(["start", "stop"] as const),
      type: optional(oneOf(["private", "direct", "stream", "channel"] as const), "private"),
      to: optional(jsonOf(checkUnion(checkList(checkUnion(checkInt, checkString)), checkInt))),
      stream_id: optional(int),
      topic: optional(str),
    });
    let notice: TypingNotice;
    if (args.type === "stream" || args.type === "channel") {
      const to = Array.isArray(args.to) ? args.to[0] : args.to;
      const streamId = args.stream_id ?? (typeof to === "number" ? to : undefined);
      if (streamId === undefined) throw new BadRequestError("Missing stream_id");
      if (args.topic === undefined) throw new BadRequestError("Missing topic");
      notice = { kind: "stream", op: args.op, streamId, topic: args.topic };
    } else {
      if (args.to === undefined) throw new BadRequestError("Missing 'to' argument");
      const to = Array.isArray(args.to) ? args.to : [args.to];
      const ids: number[] = [];
      for (const t of to) {
        if (typeof t === "number") {
          ids.push(t);
          continue;
        }
        // Old clients name recipients by email.
        const user = await services.users.byEmail(t);
        if (user === undefined) throw new BadRequestError(`Invalid email '${t}'`);
        ids.push(user.id);
      }
      notice = { kind: "private", op: args.op, to: ids };
    }
    await services.typing.notify(ctx.state.user, notice);
    ctx.body = success();
  });

  router.post("/users/me/status", async (ctx) => {
    const args = parseArgs(ctx.state.params, {
      away: optional(bool),
      status_text: optional(str),
      emoji_name: optional(str),
      emoji_code: optional(str),
      reaction_type: optional(str),
    });
    await services.userStatus.update(ctx.state.user, {
      away: args.away,
      statusText: args.status_text,
      emojiName: args.emoji_name,
      emojiCode: args.emoji_code,
      reactionType: args.reaction_type,
    });
    ctx.body = success();
  });

  return router;
}
