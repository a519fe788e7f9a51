import type { Queryable } from "./db.js";

/** A stored scheduled message (migration 025). */
export interface ScheduledRow {
  id: number;
  senderId: number;
  type: "stream" | "private";
  /** For stream messages. */
  streamId: number | null;
  /** What `to` shows: `[stream id]`, or the other participants of a direct message. */
  to: number[];
  topic: string;
  content: string;
  renderedContent: string;
  /** Seconds. */
  scheduledTimestamp: number;
  delivered: boolean;
  failed: boolean;
  failureMessage: string | null;
  /** A reminder (migration 097): the message it reminds of; null for a scheduled message. */
  reminderTargetMessageId: number | null;
}

interface Row {
  id: number;
  sender_id: number;
  type: string;
  stream_id: number | null;
  recipients: string;
  topic: string;
  content: string;
  rendered_content: string;
  scheduled_timestamp: number;
  delivered: number;
  failed: number;
  failure_message: string | null;
  reminder_target_message_id: number | null;
}

const COLUMNS =
  "id, sender_id, type, stream_id, recipients, topic, content, rendered_content, scheduled_timestamp, delivered, failed, failure_message, reminder_target_message_id";

/** Reminders and scheduled messages share the table; each API sees only its own kind. */
const kind = (reminder: boolean): string => `reminder_target_message_id IS ${reminder ? "NOT NULL" : "NULL"}`;

const fromRow = (r: Row): ScheduledRow => ({
  id: Number(r.id),
  senderId: Number(r.sender_id),
  type: r.type as ScheduledRow["type"],
  streamId: r.stream_id === null ? null : Number(r.stream_id),
  to: JSON.parse(r.recipients) as number[],
  topic: r.topic,
  content: r.content,
  renderedContent: r.rendered_content,
  scheduledTimestamp: Number(r.scheduled_timestamp),
  delivered: Number(r.delivered) !== 0,
  failed: Number(r.failed) !== 0,
  failureMessage: r.failure_message,
  reminderTargetMessageId:
    r.reminder_target_message_id === null ? null : Number(r.reminder_target_message_id),
});

export type ScheduledFields = Pick<
  ScheduledRow,
  "type" | "streamId" | "to" | "topic" | "content" | "renderedContent" | "scheduledTimestamp"
>;

/** The `scheduled_messages` table. */
export class ScheduledMessagesRepo {
  constructor(private readonly db: Queryable) {}

  /** The sender's undelivered scheduled messages or reminders (failed ones too), soonest first. */
  async pendingOf(senderId: number, reminders = false): Promise<ScheduledRow[]> {
    const rows = await this.db.all<Row>(
      `SELECT ${COLUMNS} FROM scheduled_messages WHERE sender_id = ? AND delivered = 0 AND ${kind(reminders)}
       ORDER BY scheduled_timestamp, id`,
      [senderId],
    );
    return rows.map(fromRow);
  }

  async byId(senderId: number, id: number, reminder = false): Promise<ScheduledRow | undefined> {
    const r = await this.db.get<Row>(
      `SELECT ${COLUMNS} FROM scheduled_messages WHERE id = ? AND sender_id = ? AND ${kind(reminder)}`,
      [id, senderId],
    );
    return r === undefined ? undefined : fromRow(r);
  }

  async insert(
    senderId: number,
    f: ScheduledFields,
    reminderTargetMessageId: number | null = null,
  ): Promise<ScheduledRow> {
    const r = await this.db.get<Row>(
      `INSERT INTO scheduled_messages (sender_id, type, stream_id, recipients, topic, content, rendered_content, scheduled_timestamp, reminder_target_message_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING ${COLUMNS}`,
      [
        senderId,
        f.type,
        f.streamId,
        JSON.stringify(f.to),
        f.topic,
        f.content,
        f.renderedContent,
        f.scheduledTimestamp,
        reminderTargetMessageId,
      ],
    );
    return fromRow(r!);
  }

  /** Replaces the fields of an undelivered message (and clears a failure); false when already sent. */
  async update(senderId: number, id: number, f: ScheduledFields): Promise<boolean> {
    const r = await this.db.run(
      `UPDATE scheduled_messages SET type = ?, stream_id = ?, recipients = ?, topic = ?, content = ?, rendered_content = ?,
       scheduled_timestamp = ?, failed = 0, failure_message = NULL, claimed_until = NULL
       WHERE id = ? AND sender_id = ? AND delivered = 0`,
      [
        f.type,
        f.streamId,
        JSON.stringify(f.to),
        f.topic,
        f.content,
        f.renderedContent,
        f.scheduledTimestamp,
        id,
        senderId,
      ],
    );
    return r.changes > 0;
  }

  async delete(senderId: number, id: number): Promise<boolean> {
    return (
      (await this.db.run("DELETE FROM scheduled_messages WHERE id = ? AND sender_id = ?", [id, senderId]))
        .changes > 0
    );
  }

  /** Ids of messages due at `nowSeconds` that no live claim holds. */
  async dueIds(nowSeconds: number, nowMs: number, limit: number): Promise<number[]> {
    const rows = await this.db.all<{ id: number }>(
      `SELECT id FROM scheduled_messages WHERE delivered = 0 AND failed = 0 AND scheduled_timestamp <= ?
       AND (claimed_until IS NULL OR claimed_until < ?) ORDER BY scheduled_timestamp, id LIMIT ?`,
      [nowSeconds, nowMs, limit],
    );
    return rows.map((r) => Number(r.id));
  }

  /**
   * Claims one due message until `untilMs` (one UPDATE, so two processes never both win); the
   * message, or undefined when another process claimed it first or it changed.
   */
  async claim(id: number, nowMs: number, untilMs: number): Promise<ScheduledRow | undefined> {
    const r = await this.db.run(
      `UPDATE scheduled_messages SET claimed_until = ? WHERE id = ? AND delivered = 0 AND failed = 0
       AND (claimed_until IS NULL OR claimed_until < ?)`,
      [untilMs, id, nowMs],
    );
    if (r.changes === 0) return undefined;
    const row = await this.db.get<Row>(`SELECT ${COLUMNS} FROM scheduled_messages WHERE id = ?`, [id]);
    return row === undefined ? undefined : fromRow(row);
  }

  async markDelivered(id: number, messageId: number): Promise<void> {
    await this.db.run(
      "UPDATE scheduled_messages SET delivered = 1, delivered_message_id = ?, claimed_until = NULL WHERE id = ?",
      [messageId, id],
    );
  }

  async markFailed(id: number, message: string): Promise<void> {
    await this.db.run(
      "UPDATE scheduled_messages SET failed = 1, failure_message = ?, claimed_until = NULL WHERE id = ?",
      [message, id],
    );
  }
}
