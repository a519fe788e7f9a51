import Router from "@koa/router";
import { JsonableError } from "../../errors.js";
import type { Services } from "../../services.js";
import { SIGNING_ALGORITHMS } from "../../domain/outgoing/signing-secrets.js";
import type { SigningSecretRow } from "../../domain/outgoing/signing-secrets.js";
import { ED25519_SECRET_PREFIX, ed25519PublicKeyOf } from "../../lib/standard-webhooks.js";
import { int, oneOf, optional, parseArgs } from "../params.js";
import type { AppState } from "../state.js";
import { success } from "../state.js";

function botIdParam(raw: string | undefined): number {
  const id = Number(raw);
  if (raw === undefined || !/^\d+$/.test(raw) || !Number.isSafeInteger(id))
    throw new JsonableError("No such bot");
  return id;
}

/**
 * A secret as the API shows it: `retires_at` in Unix seconds, null for the current one. An Ed25519
 * key shows only its `whpk_` public key: the secret key never leaves the server.
 */
function present(rows: SigningSecretRow[]): Record<string, string | number | null>[] {
  return rows.map((r) => ({
    ...(r.secret.startsWith(ED25519_SECRET_PREFIX)
      ? { public_key: ed25519PublicKeyOf(r.secret) }
      : { secret: r.secret }),
    created_at: Math.floor(r.createdAt / 1000),
    retires_at: r.retiresAt === null ? null : Math.floor(r.retiresAt / 1000),
  }));
}

/**
 * A bot's Standard Webhooks signing secrets (docs/integration-operations.md): list, rotate with an
 * overlap, retire the old ones. The bot's owner and administrators only (as for its API key).
 */
export function botSigningRouter(
  services: Pick<Services, "botLifecycle" | "clock" | "signingSecrets">,
): Router<AppState> {
  const { botLifecycle, signingSecrets } = services;
  const router = new Router<AppState>({ prefix: "/api/v1" });

  router.get("/bots/:bot_id/signing_secrets", async (ctx) => {
    const bot = await botLifecycle.accessBot(ctx.state.user, botIdParam(ctx.params["bot_id"]));
    ctx.body = success({ signing_secrets: present(await signingSecrets.secrets(bot.id)) });
  });

  router.post("/bots/:bot_id/signing_secrets/rotate", async (ctx) => {
    const bot = await botLifecycle.accessBot(ctx.state.user, botIdParam(ctx.params["bot_id"]));
    // overlap_until: Unix seconds until which the old secret stays valid (default: 24 hours).
    // algorithm: hmac-sha256 (v1, a whsec_ secret) or ed25519 (v1a, a whpk_ public key); default: as now.
    const args = parseArgs(ctx.state.params, {
      overlap_until: optional(int),
      algorithm: optional(oneOf(SIGNING_ALGORITHMS)),
    });
    const until =
      args.overlap_until === undefined ? services.clock.now() + 24 * 3600_000 : args.overlap_until * 1000;
    ctx.body = success({
      signing_secrets: present(await signingSecrets.rotate(bot.id, until, args.algorithm)),
    });
  });

  router.post("/bots/:bot_id/signing_secrets/retire_old", async (ctx) => {
    const bot = await botLifecycle.accessBot(ctx.state.user, botIdParam(ctx.params["bot_id"]));
    ctx.body = success({ signing_secrets: present(await signingSecrets.retireOld(bot.id)) });
  });

  return router;
}
