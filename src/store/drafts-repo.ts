import type { Queryable } from "./db.js";

/** A stored draft (migration 025). */
export interface DraftRow {
  id: number;
  userId: number;
  type: "" | "stream" | "private";
  /** The ids shown as `to`: `[stream id]`, the other users of a direct message, or none. */
  to: number[];
  topic: string;
  content: string;
  /** Seconds. */
  lastEditTime: number;
}

interface Row {
  id: number;
  user_id: number;
  type: string;
  recipients: string;
  topic: string;
  content: string;
  last_edit_time: number;
}

const COLUMNS = "id, user_id, type, recipients, topic, content, last_edit_time";

const fromRow = (r: Row): DraftRow => ({
  id: Number(r.id),
  userId: Number(r.user_id),
  type: r.type as DraftRow["type"],
  to: JSON.parse(r.recipients) as number[],
  topic: r.topic,
  content: r.content,
  lastEditTime: Number(r.last_edit_time),
});

/** The `drafts` table. */
export class DraftsRepo {
  constructor(private readonly db: Queryable) {}

  /** The user's drafts, most recently edited first. */
  async ofUser(userId: number): Promise<DraftRow[]> {
    const rows = await this.db.all<Row>(
      `SELECT ${COLUMNS} FROM drafts WHERE user_id = ? ORDER BY last_edit_time DESC, id DESC`,
      [userId],
    );
    return rows.map(fromRow);
  }

  async byId(userId: number, id: number): Promise<DraftRow | undefined> {
    const r = await this.db.get<Row>(`SELECT ${COLUMNS} FROM drafts WHERE id = ? AND user_id = ?`, [
      id,
      userId,
    ]);
    return r === undefined ? undefined : fromRow(r);
  }

  async insert(d: Omit<DraftRow, "id">): Promise<DraftRow> {
    const r = await this.db.get<Row>(
      `INSERT INTO drafts (user_id, type, recipients, topic, content, last_edit_time) VALUES (?, ?, ?, ?, ?, ?)
       RETURNING ${COLUMNS}`,
      [d.userId, d.type, JSON.stringify(d.to), d.topic, d.content, d.lastEditTime],
    );
    return fromRow(r!);
  }

  async update(d: DraftRow): Promise<void> {
    await this.db.run(
      "UPDATE drafts SET type = ?, recipients = ?, topic = ?, content = ?, last_edit_time = ? WHERE id = ? AND user_id = ?",
      [d.type, JSON.stringify(d.to), d.topic, d.content, d.lastEditTime, d.id, d.userId],
    );
  }

  async delete(userId: number, id: number): Promise<boolean> {
    return (await this.db.run("DELETE FROM drafts WHERE id = ? AND user_id = ?", [id, userId])).changes > 0;
  }
}
