/**
 * Checking that an outgoing webhook came from our chat server, for a bot that receives webhooks
 * itself (the bot server does this for its bots): the Standard Webhooks headers, verified by the
 * project's one implementation (src/lib/standard-webhooks.ts).
 */
import { WebhookVerificationError, verify } from "../../src/lib/standard-webhooks.js";
import type { VerificationFailure, VerifyOptions } from "../../src/lib/standard-webhooks.js";

/**
 * Whether a webhook's raw body and headers carry a valid, fresh signature by one of `secrets` (the
 * bot's `whsec_` signing secrets for `v1` HMAC signatures, and/or `whpk_` public keys for `v1a`
 * Ed25519 ones; several during a rotation). "ok", or why not.
 */
export function checkWebhookSignature(
  secrets: readonly string[],
  headers: Record<string, string | string[] | undefined>,
  rawBody: string | Buffer,
  options: VerifyOptions = {},
): "ok" | VerificationFailure {
  try {
    verify(secrets, headers, rawBody, options);
    return "ok";
  } catch (err) {
    if (err instanceof WebhookVerificationError) return err.code;
    throw err;
  }
}
