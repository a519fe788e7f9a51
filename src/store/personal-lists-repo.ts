import type { Queryable } from "./db.js";
import { placeholders } from "./db.js";

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

  /** Every alert word of the given users, by user id. */
  async alertWordsOf(userIds: readonly number[]): Promise<Map<number, string[]>> {
    const out = new Map<number, string[]>();
    if (userIds.length === 0) return out;
    // A large stream's recipients: the (few) users with alert words, filtered here, cost less than
    // binding thousands of parameters.
    const large = userIds.length > 1000;
    const rows = await this.db.all<{ user_id: number; word: string }>(
      large
        ? "SELECT user_id, word FROM alert_words ORDER BY id"
        : `SELECT user_id, word FROM alert_words WHERE user_id IN (${placeholders(userIds.length)}) ORDER BY id`,
      large ? [] : [...userIds],
    );
    const wanted = large && rows.length > 0 ? new Set(userIds) : undefined;
    for (const r of rows) {
      if (wanted !== undefined && !wanted.has(Number(r.user_id))) continue;
      const list = out.get(Number(r.user_id)) ?? [];
      list.push(r.word);
      out.set(Number(r.user_id), list);
    }
    return out;
  }

  async addAlertWord(userId: number, word: string): Promise<void> {
    await this.db.run("INSERT INTO alert_words (user_id, word) VALUES (?, ?)", [userId, word]);
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

  async mute(userId: number, mutedUserId: number, at: number): Promise<void> {
    await this.db.run("INSERT INTO muted_users (user_id, muted_user_id, date_muted) VALUES (?, ?, ?)", [
      userId,
      mutedUserId,
      at,
    ]);
  }

  async unmute(userId: number, mutedUserId: number): Promise<void> {
    await this.db.run("DELETE FROM muted_users WHERE user_id = ? AND muted_user_id = ?", [
      userId,
      mutedUserId,
    ]);
  }
}
