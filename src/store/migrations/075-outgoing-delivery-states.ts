import type { Migration } from "./types.js";

/**
 * Outgoing delivery that backs off, parks and tells the owner (docs/integration-operations.md,
 * "Outgoing delivery: retries, circuit breaker, dead letters").
 *
 * - `outgoing_webhook_jobs.status` gains `dead`: the last attempt failed (or the endpoint was
 *   gone or disabled); kept until replayed. `dead_notified_at_ms`: when the owner's summary that
 *   names it was sent (NULL: not yet; one summary per bot covers every dead job of its window).
 * - `outgoing_endpoints`: one row per bot service that has failed: consecutive failures, since when
 *   it fails, until when its circuit stays shut to everything but a probe, and whether (and why) it is
 *   disabled. A success deletes nothing but resets the counters; re-enabling clears the row.
 */
export const outgoingDeliveryStates: Migration = {
  id: "075-outgoing-delivery-states",
  up: (t) => `
ALTER TABLE outgoing_webhook_jobs ADD COLUMN dead_notified_at_ms ${t.bigint};
CREATE INDEX outgoing_webhook_jobs_bot_status ON outgoing_webhook_jobs(bot_id, status, id);
CREATE TABLE outgoing_endpoints (
  service_id ${t.bigint} PRIMARY KEY REFERENCES bot_services(id) ON DELETE CASCADE,
  bot_id ${t.bigint} NOT NULL REFERENCES users(id),
  consecutive_failures INTEGER NOT NULL DEFAULT 0,
  failing_since_ms ${t.bigint},
  probe_at_ms ${t.bigint} NOT NULL DEFAULT 0,
  last_error TEXT,
  disabled_at_ms ${t.bigint},
  disabled_reason TEXT
)`,
};
