import { jsonIdsIn, sqlBool } from "./db.js";
import type { Queryable } from "./db.js";
import { RECEIVED, USER_FROM } from "./narrow-sql.js";
import type { EditHistoryEntry, MessageHas, NewMessage, StoredMessage } from "../domain/messages/types.js";

interface MessageRow {
  id: number;
  sender_id: number;
  recipient_id: number;
  stream_id: number | null;
  topic: string;
  pm_key: string | null;
  content: string;
  rendered_content: string;
  client: string;
  date_sent: number;
  last_edit_time: number | null;
  edit_history: string | null;
  is_me_message: number;
}

export type { MessageScope } from "./narrow-sql.js";

const MESSAGE_COLUMNS =
  "id, sender_id, recipient_id, stream_id, topic, pm_key, content, rendered_content, client, date_sent, last_edit_time, edit_history, is_me_message";

function toMessage(r: MessageRow): StoredMessage {
  return {
    id: Number(r.id),
    senderId: Number(r.sender_id),
    recipientId: Number(r.recipient_id),
    streamId: r.stream_id === null ? null : Number(r.stream_id),
    topic: r.topic,
    pmKey: r.pm_key,
    content: r.content,
    renderedContent: r.rendered_content,
    client: r.client,
    dateSent: Number(r.date_sent),
    lastEditTime: r.last_edit_time === null ? null : Number(r.last_edit_time),
    editHistory: r.edit_history === null ? null : (JSON.parse(r.edit_history) as EditHistoryEntry[]),
    isMeMessage: r.is_me_message === 1,
  };
}

/**
 * Messages and their recipients (Zulip's Recipient rows); who received them with which flags is
 * FlagsRepo's (flags-repo.ts) and RecipientRowsRepo's (recipient-rows-repo.ts). Only these classes
 * run SQL about messages.
 */
export class MessagesRepo {
  constructor(private readonly db: Queryable) {}

  /** Zulip's Recipient id for a stream (type 2), a user (type 1) or a group conversation (type 3). */
  async recipientId(type: 1 | 2 | 3, key: string): Promise<number> {
    const select = "SELECT id FROM recipients WHERE type = ? AND type_key = ?";
    // Nearly always there already: a read, and the insert only for a new conversation.
    const found = await this.db.get<{ id: number }>(select, [type, key]);
    if (found !== undefined) return Number(found.id);
    await this.db.run("INSERT INTO recipients (type, type_key) VALUES (?, ?) ON CONFLICT DO NOTHING", [
      type,
      key,
    ]);
    const r = await this.db.get<{ id: number }>(select, [type, key]);
    return Number(r!.id);
  }

  async insertMessage(m: NewMessage): Promise<number> {
    const r = await this.db.get<{ id: number }>(
      `INSERT INTO messages (sender_id, recipient_id, stream_id, topic, pm_key, content, rendered_content, client, date_sent, is_me_message, has_link, has_image, has_attachment, recipient_flags)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
      [
        m.senderId,
        m.recipientId,
        m.streamId,
        m.topic,
        m.pmKey,
        m.content,
        m.renderedContent,
        m.client,
        m.dateSent,
        sqlBool(m.isMeMessage),
        sqlBool(m.has.link),
        sqlBool(m.has.image),
        sqlBool(m.has.attachment),
        m.recipientFlags ?? null,
      ],
    );
    return Number(r!.id);
  }

  async byId(id: number): Promise<StoredMessage | undefined> {
    const r = await this.db.get<MessageRow>(`SELECT ${MESSAGE_COLUMNS} FROM messages WHERE id = ?`, [id]);
    return r ? toMessage(r) : undefined;
  }

  /** Messages by id, ascending; unknown ids are skipped. */
  async byIds(ids: readonly number[]): Promise<StoredMessage[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.all<MessageRow>(
      `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE id IN ${jsonIdsIn(this.db)} ORDER BY id`,
      [JSON.stringify(ids)],
    );
    return rows.map(toMessage);
  }

  /**
   * Active users whose full name (case-insensitively) or id is among those given: the only users a
   * message's mentions can name. Uses the users_full_name_lower index.
   */
  async activeUsersNamed(
    lowerNames: readonly string[],
    ids: readonly number[],
  ): Promise<{ id: number; fullName: string }[]> {
    if (lowerNames.length === 0 && ids.length === 0) return [];
    const names =
      this.db.dialect === "sqlite"
        ? "(SELECT value FROM json_each(?))"
        : "(SELECT json_array_elements_text(?::json))";
    const rows = await this.db.all<{ id: number; full_name: string }>(
      `SELECT id, full_name FROM users WHERE is_active = 1 AND (lower(full_name) IN ${names} OR id IN ${jsonIdsIn(this.db)})`,
      [JSON.stringify(lowerNames), JSON.stringify(ids)],
    );
    return rows.map((r) => ({ id: Number(r.id), fullName: r.full_name }));
  }

  async updateContent(
    id: number,
    content: string,
    renderedContent: string,
    isMeMessage: boolean,
    has: MessageHas,
  ): Promise<void> {
    await this.db.run(
      "UPDATE messages SET content = ?, rendered_content = ?, is_me_message = ?, has_link = ?, has_image = ?, has_attachment = ? WHERE id = ?",
      [
        content,
        renderedContent,
        sqlBool(isMeMessage),
        sqlBool(has.link),
        sqlBool(has.image),
        sqlBool(has.attachment),
        id,
      ],
    );
  }

  /**
   * Renames the topic of these messages in one statement. SQLite's full-text index (an update
   * trigger, migration 026) is written at the end of each statement: one statement per message
   * cost a rename of 10,000 messages ~0.8 s, one for all ~30 ms.
   */
  async updateTopics(ids: readonly number[], topic: string): Promise<void> {
    if (ids.length === 0) return;
    await this.db.run(`UPDATE messages SET topic = ? WHERE id IN ${jsonIdsIn(this.db)}`, [
      topic,
      JSON.stringify(ids),
    ]);
  }

  async setEdited(id: number, lastEditTime: number, history: readonly EditHistoryEntry[]): Promise<void> {
    await this.db.run("UPDATE messages SET last_edit_time = ?, edit_history = ? WHERE id = ?", [
      lastEditTime,
      JSON.stringify(history),
      id,
    ]);
  }

  /** Ids of the stream's messages in the topic (case-insensitive), ascending, optionally from `fromId`. */
  async topicMessageIds(streamId: number, topic: string, fromId?: number): Promise<number[]> {
    const rows = await this.db.all<{ id: number }>(
      `SELECT id FROM messages WHERE stream_id = ? AND lower(topic) = lower(?)${fromId === undefined ? "" : " AND id >= ?"} ORDER BY id`,
      fromId === undefined ? [streamId, topic] : [streamId, topic, fromId],
    );
    return rows.map((r) => Number(r.id));
  }

  /** Deletes the message and its rows; false when it was already gone. */
  async delete(id: number): Promise<boolean> {
    await this.db.run("DELETE FROM user_messages WHERE message_id = ?", [id]);
    const res = await this.db.run("DELETE FROM messages WHERE id = ?", [id]);
    return res.changes > 0;
  }

  /**
   * A stream's topics, newest first, each with its latest message id and that message's spelling:
   * over the whole stream (`userId` undefined: readable history) or the messages the user received.
   */
  async topicHistory(
    streamId: number,
    userId: number | undefined,
  ): Promise<{ name: string; maxId: number }[]> {
    const latest =
      userId === undefined
        ? "SELECT MAX(id) FROM messages WHERE stream_id = ? GROUP BY lower(topic)"
        : `SELECT MAX(m.id) FROM ${USER_FROM} WHERE m.stream_id = ? AND ${RECEIVED} GROUP BY lower(m.topic)`;
    const rows = await this.db.all<{ id: number; topic: string }>(
      `SELECT id, topic FROM messages WHERE id IN (${latest}) ORDER BY id DESC`,
      userId === undefined ? [streamId] : [userId, userId, streamId],
    );
    return rows.map((r) => ({ name: r.topic, maxId: Number(r.id) }));
  }

  /** Deletes messages and their rows in one statement each (see updateTopics); returns the ids that existed. */
  async deleteMany(ids: readonly number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const list = JSON.stringify(ids);
    const existing = await this.db.all<{ id: number }>(
      `SELECT id FROM messages WHERE id IN ${jsonIdsIn(this.db)} ORDER BY id`,
      [list],
    );
    await this.db.run(`DELETE FROM user_messages WHERE message_id IN ${jsonIdsIn(this.db)}`, [list]);
    await this.db.run(`DELETE FROM messages WHERE id IN ${jsonIdsIn(this.db)}`, [list]);
    return existing.map((r) => Number(r.id));
  }

  /** Moves messages to another stream (and topic). */
  async moveToStream(
    ids: readonly number[],
    streamId: number,
    recipientId: number,
    topic: string,
  ): Promise<void> {
    if (ids.length === 0) return;
    await this.db.run(
      `UPDATE messages SET stream_id = ?, recipient_id = ?, topic = ? WHERE id IN ${jsonIdsIn(this.db)}`,
      [streamId, recipientId, topic, JSON.stringify(ids)],
    );
  }

  /** Deletes the rows of these users for these messages (users who lost access). */
  async deleteRows(messageIds: readonly number[], userIds: readonly number[]): Promise<void> {
    if (messageIds.length === 0 || userIds.length === 0) return;
    await this.db.run(
      // `+user_id`: not the (user_id, message_id) key, which SQLite would probe for every pair of
      // the two lists (70,000 of each took 169 s), but the message index, each row's user checked
      // against the list.
      `DELETE FROM user_messages WHERE message_id IN ${jsonIdsIn(this.db)} AND +user_id IN ${jsonIdsIn(this.db)}`,
      [JSON.stringify(messageIds), JSON.stringify(userIds)],
    );
  }
}
