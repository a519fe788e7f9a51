import type { Migration } from "./types.js";

/**
 * Rotation with an overlap for a bot's API key and its outgoing-webhook token
 * (docs/integration-operations.md, "Rotating a bot's API key or token with an overlap").
 *
 * - `bot_old_credentials`: one row per credential a rotation replaced, valid until `retires_at`
 *   (ms; NULL: until the owner retires it). An old API key (`kind` `api_key`) is kept only as its
 *   lookup id (`key_hash`, SHA-256 hex as `users.api_key_hash`): it is only ever compared. An old
 *   token (`kind` `token`, per bot service) is kept as the service's current one is, since the
 *   server sends it during the overlap.
 * - `webhook_deliveries.old_credential`: which old credential a logged request used (`api_key`,
 *   `token`; NULL: none).
 */
export const botCredentialOverlap: Migration = {
  id: "100-bot-credential-overlap",
  up: (t) => `
CREATE TABLE bot_old_credentials (
  id ${t.id},
  bot_id ${t.bigint} NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  service_id ${t.bigint} REFERENCES bot_services(id) ON DELETE CASCADE,
  key_hash TEXT,
  token TEXT,
  created_at ${t.bigint} NOT NULL,
  retires_at ${t.bigint}
);
CREATE INDEX bot_old_credentials_bot ON bot_old_credentials (bot_id, kind);
CREATE INDEX bot_old_credentials_key_hash ON bot_old_credentials (key_hash);
ALTER TABLE webhook_deliveries ADD COLUMN old_credential TEXT`,
};
