import type { Queryable } from "./db.js";
import { placeholders } from "./db.js";

/** A custom emoji as stored (migration 023). */
export interface RealmEmojiRow {
  id: number;
  name: string;
  fileName: string;
  contentType: string;
  storageKey: string;
  /** The still first frame of an animated image; null for still images. */
  stillStorageKey: string | null;
  authorId: number | null;
  deactivated: boolean;
  dateCreated: number;
}

interface Row {
  id: number;
  name: string;
  file_name: string;
  content_type: string;
  storage_key: string;
  still_storage_key: string | null;
  author_id: number | null;
  deactivated: number;
  date_created: number;
}

const COLUMNS =
  "id, name, file_name, content_type, storage_key, still_storage_key, author_id, deactivated, date_created";

const fromRow = (r: Row): RealmEmojiRow => ({
  id: Number(r.id),
  name: r.name,
  fileName: r.file_name,
  contentType: r.content_type,
  storageKey: r.storage_key,
  stillStorageKey: r.still_storage_key,
  authorId: r.author_id === null ? null : Number(r.author_id),
  deactivated: Number(r.deactivated) !== 0,
  dateCreated: Number(r.date_created),
});

/** The `realm_emoji` table. */
export class RealmEmojiRepo {
  constructor(private readonly db: Queryable) {}

  /** Every custom emoji, deactivated ones included, by id. */
  async all(): Promise<RealmEmojiRow[]> {
    return (await this.db.all<Row>(`SELECT ${COLUMNS} FROM realm_emoji ORDER BY id`)).map(fromRow);
  }

  async activeByName(name: string): Promise<RealmEmojiRow | undefined> {
    const r = await this.db.get<Row>(
      `SELECT ${COLUMNS} FROM realm_emoji WHERE name = ? AND deactivated = 0`,
      [name],
    );
    return r === undefined ? undefined : fromRow(r);
  }

  /** The active emoji among `names` (the names a message may use). */
  async activeNamed(names: readonly string[]): Promise<RealmEmojiRow[]> {
    if (names.length === 0) return [];
    const rows = await this.db.all<Row>(
      `SELECT ${COLUMNS} FROM realm_emoji WHERE deactivated = 0 AND name IN (${placeholders(names.length)})`,
      names,
    );
    return rows.map(fromRow);
  }

  async byId(id: number): Promise<RealmEmojiRow | undefined> {
    const r = await this.db.get<Row>(`SELECT ${COLUMNS} FROM realm_emoji WHERE id = ?`, [id]);
    return r === undefined ? undefined : fromRow(r);
  }

  async byFileName(fileName: string): Promise<RealmEmojiRow | undefined> {
    const r = await this.db.get<Row>(`SELECT ${COLUMNS} FROM realm_emoji WHERE file_name = ?`, [fileName]);
    return r === undefined ? undefined : fromRow(r);
  }

  /** Inserts an active emoji; undefined when an active one already holds the name (a race). */
  async insert(e: Omit<RealmEmojiRow, "id" | "deactivated">): Promise<RealmEmojiRow | undefined> {
    try {
      const r = await this.db.get<Row>(
        `INSERT INTO realm_emoji (name, file_name, content_type, storage_key, still_storage_key, author_id, deactivated, date_created)
         VALUES (?, ?, ?, ?, ?, ?, 0, ?) RETURNING ${COLUMNS}`,
        [e.name, e.fileName, e.contentType, e.storageKey, e.stillStorageKey, e.authorId, e.dateCreated],
      );
      return r === undefined ? undefined : fromRow(r);
    } catch (err) {
      if ((await this.activeByName(e.name)) !== undefined) return undefined;
      throw err;
    }
  }

  /** Deactivates the active emoji of that name; false when there is none. */
  async deactivate(name: string): Promise<boolean> {
    return (
      (await this.db.run("UPDATE realm_emoji SET deactivated = 1 WHERE name = ? AND deactivated = 0", [name]))
        .changes > 0
    );
  }
}
