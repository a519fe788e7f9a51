import type { Queryable } from "./db.js";

/** Alert words and muted users (migration 017). */
export class PersonalListsRepo {
  constructor(private readonly db: Queryable) {}

  /** The user's alert words, in the order they were added. */
  async alertWords(userId: number): Promise<string[]> {
    const rows = await this.db.all<{ word: string }>(
      "SELECT word FROM alert_words WHERE user_id = ? ORDER BY id",
      [userId],
    );
    return rows.map((r) => r.word);
  }

  /** Every user's alert words, by user id (in the order they were added). */
  async allAlertWords(): Promise<Map<number, string[]>> {
    const out = new Map<number, string[]>();
    const rows = await this.db.all<{ user_id: number; word: string }>(
      "SELECT user_id, word FROM alert_words ORDER BY id",
    );
    for (const r of rows) {
      const id = Number(r.user_id);
      const list = out.get(id);
      if (list === undefined) out.set(id, [r.word]);
      else list.push(r.word);
    }
    return out;
  }

  /**
   * Adds `word` unless the user has `limit` words already: the count is checked by the statement
   * itself, so requests made at the same time cannot take the user far past the limit.
   */
  async addAlertWord(userId: number, word: string, limit: number): Promise<void> {
    await this.db.run(
      `INSERT INTO alert_words (user_id, word)
       SELECT ?, ? WHERE (SELECT COUNT(*) FROM alert_words WHERE user_id = ?) < ?`,
      [userId, word, userId, limit],
    );
  }

  async removeAlertWord(userId: number, word: string): Promise<void> {
    await this.db.run("DELETE FROM alert_words WHERE user_id = ? AND word = ?", [userId, word]);
  }

  async mutedUsers(userId: number): Promise<{ id: number; timestamp: number }[]> {
    const rows = await this.db.all<{ muted_user_id: number; date_muted: number }>(
      "SELECT muted_user_id, date_muted FROM muted_users WHERE user_id = ? ORDER BY date_muted, muted_user_id",
      [userId],
    );
    return rows.map((r) => ({ id: Number(r.muted_user_id), timestamp: Number(r.date_muted) }));
  }

  /** Mutes `mutedUserId`; muted already (by a request at the same time), it stays as it was. */
  async mute(userId: number, mutedUserId: number, at: number): Promise<void> {
    await this.db.run(
      "INSERT INTO muted_users (user_id, muted_user_id, date_muted) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
      [userId, mutedUserId, at],
    );
  }

  async unmute(userId: number, mutedUserId: number): Promise<void> {
    await this.db.run("DELETE FROM muted_users WHERE user_id = ? AND muted_user_id = ?", [
      userId,
      mutedUserId,
    ]);
  }
}
