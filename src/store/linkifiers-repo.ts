import type { Queryable } from "./db.js";

export interface LinkifierRow {
  id: number;
  pattern: string;
  urlTemplate: string;
}

/** The `linkifiers` table (migration 018). */
export class LinkifiersRepo {
  constructor(private readonly db: Queryable) {}

  async all(): Promise<LinkifierRow[]> {
    const rows = await this.db.all<{ id: number; pattern: string; url_template: string }>(
      "SELECT id, pattern, url_template FROM linkifiers ORDER BY id",
    );
    return rows.map((r) => ({ id: Number(r.id), pattern: r.pattern, urlTemplate: r.url_template }));
  }

  /** The new linkifier's id, or undefined when one with this pattern exists. */
  async insert(pattern: string, urlTemplate: string): Promise<number | undefined> {
    const row = await this.db.get<{ id: number }>(
      "INSERT INTO linkifiers (pattern, url_template) VALUES (?, ?) ON CONFLICT (pattern) DO NOTHING RETURNING id",
      [pattern, urlTemplate],
    );
    return row === undefined ? undefined : Number(row.id);
  }

  async update(id: number, pattern: string, urlTemplate: string): Promise<number> {
    const r = await this.db.run("UPDATE linkifiers SET pattern = ?, url_template = ? WHERE id = ?", [
      pattern,
      urlTemplate,
      id,
    ]);
    return r.changes;
  }

  async delete(id: number): Promise<number> {
    return (await this.db.run("DELETE FROM linkifiers WHERE id = ?", [id])).changes;
  }
}
