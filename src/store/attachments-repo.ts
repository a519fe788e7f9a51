import type { Queryable } from "./db.js";
import { jsonIdsIn, placeholders } from "./db.js";
import { appendTo } from "../lib/append-to.js";

/** A stored upload (Zulip's Attachment). */
export interface StoredAttachment {
  id: number;
  pathId: string;
  storageKey: string;
  fileName: string;
  size: number;
  contentType: string;
  ownerId: number;
  createTimeMs: number;
}

export type NewAttachment = Omit<StoredAttachment, "id">;

interface AttachmentRow {
  id: number;
  path_id: string;
  storage_key: string;
  file_name: string;
  size: number;
  content_type: string;
  owner_id: number;
  create_time_ms: number;
}

const COLUMNS = "id, path_id, storage_key, file_name, size, content_type, owner_id, create_time_ms";

function toAttachment(r: AttachmentRow): StoredAttachment {
  return {
    id: Number(r.id),
    pathId: r.path_id,
    storageKey: r.storage_key,
    fileName: r.file_name,
    size: Number(r.size),
    contentType: r.content_type,
    ownerId: Number(r.owner_id),
    createTimeMs: Number(r.create_time_ms),
  };
}

/** Uploads and their links to messages. */
export class AttachmentsRepo {
  constructor(private readonly db: Queryable) {}

  async insert(a: NewAttachment): Promise<StoredAttachment> {
    const r = await this.db.get<AttachmentRow>(
      `INSERT INTO attachments (path_id, storage_key, file_name, size, content_type, owner_id, create_time_ms)
       VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING ${COLUMNS}`,
      [a.pathId, a.storageKey, a.fileName, a.size, a.contentType, a.ownerId, a.createTimeMs],
    );
    return toAttachment(r!);
  }

  async byId(id: number): Promise<StoredAttachment | undefined> {
    const r = await this.db.get<AttachmentRow>(`SELECT ${COLUMNS} FROM attachments WHERE id = ?`, [id]);
    return r ? toAttachment(r) : undefined;
  }

  async byPathId(pathId: string): Promise<StoredAttachment | undefined> {
    const r = await this.db.get<AttachmentRow>(`SELECT ${COLUMNS} FROM attachments WHERE path_id = ?`, [
      pathId,
    ]);
    return r ? toAttachment(r) : undefined;
  }

  /** The owner's uploads, oldest first. */
  async ofOwner(ownerId: number): Promise<StoredAttachment[]> {
    const rows = await this.db.all<AttachmentRow>(
      `SELECT ${COLUMNS} FROM attachments WHERE owner_id = ? ORDER BY id`,
      [ownerId],
    );
    return rows.map(toAttachment);
  }

  /** Bytes of every upload of one user (the per-user storage cap). */
  async spaceUsedBy(ownerId: number): Promise<number> {
    const r = await this.db.get<{ total: number | null }>(
      "SELECT SUM(size) AS total FROM attachments WHERE owner_id = ?",
      [ownerId],
    );
    return Number(r?.total ?? 0);
  }

  /** Bytes of every upload of the organization (register's and GET /attachments' upload_space_used). */
  async spaceUsed(): Promise<number> {
    const r = await this.db.get<{ total: number | null }>("SELECT SUM(size) AS total FROM attachments");
    return Number(r?.total ?? 0);
  }

  async delete(id: number): Promise<void> {
    await this.db.run("DELETE FROM attachment_messages WHERE attachment_id = ?", [id]);
    await this.db.run("DELETE FROM attachments WHERE id = ?", [id]);
  }

  /** Messages linking each attachment, with their send times (seconds), oldest first. */
  async messagesOf(ids: readonly number[]): Promise<Map<number, { id: number; dateSent: number }[]>> {
    const out = new Map<number, { id: number; dateSent: number }[]>();
    if (ids.length === 0) return out;
    const rows = await this.db.all<{ attachment_id: number; id: number; date_sent: number }>(
      `SELECT am.attachment_id, m.id, m.date_sent FROM attachment_messages am JOIN messages m ON m.id = am.message_id
       WHERE am.attachment_id IN ${jsonIdsIn(this.db)} ORDER BY m.id`,
      [JSON.stringify(ids)],
    );
    for (const r of rows) {
      const key = Number(r.attachment_id);
      appendTo(out, key, { id: Number(r.id), dateSent: Number(r.date_sent) });
    }
    return out;
  }

  /**
   * Makes `messageId` link exactly those of `pathIds` that `ownerId` uploaded (Zulip claims only
   * the sender's own attachments). Returns the ids of the attachments now linked.
   */
  async linkMessage(ownerId: number, messageId: number, pathIds: readonly string[]): Promise<number[]> {
    await this.db.run("DELETE FROM attachment_messages WHERE message_id = ?", [messageId]);
    if (pathIds.length === 0) return [];
    const rows = await this.db.all<{ id: number }>(
      `SELECT id FROM attachments WHERE owner_id = ? AND path_id IN (${placeholders(pathIds.length)})`,
      [ownerId, ...pathIds],
    );
    for (const r of rows) {
      await this.db.run("INSERT INTO attachment_messages (attachment_id, message_id) VALUES (?, ?)", [
        r.id,
        messageId,
      ]);
    }
    return rows.map((r) => Number(r.id));
  }

  /** Ids of the messages linking the attachment. */
  async messageIds(attachmentId: number): Promise<number[]> {
    const rows = await this.db.all<{ message_id: number }>(
      "SELECT message_id FROM attachment_messages WHERE attachment_id = ? ORDER BY message_id",
      [attachmentId],
    );
    return rows.map((r) => Number(r.message_id));
  }

  /** Ids of the attachments a message links. */
  async linkedTo(messageId: number): Promise<number[]> {
    const rows = await this.db.all<{ attachment_id: number }>(
      "SELECT attachment_id FROM attachment_messages WHERE message_id = ? ORDER BY attachment_id",
      [messageId],
    );
    return rows.map((r) => Number(r.attachment_id));
  }
}
