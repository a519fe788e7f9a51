import type { Queryable } from "./db.js";

/** A stored submessage (migration 046). */
export interface Submessage {
  id: number;
  messageId: number;
  senderId: number;
  msgType: string;
  content: string;
}

interface Row {
  id: number;
  message_id: number;
  sender_id: number;
  msg_type: string;
  content: string;
}

const fromRow = (r: Row): Submessage => ({
  id: Number(r.id),
  messageId: Number(r.message_id),
  senderId: Number(r.sender_id),
  msgType: r.msg_type,
  content: r.content,
});

export class SubmessagesRepo {
  constructor(private readonly db: Queryable) {}

  async add(s: Omit<Submessage, "id">): Promise<Submessage> {
    const row = await this.db.get<{ id: number }>(
      "INSERT INTO submessages (message_id, sender_id, msg_type, content) VALUES (?, ?, ?, ?) RETURNING id",
      [s.messageId, s.senderId, s.msgType, s.content],
    );
    return { id: Number(row!.id), ...s };
  }

  /** The submessages of these messages, oldest first. */
  async forMessages(messageIds: readonly number[]): Promise<Submessage[]> {
    if (messageIds.length === 0) return [];
    const rows = await this.db.all<Row>(
      `SELECT id, message_id, sender_id, msg_type, content FROM submessages
       WHERE message_id IN (${messageIds.map(() => "?").join(", ")}) ORDER BY id`,
      [...messageIds],
    );
    return rows.map(fromRow);
  }
}
