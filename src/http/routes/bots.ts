import Router from "@koa/router";
import { JsonableError } from "../../errors.js";
import type { Services } from "../../services.js";
import { botAvatarUrl } from "../../domain/users/bot-lifecycle.js";
import type { BotChanges } from "../../domain/users/bot-lifecycle.js";
import { bool, checkString, int, jsonDict, optional, parseArgs, str } from "../params.js";
import type { Parser } from "../params.js";
import type { AppState } from "../state.js";
import { success } from "../state.js";

/** A string sent raw or JSON-encoded (Zulip takes `service_payload_url` as Json[str]). */
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

function idParam(raw: string | undefined, notFound: string): number {
  const id = Number(raw);
  if (raw === undefined || !/^\d+$/.test(raw) || !Number.isSafeInteger(id)) throw new JsonableError(notFound);
  return id;
}

/** The bot lifecycle: edit, deactivate, reactivate, regenerate keys (Zulip's endpoints and answers). */
export function botsRouter(
  services: Pick<Services, "botLifecycle" | "credentialRotation">,
): Router<AppState> {
  const { botLifecycle } = services;
  const router = new Router<AppState>({ prefix: "/api/v1" });

  router.patch("/bots/:bot_id", async (ctx) => {
    const botId = idParam(ctx.params["bot_id"], "No such bot");
    const args = parseArgs(ctx.state.params, {
      full_name: optional(str),
      bot_owner_id: optional(int),
      service_payload_url: optional(looseString),
      service_interface: optional(int),
      config_data: optional(jsonDict),
      default_sending_stream: optional(str),
      default_events_register_stream: optional(str),
      default_all_public_streams: optional(bool),
    });
    const configData: Record<string, string> | undefined =
      args.config_data === undefined
        ? undefined
        : Object.fromEntries(
            Object.entries(args.config_data).map(([k, v]) => [k, checkString(v, `config_data["${k}"]`)]),
          );
    const changes: BotChanges = {
      ...(args.full_name === undefined ? {} : { fullName: args.full_name }),
      ...(args.bot_owner_id === undefined ? {} : { ownerId: args.bot_owner_id }),
      ...(args.service_payload_url === undefined ? {} : { serviceUrl: args.service_payload_url }),
      ...(args.service_interface === undefined ? {} : { serviceInterface: args.service_interface }),
      ...(configData === undefined ? {} : { configData }),
      ...(args.default_sending_stream === undefined
        ? {}
        : { defaultSendingStream: args.default_sending_stream }),
      ...(args.default_events_register_stream === undefined
        ? {}
        : { defaultEventsRegisterStream: args.default_events_register_stream }),
      ...(args.default_all_public_streams === undefined
        ? {}
        : { defaultAllPublicStreams: args.default_all_public_streams }),
    };
    const edited = await botLifecycle.edit(ctx.state.user, botId, changes);
    ctx.body = success({
      full_name: edited.bot.fullName,
      avatar_url: botAvatarUrl(edited.bot),
      service_interface: edited.serviceInterface ?? null,
      service_payload_url: edited.serviceUrl ?? null,
      config_data: edited.configData ?? null,
      default_sending_stream: edited.bot.defaultSendingStream,
      default_events_register_stream: edited.bot.defaultEventsRegisterStream,
      default_all_public_streams: edited.bot.defaultAllPublicStreams,
      ...(edited.ownerEmail === undefined ? {} : { bot_owner: edited.ownerEmail }),
    });
  });

  router.delete("/bots/:bot_id", async (ctx) => {
    await botLifecycle.deactivate(ctx.state.user, idParam(ctx.params["bot_id"], "No such bot"));
    ctx.body = success();
  });

  router.post("/bots/:bot_id/api_key/regenerate", async (ctx) => {
    const botId = idParam(ctx.params["bot_id"], "No such bot");
    const key = await botLifecycle.regenerateBotKey(ctx.state.user, botId);
    // Immediate, as in Zulip: no old key stays valid, not even one in a rotation's overlap.
    await services.credentialRotation.retireOldOf(botId, "api_key");
    ctx.body = success({ api_key: key });
  });

  router.post("/users/me/api_key/regenerate", async (ctx) => {
    ctx.body = success({ api_key: await botLifecycle.regenerateOwnKey(ctx.state.user) });
  });

  router.post("/users/:user_id/reactivate", async (ctx) => {
    await botLifecycle.reactivate(ctx.state.user, idParam(ctx.params["user_id"], "No such user"));
    ctx.body = success();
  });

  return router;
}
