import type { Migration } from "./types.js";

/**
 * The ids of signed incoming deliveries already received (GitHub's `X-GitHub-Delivery`, Stripe's
 * event id, `webhook-id`, …), per bot and integration, so that a repeat within the window is
 * answered with success and posts nothing (src/domain/webhooks/seen-deliveries.ts). Rows older
 * than the window are deleted as new ones come in.
 */
export const seenDeliveries: Migration = {
  id: "065-seen-deliveries",
  up: (t) => `
CREATE TABLE seen_deliveries (
  bot_id ${t.bigint} NOT NULL,
  integration TEXT NOT NULL,
  delivery_id TEXT NOT NULL,
  seen_at ${t.bigint} NOT NULL,
  PRIMARY KEY (bot_id, integration, delivery_id)
);
CREATE INDEX seen_deliveries_seen_at ON seen_deliveries (seen_at)`,
};
