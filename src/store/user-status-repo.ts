import type { Queryable } from "./db.js";
import { sqlBool } from "./db.js";

export interface UserStatusRow {
  userId: number;
  statusText: string;
  emojiName: string;
  emojiCode: string;
  reactionType: string;
  away: boolean;
}

interface Row {
  user_id: number;
  status_text: string;
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
  away: number;
}

const fromRow = (r: Row): UserStatusRow => ({
  userId: Number(r.user_id),
  statusText: r.status_text,
  emojiName: r.emoji_name,
  emojiCode: r.emoji_code,
  reactionType: r.reaction_type,
  away: Number(r.away) !== 0,
});

/** The `user_status` table (migration 015). */
export class UserStatusRepo {
  constructor(private readonly db: Queryable) {}

  async all(): Promise<UserStatusRow[]> {
    const rows = await this.db.all<Row>(
      "SELECT user_id, status_text, emoji_name, emoji_code, reaction_type, away FROM user_status ORDER BY user_id",
    );
    return rows.map(fromRow);
  }

  async of(userId: number): Promise<UserStatusRow | undefined> {
    const row = await this.db.get<Row>(
      "SELECT user_id, status_text, emoji_name, emoji_code, reaction_type, away FROM user_status WHERE user_id = ?",
      [userId],
    );
    return row === undefined ? undefined : fromRow(row);
  }

  /** Writes the row, or deletes it when it holds nothing. */
  async save(s: UserStatusRow, updated: number): Promise<void> {
    if (s.statusText === "" && s.emojiName === "" && !s.away) {
      await this.db.run("DELETE FROM user_status WHERE user_id = ?", [s.userId]);
      return;
    }
    // One statement: two saves at once (two clients) each leave a whole row, the later one's.
    await this.db.run(
      `INSERT INTO user_status (user_id, status_text, emoji_name, emoji_code, reaction_type, away, updated)
       VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (user_id) DO UPDATE SET status_text = excluded.status_text, emoji_name = excluded.emoji_name,
         emoji_code = excluded.emoji_code, reaction_type = excluded.reaction_type, away = excluded.away,
         updated = excluded.updated`,
      [s.userId, s.statusText, s.emojiName, s.emojiCode, s.reactionType, sqlBool(s.away), updated],
    );
  }
}
