import type { Queryable, SqlValue } from "./db.js";
import { placeholders, sqlBool } from "./db.js";
import { FLAGS_EXPR, conditionSql } from "./narrow-sql.js";
import type { MessageScope } from "./narrow-sql.js";
import type {
  EditHistoryEntry,
  MessageHas,
  NewMessage,
  StoredMessage,
  UnreadRow,
} from "../domain/messages/types.js";

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

/** Messages, their recipients and per-user flags. Only this class runs SQL about messages. */
export class MessagesRepo {
  constructor(private readonly db: Queryable) {}

  /** Zulip's Recipient id for a stream (type 2), a user (type 1) or a group conversation (type 3). */
  async recipientId(type: 1 | 2 | 3, key: string): Promise<number> {
    await this.db.run("INSERT INTO recipients (type, type_key) VALUES (?, ?) ON CONFLICT DO NOTHING", [
      type,
      key,
    ]);
    const r = await this.db.get<{ id: number }>("SELECT id FROM recipients WHERE type = ? AND type_key = ?", [
      type,
      key,
    ]);
    return Number(r!.id);
  }

  async insertMessage(m: NewMessage): Promise<number> {
    const r = await this.db.get<{ id: number }>(
      `INSERT INTO messages (sender_id, recipient_id, stream_id, topic, pm_key, content, rendered_content, client, date_sent, is_me_message, has_link, has_image, has_attachment)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
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
      ],
    );
    return Number(r!.id);
  }

  /**
   * Every recipient row in ONE statement with one JSON parameter ([[user_id, flags], …]), whatever
   * the number of recipients: one round trip, and a constant SQL text (prepared once).
   */
  async insertUserMessages(messageId: number, rows: readonly { id: number; flags: number }[]): Promise<void> {
    if (rows.length === 0) return;
    const pairs = JSON.stringify(rows.map((r) => [r.id, r.flags]));
    await this.db.run(
      this.db.dialect === "sqlite"
        ? `INSERT INTO user_messages (user_id, message_id, flags)
           SELECT json_extract(value, '$[0]'), ?, json_extract(value, '$[1]') FROM json_each(?)`
        : `INSERT INTO user_messages (user_id, message_id, flags)
           SELECT (e->>0)::bigint, ?, (e->>1)::bigint FROM json_array_elements(?::json) AS e`,
      [messageId, pairs],
    );
  }

  /** `IN (…)` over a JSON array parameter: one constant SQL text for any number of ids. */
  private idsIn(): string {
    return this.db.dialect === "sqlite"
      ? "(SELECT value FROM json_each(?))"
      : "(SELECT json_array_elements_text(?::json)::bigint)";
  }

  async byId(id: number): Promise<StoredMessage | undefined> {
    const r = await this.db.get<MessageRow>(`SELECT ${MESSAGE_COLUMNS} FROM messages WHERE id = ?`, [id]);
    return r ? toMessage(r) : undefined;
  }

  /** Messages by id, ascending; unknown ids are skipped. */
  async byIds(ids: readonly number[]): Promise<StoredMessage[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.all<MessageRow>(
      `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE id IN ${this.idsIn()} ORDER BY id`,
      [JSON.stringify(ids)],
    );
    return rows.map(toMessage);
  }

  /** The user's flags bitmask for the message; undefined when the user has no row for it. */
  async flagsOf(userId: number, messageId: number): Promise<number | undefined> {
    const r = await this.db.get<{ flags: number }>(
      "SELECT flags FROM user_messages WHERE user_id = ? AND message_id = ?",
      [userId, messageId],
    );
    return r === undefined ? undefined : Number(r.flags);
  }

  /** The user's flags for several messages (only those the user has rows for). */
  async flagsOfMany(userId: number, messageIds: readonly number[]): Promise<Map<number, number>> {
    const out = new Map<number, number>();
    if (messageIds.length === 0) return out;
    const rows = await this.db.all<{ message_id: number; flags: number }>(
      `SELECT message_id, flags FROM user_messages WHERE user_id = ? AND message_id IN ${this.idsIn()}`,
      [userId, JSON.stringify(messageIds)],
    );
    for (const r of rows) out.set(Number(r.message_id), Number(r.flags));
    return out;
  }

  /** Every recipient row of a message: user id and flags, ascending by user. */
  async rowsOfMessage(messageId: number): Promise<{ userId: number; flags: number }[]> {
    const rows = await this.db.all<{ user_id: number; flags: number }>(
      "SELECT user_id, flags FROM user_messages WHERE message_id = ? ORDER BY user_id",
      [messageId],
    );
    return rows.map((r) => ({ userId: Number(r.user_id), flags: Number(r.flags) }));
  }

  /**
   * Ids and the user's flags of messages in `scope` whose id compares to `anchor` with `op`,
   * ordered towards/away from the anchor, at most `limit`.
   */
  async range(
    scope: MessageScope,
    op: "<" | "<=" | ">=" | ">" | "=",
    anchor: number,
    order: "ASC" | "DESC",
    limit: number,
  ): Promise<{ id: number; flags: number }[]> {
    const params: SqlValue[] = [];
    const { from, where, key } = this.scopeSql(scope, params);
    // Range and order on the driving table's key: um.message_id (= m.id) walks the
    // (user_id, message_id) primary key and stops after `limit` rows; ORDER BY m.id would make
    // SQLite read and sort every message of the user first (USE TEMP B-TREE FOR ORDER BY).
    where.push(`${key} ${op} ?`);
    params.push(anchor);
    params.push(limit);
    const rows = await this.db.all<{ id: number; flags: number }>(
      `SELECT m.id AS id, ${FLAGS_EXPR} AS flags FROM ${from} WHERE ${where.join(" AND ")} ORDER BY ${key} ${order} LIMIT ?`,
      params,
    );
    return rows.map((r) => ({ id: Number(r.id), flags: Number(r.flags) }));
  }

  /** The FROM and WHERE of a scope: the user's rows, or a stream's whole history. */
  private scopeSql(scope: MessageScope, params: SqlValue[]): { from: string; where: string[]; key: string } {
    let from: string;
    const where: string[] = [];
    if (scope.historyOfStreamId !== undefined) {
      from = "messages m LEFT JOIN user_messages um ON um.message_id = m.id AND um.user_id = ?";
      params.push(scope.userId);
      where.push("m.stream_id = ?");
      params.push(scope.historyOfStreamId);
    } else {
      from = "user_messages um JOIN messages m ON m.id = um.message_id";
      where.push("um.user_id = ?");
      params.push(scope.userId);
    }
    for (const c of scope.conditions) where.push(conditionSql(c, params, this.db.dialect));
    return { from, where, key: scope.historyOfStreamId !== undefined ? "m.id" : "um.message_id" };
  }

  /** Which of `ids` are in `scope` (GET /messages/matches_narrow), ascending. */
  async matchingIds(scope: MessageScope, ids: readonly number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const params: SqlValue[] = [];
    const { from, where } = this.scopeSql(scope, params);
    where.push(`m.id IN (${placeholders(ids.length)})`);
    params.push(...ids);
    const rows = await this.db.all<{ id: number }>(
      `SELECT m.id AS id FROM ${from} WHERE ${where.join(" AND ")} ORDER BY m.id`,
      params,
    );
    return rows.map((r) => Number(r.id));
  }

  /** Id and full name of every active user (mention resolution; lighter than full user rows). */
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
      `SELECT id, full_name FROM users WHERE is_active = 1 AND (lower(full_name) IN ${names} OR id IN ${this.idsIn()})`,
      [JSON.stringify(lowerNames), JSON.stringify(ids)],
    );
    return rows.map((r) => ({ id: Number(r.id), fullName: r.full_name }));
  }

  /** Highest message id the user has a row for; -1 when none. */
  async maxMessageId(userId: number): Promise<number> {
    const r = await this.db.get<{ m: number | null }>(
      "SELECT MAX(message_id) AS m FROM user_messages WHERE user_id = ?",
      [userId],
    );
    return r?.m == null ? -1 : Number(r.m);
  }

  /** The user's unread rows, ascending, at most `limit` (the newest ones). */
  async unreadRows(userId: number, limit: number): Promise<UnreadRow[]> {
    const rows = await this.db.all<{
      id: number;
      flags: number;
      stream_id: number | null;
      topic: string;
      pm_key: string | null;
      sender_id: number;
    }>(
      `SELECT m.id AS id, um.flags AS flags, m.stream_id AS stream_id, m.topic AS topic, m.pm_key AS pm_key, m.sender_id AS sender_id
       FROM user_messages um JOIN messages m ON m.id = um.message_id
       WHERE um.user_id = ? AND (um.flags & 1) = 0 ORDER BY um.message_id DESC LIMIT ?`,
      [userId, limit],
    );
    return rows.reverse().map((r) => ({
      id: Number(r.id),
      flags: Number(r.flags),
      streamId: r.stream_id === null ? null : Number(r.stream_id),
      topic: r.topic,
      pmKey: r.pm_key,
      senderId: Number(r.sender_id),
    }));
  }

  /**
   * Sets (`add`) or clears a flag bit on the user's rows, optionally limited to message ids, a
   * stream, or a stream's topic (case-insensitive). Returns the ids that changed, ascending.
   */
  async changeFlag(
    userId: number,
    bit: number,
    add: boolean,
    filter: { messageIds?: readonly number[]; streamId?: number; topic?: string },
  ): Promise<number[]> {
    const params: SqlValue[] = [];
    const where = ["user_id = ?", add ? `(flags & ${bit}) = 0` : `(flags & ${bit}) <> 0`];
    params.push(userId);
    if (filter.messageIds !== undefined) {
      if (filter.messageIds.length === 0) return [];
      where.push(`message_id IN ${this.idsIn()}`);
      params.push(JSON.stringify(filter.messageIds));
    }
    if (filter.streamId !== undefined) {
      where.push(
        filter.topic === undefined
          ? "message_id IN (SELECT id FROM messages WHERE stream_id = ?)"
          : "message_id IN (SELECT id FROM messages WHERE stream_id = ? AND lower(topic) = lower(?))",
      );
      params.push(filter.streamId);
      if (filter.topic !== undefined) params.push(filter.topic);
    }
    const set = add ? `flags | ${bit}` : `flags & ${0x7fffffff & ~bit}`;
    const rows = await this.db.all<{ message_id: number }>(
      `UPDATE user_messages SET flags = ${set} WHERE ${where.join(" AND ")} RETURNING message_id`,
      params,
    );
    return rows.map((r) => Number(r.message_id)).sort((a, b) => a - b);
  }

  /** Whether the user has any row for a message of this topic. */
  async hasTopic(userId: number, streamId: number, topic: string): Promise<boolean> {
    const r = await this.db.get<{ one: number }>(
      `SELECT 1 AS one FROM user_messages um JOIN messages m ON m.id = um.message_id
       WHERE um.user_id = ? AND m.stream_id = ? AND lower(m.topic) = lower(?) LIMIT 1`,
      [userId, streamId, topic],
    );
    return r !== undefined;
  }

  async insertUserMessage(userId: number, messageId: number, flags: number): Promise<void> {
    await this.db.run(
      "INSERT INTO user_messages (user_id, message_id, flags) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
      [userId, messageId, flags],
    );
  }

  /** Sets or clears bits of several users' rows of one message. */
  async setUserFlags(
    messageId: number,
    changes: readonly { userId: number; flags: number }[],
  ): Promise<void> {
    for (const c of changes) {
      await this.db.run("UPDATE user_messages SET flags = ? WHERE user_id = ? AND message_id = ?", [
        c.flags,
        c.userId,
        messageId,
      ]);
    }
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

  async updateTopic(id: number, topic: string): Promise<void> {
    await this.db.run("UPDATE messages SET topic = ? WHERE id = ?", [topic, id]);
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
   * over the whole stream (`userId` undefined: readable history) or the user's own messages.
   */
  async topicHistory(
    streamId: number,
    userId: number | undefined,
  ): Promise<{ name: string; maxId: number }[]> {
    const latest =
      userId === undefined
        ? "SELECT MAX(id) FROM messages WHERE stream_id = ? GROUP BY lower(topic)"
        : `SELECT MAX(m.id) FROM user_messages um JOIN messages m ON m.id = um.message_id
           WHERE m.stream_id = ? AND um.user_id = ? GROUP BY lower(m.topic)`;
    const rows = await this.db.all<{ id: number; topic: string }>(
      `SELECT id, topic FROM messages WHERE id IN (${latest}) ORDER BY id DESC`,
      userId === undefined ? [streamId] : [streamId, userId],
    );
    return rows.map((r) => ({ name: r.topic, maxId: Number(r.id) }));
  }

  /** Deletes messages and their rows; returns the ids that existed. */
  async deleteMany(ids: readonly number[]): Promise<number[]> {
    const deleted: number[] = [];
    for (const id of ids) if (await this.delete(id)) deleted.push(id);
    return deleted;
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
      `UPDATE messages SET stream_id = ?, recipient_id = ?, topic = ? WHERE id IN (${placeholders(ids.length)})`,
      [streamId, recipientId, topic, ...ids],
    );
  }

  /** Deletes the rows of these users for these messages (users who lost access). */
  async deleteRows(messageIds: readonly number[], userIds: readonly number[]): Promise<void> {
    if (messageIds.length === 0 || userIds.length === 0) return;
    await this.db.run(
      `DELETE FROM user_messages WHERE message_id IN (${placeholders(messageIds.length)}) AND user_id IN (${placeholders(userIds.length)})`,
      [...messageIds, ...userIds],
    );
  }
}
