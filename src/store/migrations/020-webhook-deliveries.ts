import type { Ddl, Migration } from "./types.js";

/**
 * The delivery log (docs/integration-operations.md): one row per incoming or outgoing webhook
 * request of a bot, already redacted, with its answer and outcome; `replay_of` points a replay
 * to the entry it re-ran. Pruned by count per bot and by age.
 */
/**
 * The table and its indexes; also the schema of the delivery log's own SQLite file
 * (store/deliveries-db.ts), there without the foreign key (the users are in the main file).
 */
export function webhookDeliveriesSchema(t: Ddl, o: { botForeignKey: boolean; ifNotExists: boolean }): string {
  const ine = o.ifNotExists ? "IF NOT EXISTS " : "";
  return `
CREATE TABLE ${ine}webhook_deliveries (
  id ${t.id},
  bot_id ${t.bigint} NOT NULL${o.botForeignKey ? " REFERENCES users(id) ON DELETE CASCADE" : ""},
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
CREATE INDEX ${ine}webhook_deliveries_bot_id ON webhook_deliveries (bot_id, id);
CREATE INDEX ${ine}webhook_deliveries_created ON webhook_deliveries (created_ms)`;
}

export const webhookDeliveries: Migration = {
  id: "020-webhook-deliveries",
  up: (t) => webhookDeliveriesSchema(t, { botForeignKey: true, ifNotExists: false }),
};
