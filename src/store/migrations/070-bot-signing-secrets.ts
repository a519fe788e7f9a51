import type { Migration } from "./types.js";

/**
 * Per-bot Standard Webhooks signing secrets (`whsec_…`) for outgoing webhooks. A bot has one current
 * secret (`retires_at` NULL) and, during a rotation, old ones valid until `retires_at` (ms); every
 * secret still valid signs each request, so a receiver holding either accepts it.
 */
export const botSigningSecrets: Migration = {
  id: "070-bot-signing-secrets",
  up: (t) => `
CREATE TABLE bot_signing_secrets (
  id ${t.id},
  bot_id ${t.bigint} NOT NULL REFERENCES users(id),
  secret TEXT NOT NULL,
  created_at ${t.bigint} NOT NULL,
  retires_at ${t.bigint}
);
CREATE INDEX bot_signing_secrets_bot ON bot_signing_secrets (bot_id, created_at)`,
};
