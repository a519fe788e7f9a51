import type { Queryable } from "./db.js";
import { jsonTextsIn } from "./db.js";

/** The bot_storage table (migration 001): one row per (bot, key). */
export class BotStorageRepo {
  constructor(private readonly db: Queryable) {}

  async all(botId: number): Promise<Map<string, string>> {
    const rows = await this.db.all<{ key: string; value: string }>(
      "SELECT key, value FROM bot_storage WHERE bot_id = ? ORDER BY key",
      [botId],
    );
    return new Map(rows.map((r) => [r.key, r.value]));
  }

  async some(botId: number, keys: readonly string[]): Promise<Map<string, string>> {
    if (keys.length === 0) return new Map();
    const rows = await this.db.all<{ key: string; value: string }>(
      `SELECT key, value FROM bot_storage WHERE bot_id = ? AND key IN ${jsonTextsIn(this.db)}`,
      [botId, JSON.stringify(keys)],
    );
    return new Map(rows.map((r) => [r.key, r.value]));
  }

  /** Characters used (keys plus values, counted in code points as Zulip does), all keys or some. */
  async size(botId: number, keys?: readonly string[]): Promise<number> {
    if (keys !== undefined && keys.length === 0) return 0;
    const filter = keys === undefined ? "" : ` AND key IN ${jsonTextsIn(this.db)}`;
    const row = await this.db.get<{ n: number | string | null }>(
      `SELECT SUM(LENGTH(key) + LENGTH(value)) AS n FROM bot_storage WHERE bot_id = ?${filter}`,
      keys === undefined ? [botId] : [botId, JSON.stringify(keys)],
    );
    return Number(row?.n ?? 0);
  }

  /** Upserts many entries, 10,000 a statement. */
  async putMany(botId: number, entries: readonly (readonly [string, string])[]): Promise<void> {
    const rows =
      this.db.dialect === "sqlite"
        ? "SELECT ?, json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?) WHERE true"
        : "SELECT ?, e->>0, e->>1 FROM json_array_elements(?::json) AS e";
    for (let start = 0; start < entries.length; start += 10_000) {
      await this.db.run(
        `INSERT INTO bot_storage (bot_id, key, value) ${rows}
         ON CONFLICT (bot_id, key) DO UPDATE SET value = excluded.value`,
        [botId, JSON.stringify(entries.slice(start, start + 10_000))],
      );
    }
  }

  async remove(botId: number, keys: readonly string[]): Promise<void> {
    if (keys.length === 0) return;
    await this.db.run(`DELETE FROM bot_storage WHERE bot_id = ? AND key IN ${jsonTextsIn(this.db)}`, [
      botId,
      JSON.stringify(keys),
    ]);
  }

  async removeAll(botId: number): Promise<void> {
    await this.db.run("DELETE FROM bot_storage WHERE bot_id = ?", [botId]);
  }
}
