import type { Migration } from "./types.js";

/**
 * The delivery log (docs/integration-operations.md): one row per incoming or outgoing webhook
 * request of a bot, already redacted, with its answer and outcome; `replay_of` points a replay
 * to the entry it re-ran. Pruned by count per bot and by age.
 */
export const webhookDeliveries: Migration = {
  id: "020-webhook-deliveries",
  up: (t) => `
CREATE TABLE webhook_deliveries (
  id ${t.id},
  bot_id ${t.bigint} NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_ms ${t.bigint} NOT NULL,
  direction TEXT NOT NULL,
  integration TEXT NOT NULL,
  event TEXT,
  method TEXT NOT NULL,
  url TEXT NOT NULL,
  request_headers TEXT NOT NULL,
  request_body TEXT NOT NULL,
  request_form TEXT,
  body_truncated INTEGER NOT NULL DEFAULT 0,
  response_status INTEGER,
  response_body TEXT,
  outcome TEXT NOT NULL,
  message_ids TEXT NOT NULL DEFAULT '[]',
  attempts INTEGER NOT NULL DEFAULT 1,
  error TEXT,
  replay_of ${t.bigint}
);
CREATE INDEX webhook_deliveries_bot_id ON webhook_deliveries (bot_id, id);
CREATE INDEX webhook_deliveries_created ON webhook_deliveries (created_ms)`,
};
