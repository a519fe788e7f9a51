import type { Queryable } from "./db.js";

/** One delivery of one integration to one bot. */
export interface DeliveryKey {
  botId: number;
  integration: string;
  deliveryId: string;
}

/** The `seen_deliveries` table (migration 065). */
export class SeenDeliveriesRepo {
  constructor(private readonly db: Queryable) {}

  /**
   * Records the delivery as seen at `nowMs` unless it was seen after `sinceMs`; true when
   * this call recorded it (the first time within the window), false for a repeat. One statement
   * for the check and the write: of two identical requests at once, one claims it.
   */
  async claim(key: DeliveryKey, nowMs: number, sinceMs: number): Promise<boolean> {
    const result = await this.db.run(
      `INSERT INTO seen_deliveries (bot_id, integration, delivery_id, seen_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (bot_id, integration, delivery_id) DO UPDATE SET seen_at = excluded.seen_at
       WHERE seen_deliveries.seen_at <= ?`,
      [key.botId, key.integration, key.deliveryId, nowMs, sinceMs],
    );
    return result.changes > 0;
  }

  /** Forgets a claimed delivery (its processing failed: the sender's retry must go through). */
  async release(key: DeliveryKey, seenAtMs: number): Promise<void> {
    await this.db.run(
      "DELETE FROM seen_deliveries WHERE bot_id = ? AND integration = ? AND delivery_id = ? AND seen_at = ?",
      [key.botId, key.integration, key.deliveryId, seenAtMs],
    );
  }

  /** Deletes what was seen at or before `sinceMs`. */
  async prune(sinceMs: number): Promise<void> {
    await this.db.run("DELETE FROM seen_deliveries WHERE seen_at <= ?", [sinceMs]);
  }
}
