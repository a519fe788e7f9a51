import type { Queryable } from "./db.js";

/** A stored saved snippet (migration 095). */
export interface SavedSnippetRow {
  id: number;
  userId: number;
  title: string;
  content: string;
  /** Seconds. */
  dateCreated: number;
}

interface Row {
  id: number;
  user_id: number;
  title: string;
  content: string;
  date_created: number;
}

const COLUMNS = "id, user_id, title, content, date_created";

const fromRow = (r: Row): SavedSnippetRow => ({
  id: Number(r.id),
  userId: Number(r.user_id),
  title: r.title,
  content: r.content,
  dateCreated: Number(r.date_created),
});

/** The `saved_snippets` table. */
export class SavedSnippetsRepo {
  constructor(private readonly db: Queryable) {}

  /** The user's snippets, oldest first. */
  async ofUser(userId: number): Promise<SavedSnippetRow[]> {
    const rows = await this.db.all<Row>(
      `SELECT ${COLUMNS} FROM saved_snippets WHERE user_id = ? ORDER BY id`,
      [userId],
    );
    return rows.map(fromRow);
  }

  async byId(userId: number, id: number): Promise<SavedSnippetRow | undefined> {
    const r = await this.db.get<Row>(`SELECT ${COLUMNS} FROM saved_snippets WHERE id = ? AND user_id = ?`, [
      id,
      userId,
    ]);
    return r === undefined ? undefined : fromRow(r);
  }

  async insert(s: Omit<SavedSnippetRow, "id">): Promise<SavedSnippetRow> {
    const r = await this.db.get<Row>(
      `INSERT INTO saved_snippets (user_id, title, content, date_created) VALUES (?, ?, ?, ?) RETURNING ${COLUMNS}`,
      [s.userId, s.title, s.content, s.dateCreated],
    );
    return fromRow(r!);
  }

  async update(s: SavedSnippetRow): Promise<void> {
    await this.db.run("UPDATE saved_snippets SET title = ?, content = ? WHERE id = ? AND user_id = ?", [
      s.title,
      s.content,
      s.id,
      s.userId,
    ]);
  }

  async delete(userId: number, id: number): Promise<boolean> {
    return (
      (await this.db.run("DELETE FROM saved_snippets WHERE id = ? AND user_id = ?", [id, userId])).changes > 0
    );
  }
}
