/**
 * The writes of `user_messages` rows and sparse messages' derived flags that sending, editing and
 * moving need (FlagsRepo, flags-repo.ts, has the reads and flag changes; the model is described
 * in narrow-sql.ts).
 */
import { jsonIdsIn } from "./db.js";
import type { Queryable } from "./db.js";
import { COVERED, DERIVED_READ, NOT_RECEIVED } from "./narrow-sql.js";

/** Rows `upsertRows` writes in one statement (a JSON list of about 200 KB). */
export const ROWS_PER_STATEMENT = 10_000;

/** Up to this many rows are inserted with a VALUES list (statements cached per count). */
const SMALL_INSERT = 16;

export class RecipientRowsRepo {
  constructor(private readonly db: Queryable) {}

  /** The highest message id (0 when none): bounds of subscription intervals and watermarks. */
  async maxId(): Promise<number> {
    const r = await this.db.get<{ m: number | null }>("SELECT MAX(id) AS m FROM messages");
    return r?.m == null ? 0 : Number(r.m);
  }

  /**
   * A new message's rows, in one statement: a VALUES list for a few, else one JSON parameter
   * ([[user_id, message_id, flags], …]) whatever the number (a constant SQL text, prepared once).
   */
  async insertUserMessages(messageId: number, rows: readonly { id: number; flags: number }[]): Promise<void> {
    if (rows.length === 0) return;
    if (rows.length > SMALL_INSERT) {
      await this.upsertRows(rows.map((r) => [r.id, messageId, r.flags]));
      return;
    }
    // A few rows (a bot's own copy, a private message's participants): plain VALUES, one cached
    // statement per count, instead of unpacking a JSON list.
    await this.db.run(
      `INSERT INTO user_messages (user_id, message_id, flags) VALUES ${new Array<string>(rows.length).fill("(?, ?, ?)").join(", ")}
       ON CONFLICT (user_id, message_id) DO UPDATE SET flags = excluded.flags`,
      rows.flatMap((r) => [r.id, messageId, r.flags]),
    );
  }

  /**
   * Writes rows [user_id, message_id, flags], ROWS_PER_STATEMENT a statement (one for most
   * writes; a move into a large stream writes millions). An existing row is replaced; with
   * `change`, only those bits of it change (`set` set, `clear` cleared) and its others stay as they
   * are when the statement runs: so a writer that read the flags earlier does not undo bits that
   * another transaction changed in between (an edit's mentions, the recipient's star); with
   * "received", only a row saying the user did not receive the message is replaced, and any other
   * stays as it is (one another transaction wrote since this writer looked).
   */
  async upsertRows(
    rows: readonly (readonly [number, number, number])[],
    change?: { set: number; clear: number } | "received",
  ): Promise<void> {
    if (rows.length === 0) return;
    let onConflict = "DO UPDATE SET flags = excluded.flags";
    if (change === "received") onConflict += ` WHERE (user_messages.flags & ${NOT_RECEIVED}) <> 0`;
    else if (change !== undefined) {
      onConflict = `DO UPDATE SET flags = (user_messages.flags & ~${Math.trunc(change.clear)}) | ${Math.trunc(change.set)}`;
    }
    const sql =
      this.db.dialect === "sqlite"
        ? `INSERT INTO user_messages (user_id, message_id, flags)
           SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]')
           FROM json_each(?) WHERE true
           ON CONFLICT (user_id, message_id) ${onConflict}`
        : `INSERT INTO user_messages (user_id, message_id, flags)
           SELECT (e->>0)::bigint, (e->>1)::bigint, (e->>2)::bigint FROM json_array_elements(?::json) AS e
           ON CONFLICT (user_id, message_id) ${onConflict}`;
    for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
      await this.db.run(sql, [JSON.stringify(rows.slice(start, start + ROWS_PER_STATEMENT))]);
    }
  }

  /**
   * A new sparse stream message's rows: `rows` (its exceptions) and a "not received" row for each
   * deactivated user still subscribed (driven by the partial index users_inactive).
   */
  async insertStreamMessageRows(
    messageId: number,
    streamId: number,
    rows: readonly { id: number; flags: number }[],
  ): Promise<void> {
    await this.insertUserMessages(messageId, rows);
    // CROSS JOIN: SQLite's way to drive from the (few) deactivated users.
    await this.db.run(
      `INSERT INTO user_messages (user_id, message_id, flags)
       SELECT u.id, ?, ${NOT_RECEIVED} FROM users u ${this.db.dialect === "sqlite" ? "CROSS JOIN" : "JOIN"} subscriptions s
         ON s.user_id = u.id AND s.stream_id = ?
       WHERE u.is_active = 0 AND s.active = 1 AND s.active_from <= ?
       ON CONFLICT (user_id, message_id) DO NOTHING`,
      [messageId, streamId, messageId],
    );
  }

  /** Sets or clears wildcard_mentioned in a sparse message's derived flags (an edit). */
  async setWildcardMentioned(messageId: number, on: boolean): Promise<void> {
    await this.db.run(
      `UPDATE messages SET recipient_flags = ${on ? "recipient_flags | 16" : "recipient_flags & ~16"}
       WHERE id = ? AND recipient_flags IS NOT NULL`,
      [messageId],
    );
  }

  /**
   * Gives sparse messages a row per recipient (before a move between streams, whose recipients do
   * not follow the new stream's intervals): each recipient's derived flags become a row.
   */
  async densify(ids: readonly number[]): Promise<void> {
    if (ids.length === 0) return;
    const json = JSON.stringify(ids);
    await this.db.run(
      `INSERT INTO user_messages (user_id, message_id, flags)
       SELECT sub.user_id, m.id, m.recipient_flags | ${DERIVED_READ}
       FROM messages m JOIN subscriptions sub ON sub.stream_id = m.stream_id
       WHERE m.id IN ${jsonIdsIn(this.db)} AND ${COVERED}
       ON CONFLICT (user_id, message_id) DO NOTHING`,
      [json],
    );
    await this.db.run(
      `DELETE FROM user_messages WHERE message_id IN ${jsonIdsIn(this.db)} AND (flags & ${NOT_RECEIVED}) <> 0`,
      [json],
    );
    await this.db.run(`UPDATE messages SET recipient_flags = NULL WHERE id IN ${jsonIdsIn(this.db)}`, [json]);
  }
}
