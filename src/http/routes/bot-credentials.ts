import Router from "@koa/router";
import { JsonableError } from "../../errors.js";
import type { Services } from "../../services.js";
import type { BotCredentials, OldCredentialRow } from "../../domain/users/credential-rotation.js";
import { int, optional, parseArgs } from "../params.js";
import type { AppState } from "../state.js";
import { success } from "../state.js";

function botIdParam(raw: string | undefined): number {
  const id = Number(raw);
  if (raw === undefined || !/^\d+$/.test(raw) || !Number.isSafeInteger(id))
    throw new JsonableError("No such bot");
  return id;
}

function seconds(ms: number | null): number | null {
  return ms === null ? null : Math.floor(ms / 1000);
}

/** An old credential as the API shows it (an old API key itself is never kept, so never shown). */
function presentOld(r: OldCredentialRow): Record<string, unknown> {
  return {
    ...(r.token === null ? {} : { token: r.token }),
    rotated_at: seconds(r.createdAt),
    retires_at: seconds(r.retiresAt),
  };
}

function present(c: BotCredentials): Record<string, unknown> {
  return {
    api_key: c.apiKey,
    old_api_keys: c.oldApiKeys.map(presentOld),
    token: c.token,
    old_tokens: c.oldTokens.map(presentOld),
  };
}

/**
 * Rotation with an overlap of a bot's API key and outgoing-webhook token
 * (docs/integration-operations.md): list, rotate (`overlap_until`: Unix seconds; absent: until
 * retired), retire the old ones now. The bot's owner and administrators only (as for its API key).
 */
export function botCredentialsRouter(services: Pick<Services, "credentialRotation">): Router<AppState> {
  const { credentialRotation } = services;
  const router = new Router<AppState>({ prefix: "/api/v1" });

  const overlapUntil = (params: AppState["params"]): number | null => {
    const args = parseArgs(params, { overlap_until: optional(int) });
    return args.overlap_until === undefined ? null : args.overlap_until * 1000;
  };

  router.get("/bots/:bot_id/credentials", async (ctx) => {
    const id = botIdParam(ctx.params["bot_id"]);
    ctx.body = success(present(await credentialRotation.list(ctx.state.user, id)));
  });

  router.post("/bots/:bot_id/api_key/rotate", async (ctx) => {
    const id = botIdParam(ctx.params["bot_id"]);
    const until = overlapUntil(ctx.state.params);
    ctx.body = success(present(await credentialRotation.rotateApiKey(ctx.state.user, id, until)));
  });

  router.post("/bots/:bot_id/api_key/retire_old", async (ctx) => {
    const id = botIdParam(ctx.params["bot_id"]);
    ctx.body = success(present(await credentialRotation.retireOld(ctx.state.user, id, "api_key")));
  });

  router.post("/bots/:bot_id/token/rotate", async (ctx) => {
    const id = botIdParam(ctx.params["bot_id"]);
    const until = overlapUntil(ctx.state.params);
    ctx.body = success(present(await credentialRotation.rotateToken(ctx.state.user, id, until)));
  });

  router.post("/bots/:bot_id/token/retire_old", async (ctx) => {
    const id = botIdParam(ctx.params["bot_id"]);
    ctx.body = success(present(await credentialRotation.retireOld(ctx.state.user, id, "token")));
  });

  return router;
}
