import type { Queryable } from "./db.js";
import { placeholders } from "./db.js";

/** A pending reset: every queue of `userId` (null: every all_public_streams queue). */
export interface QueueReset {
  id: number;
  userId: number | null;
}

/** The `event_queue_resets` table (migration 040). */
export class QueueResetsRepo {
  constructor(private readonly db: Queryable) {}

  async add(userIds: readonly (number | null)[], nowMs: number): Promise<void> {
    if (userIds.length === 0) return;
    const values = userIds.map(() => "(?, ?)").join(", ");
    await this.db.run(
      `INSERT INTO event_queue_resets (user_id, created_at) VALUES ${values}`,
      userIds.flatMap((id) => [id, nowMs]),
    );
  }

  async pending(limit: number): Promise<QueueReset[]> {
    const rows = await this.db.all<{ id: number; user_id: number | null }>(
      "SELECT id, user_id FROM event_queue_resets ORDER BY id LIMIT ?",
      [limit],
    );
    return rows.map((r) => ({ id: Number(r.id), userId: r.user_id === null ? null : Number(r.user_id) }));
  }

  async remove(ids: readonly number[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db.run(`DELETE FROM event_queue_resets WHERE id IN (${placeholders(ids.length)})`, [...ids]);
  }
}
