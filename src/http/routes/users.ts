import { profileFieldWire } from "../../domain/users/profile-fields.js";
import Router from "@koa/router";
import { JsonableError } from "../../errors.js";
import type { Services } from "../../services.js";
import type { User } from "../../domain/users/types.js";
import {
  bool,
  checkDict,
  checkInt,
  checkString,
  checkUnion,
  int,
  jsonDict,
  jsonList,
  optional,
  parseArgs,
  str,
} from "../params.js";
import type { Parser } from "../params.js";
import { presentBot, presentUser } from "../presenters/users.js";
import type { AppState } from "../state.js";
import { success } from "../state.js";

/** A string sent raw or JSON-encoded (Zulip takes some string arguments as Json[str]). */
const looseString: Parser<string> = (raw, name) => {
  if (!raw.startsWith('"')) return raw;
  try {
    const v = JSON.parse(raw) as unknown;
    if (typeof v === "string") return v;
  } catch {
    // fall through to the error
  }
  throw new JsonableError(`${name} is not a string`);
};

/** Users, bots and custom profile fields. */
export function usersRouter(
  services: Pick<Services, "maxMessageId" | "profileFields" | "users">,
): Router<AppState> {
  const { users } = services;
  const router = new Router<AppState>({ prefix: "/api/v1" });

  async function present(
    list: User[],
    clientGravatar: boolean,
    withProfile: boolean,
  ): Promise<Record<string, unknown>[]> {
    const emails = new Map(list.map((u) => [u.id, u.email]));
    const profile = withProfile ? await users.profileData(list.map((u) => u.id)) : undefined;
    return list.map((u) =>
      presentUser(u, {
        clientGravatar,
        profileData: profile ? (profile.get(u.id) ?? new Map()) : undefined,
        ownerEmail: u.botOwnerId === null ? undefined : emails.get(u.botOwnerId),
      }),
    );
  }

  router.get("/users", async (ctx) => {
    const args = parseArgs(ctx.state.params, {
      client_gravatar: optional(bool, false),
      include_custom_profile_fields: optional(bool, false),
    });
    const all = await users.allUsers();
    ctx.body = success({
      members: await present(all, args.client_gravatar, args.include_custom_profile_fields),
    });
  });

  router.get("/users/me", async (ctx) => {
    const me = ctx.state.user;
    const [presented] = await present([me], false, true);
    // Zulip's /users/me has no bot_type, and adds delivery_email.
    const { bot_type: _botType, bot_owner_id: _owner, ...fields } = presented ?? {};
    ctx.body = success({
      ...fields,
      delivery_email: me.email,
      max_message_id: await services.maxMessageId(me.id),
    });
  });

  router.get("/users/:user", async (ctx) => {
    const args = parseArgs(ctx.state.params, {
      client_gravatar: optional(bool, false),
      include_custom_profile_fields: optional(bool, false),
    });
    const key = ctx.params["user"] ?? "";
    const user = /^\d+$/.test(key) ? await users.byId(Number(key)) : await users.byEmail(key);
    if (user === undefined) throw new JsonableError("No such user");
    const [presented] = await present([user], args.client_gravatar, args.include_custom_profile_fields);
    const owner = user.botOwnerId === null ? undefined : await users.byId(user.botOwnerId);
    ctx.body = success({ user: { ...presented, ...(owner ? { bot_owner: owner.email } : {}) } });
  });

  router.post("/users", async (ctx) => {
    const args = parseArgs(ctx.state.params, {
      email: str,
      password: optional(str),
      full_name: str,
    });
    const user = await users.createUser(ctx.state.user, {
      email: args.email,
      password: args.password,
      fullName: args.full_name,
    });
    ctx.body = success({ user_id: user.id });
  });

  router.post("/bots", async (ctx) => {
    const args = parseArgs(ctx.state.params, {
      full_name: str,
      short_name: str,
      bot_type: optional(int, 1),
      payload_url: optional(looseString),
      interface_type: optional(int, 1),
      service_name: optional(looseString),
      config_data: optional(jsonDict),
    });
    const configData: Record<string, string> = {};
    for (const [k, v] of Object.entries(args.config_data ?? {}))
      configData[k] = checkString(v, `config_data["${k}"]`);
    const created = await users.createBot(ctx.state.user, {
      fullName: args.full_name,
      shortName: args.short_name,
      botType: args.bot_type,
      payloadUrl: args.payload_url,
      interfaceType: args.interface_type,
      serviceName: args.service_name,
      configData,
    });
    const presented = presentBot(created);
    ctx.body = success({
      user_id: created.bot.id,
      email: created.bot.email,
      api_key: created.bot.apiKey,
      avatar_url: presented["avatar_url"],
      default_sending_stream: null,
      default_events_register_stream: null,
      default_all_public_streams: false,
      services: presented["services"],
    });
  });

  // PATCH/DELETE /bots/{bot_id} and key regeneration: src/http/routes/bots.ts.

  router.get("/bots", async (ctx) => {
    const bots = await users.botsOf(ctx.state.user);
    ctx.body = success({ bots: bots.map(presentBot) });
  });

  router.get("/realm/profile_fields", async (ctx) => {
    const fields = await users.profileFields();
    ctx.body = success({
      custom_fields: fields.map(profileFieldWire),
    });
  });

  router.post("/realm/profile_fields", async (ctx) => {
    const args = parseArgs(ctx.state.params, {
      name: str,
      hint: optional(str, ""),
      field_type: int,
      field_data: optional(str, ""),
    });
    const id = await services.profileFields.create(ctx.state.user, {
      name: args.name,
      hint: args.hint,
      fieldType: args.field_type,
      fieldData: args.field_data,
    });
    ctx.body = success({ id });
  });

  // Reordering: `order` lists every field's id once.
  router.patch("/realm/profile_fields", async (ctx) => {
    const args = parseArgs(ctx.state.params, { order: jsonList(checkInt) });
    await services.profileFields.reorder(ctx.state.user, args.order);
    ctx.body = success();
  });

  router.patch("/realm/profile_fields/:field_id", async (ctx) => {
    const args = parseArgs(ctx.state.params, {
      name: optional(str),
      hint: optional(str),
      field_data: optional(str),
    });
    await services.profileFields.update(ctx.state.user, int(ctx.params["field_id"] ?? "", "field_id"), {
      name: args.name,
      hint: args.hint,
      fieldData: args.field_data,
    });
    ctx.body = success();
  });

  router.delete("/realm/profile_fields/:field_id", async (ctx) => {
    await services.profileFields.remove(ctx.state.user, int(ctx.params["field_id"] ?? "", "field_id"));
    ctx.body = success();
  });

  router.patch("/users/me/profile_data", async (ctx) => {
    const args = parseArgs(ctx.state.params, { data: jsonList(checkDict) });
    const data = args.data.map((item, i) => {
      const value = checkUnion(checkString, checkInt)(item["value"], `data[${i}]["value"]`);
      return { id: checkInt(item["id"], `data[${i}]["id"]`), value: String(value) };
    });
    await users.updateProfileData(ctx.state.user, data);
    ctx.body = success();
  });

  return router;
}
