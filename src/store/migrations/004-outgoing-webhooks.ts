import type { Migration } from "./types.js";

/**
 * Deliveries of outgoing webhooks and embedded-bot runs: one row per (message, bot service),
 * written right after the message commits and before anything is sent, so a crash loses nothing.
 *
 * - `payload`: JSON `{trigger, message}` (the message as the bot sees it, frozen at send time).
 * - `status`: `pending` (due at `next_attempt_at_ms`), or `failed` (gave up; kept for inspection).
 *   A delivered job is deleted.
 * - Claiming a job moves `next_attempt_at_ms` past the request timeout (a lease): if the process
 *   dies mid-request the job becomes due again and is resumed at the next start.
 */
export const outgoingWebhooks: Migration = {
  id: "004-outgoing-webhooks",
  up: (t) => `
CREATE TABLE outgoing_webhook_jobs (
  id ${t.id},
  bot_id ${t.bigint} NOT NULL REFERENCES users(id),
  service_id ${t.bigint} NOT NULL REFERENCES bot_services(id),
  message_id ${t.bigint} NOT NULL,
  payload TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'pending',
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at_ms ${t.bigint} NOT NULL,
  last_error TEXT,
  created_at_ms ${t.bigint} NOT NULL,
  finished_at_ms ${t.bigint}
);
CREATE INDEX outgoing_webhook_jobs_due ON outgoing_webhook_jobs(status, next_attempt_at_ms)`,
};
