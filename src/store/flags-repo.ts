/**
 * Who received which message and with which flags: `user_messages` rows (a row per recipient for
 * private and moved messages; sparse exception rows for stream messages), subscription intervals
 * and read watermarks. The model is described in narrow-sql.ts; the writes of rows that sending
 * and moving need are in RecipientRowsRepo, which this repository uses for its own writes.
 */
import { jsonIdsIn } from "./db.js";
import type { Queryable, SqlValue } from "./db.js";
import {
  COVERED,
  DERIVED_READ,
  FLAGS_EXPR,
  NOT_RECEIVED,
  RECEIVED,
  USER_FROM,
  conditionSql,
} from "./narrow-sql.js";
import type { MessageScope } from "./narrow-sql.js";
import { ROWS_PER_STATEMENT, RecipientRowsRepo } from "./recipient-rows-repo.js";
import { SEARCH_CATCH_UP_SQL } from "./search-index.js";
import type { UnreadRow } from "../domain/messages/types.js";
import { unreadState } from "./unread-state.js";
import type { FlagFilter, UnreadState } from "./unread-state.js";

export type { UnreadGroup, UnreadState } from "./unread-state.js";

const READ = 1;
/** The first key of the PostgreSQL advisory locks that serialise one user's flag changes ("flag"). */
const FLAG_LOCK_CLASS = 0x666c6167;
/** How many message ids a range walks before it reads stream by stream instead. */
const SCAN_WINDOW = 5_000;
/** Narrow conditions with an index of their own (see range). */
const INDEXED_KINDS = new Set(["stream", "pm", "private", "sender", "search", "id"]);
/** Flags that only rows carry (never derived): a narrow on them reads the user's rows. */
const ROW_ONLY_FLAGS = 2 | 4 | 8 | 512;

export class FlagsRepo {
  private readonly rows: RecipientRowsRepo;
  /** Users whose lock this repository's transaction holds (a transaction's repositories are its own). */
  private readonly locked = new Set<number>();

  constructor(private readonly db: Queryable) {
    this.rows = new RecipientRowsRepo(db);
  }

  /** The user's flags bitmask for the message; undefined when the user did not receive it. */
  async flagsOf(userId: number, messageId: number): Promise<number | undefined> {
    return (await this.flagsOfMany(userId, [messageId])).get(messageId);
  }

  /** The user's flags for several messages (only those the user received). */
  async flagsOfMany(userId: number, messageIds: readonly number[]): Promise<Map<number, number>> {
    const out = new Map<number, number>();
    if (messageIds.length === 0) return out;
    const rows = await this.db.all<{ id: number; flags: number }>(
      `SELECT m.id AS id, ${FLAGS_EXPR} AS flags FROM ${USER_FROM} WHERE m.id IN ${jsonIdsIn(this.db)} AND ${RECEIVED}`,
      [userId, userId, JSON.stringify(messageIds)],
    );
    for (const r of rows) out.set(Number(r.id), Number(r.flags));
    return out;
  }

  /** Everyone who received a message, with their flags, ascending by user. */
  async rowsOfMessage(messageId: number): Promise<{ userId: number; flags: number }[]> {
    const byUser = new Map<number, number>();
    const derived = await this.db.all<{ user_id: number; flags: number }>(
      `SELECT sub.user_id AS user_id, m.recipient_flags | ${DERIVED_READ} AS flags
       FROM messages m JOIN subscriptions sub ON sub.stream_id = m.stream_id
       WHERE m.id = ? AND m.recipient_flags IS NOT NULL AND ${COVERED}`,
      [messageId],
    );
    for (const r of derived) byUser.set(Number(r.user_id), Number(r.flags));
    const rows = await this.db.all<{ user_id: number; flags: number }>(
      "SELECT user_id, flags FROM user_messages WHERE message_id = ?",
      [messageId],
    );
    for (const r of rows) {
      const flags = Number(r.flags);
      if ((flags & NOT_RECEIVED) !== 0) byUser.delete(Number(r.user_id));
      else byUser.set(Number(r.user_id), flags);
    }
    return [...byUser.entries()].sort((a, b) => a[0] - b[0]).map(([userId, flags]) => ({ userId, flags }));
  }

  /**
   * Ids and the user's flags of messages in `scope` whose id compares to `anchor` with `op`,
   * ordered towards/away from the anchor, at most `limit`.
   *
   * The messages a user received are not one index range: the query walks `messages` from the
   * anchor and tests each. When the user receives little of the realm's traffic, that walk is
   * bounded first to SCAN_WINDOW ids; if it finds fewer than `limit`, one query per stream the user
   * has a subscription row for (the index on stream_id, id) and one over their rows are merged.
   */
  async range(
    scope: MessageScope,
    op: "<" | "<=" | ">=" | ">" | "=",
    anchor: number,
    order: "ASC" | "DESC",
    limit: number,
  ): Promise<{ id: number; flags: number }[]> {
    // A condition an index serves (a stream, a conversation, a sender, a search, an id, a flag only
    // rows carry) makes one query the right plan.
    const indexed =
      scope.historyOfStreamId !== undefined ||
      scope.conditions.some(
        (c) =>
          c.kind !== "not-muted" &&
          !c.negated &&
          (INDEXED_KINDS.has(c.kind) || (c.kind === "flag" && (c.bits & ~ROW_ONLY_FLAGS) === 0)),
      );
    if (indexed || op === "=") return this.rangeQuery(scope, op, anchor, order, limit, []);
    const window =
      order === "DESC"
        ? { sql: "m.id > ?", bound: Math.min(anchor, (await this.rows.maxId()) + 1) - SCAN_WINDOW }
        : { sql: "m.id < ?", bound: anchor + SCAN_WINDOW };
    const first = await this.rangeQuery(scope, op, anchor, order, limit, [[window.sql, window.bound]]);
    if (first.length >= limit) return first;
    const streams = await this.db.all<{ stream_id: number }>(
      "SELECT stream_id FROM subscriptions WHERE user_id = ?",
      [scope.userId],
    );
    const parts: { id: number; flags: number }[][] = [];
    for (const s of streams) {
      parts.push(
        await this.rangeQuery(scope, op, anchor, order, limit, [["m.stream_id = ?", Number(s.stream_id)]]),
      );
    }
    parts.push(
      await this.rangeQuery(scope, op, anchor, order, limit, [
        ["m.id IN (SELECT message_id FROM user_messages WHERE user_id = ?)", scope.userId],
      ]),
    );
    const byId = new Map<number, { id: number; flags: number }>();
    for (const part of parts) for (const r of part) byId.set(r.id, r);
    const sorted = [...byId.values()].sort((a, b) => (order === "ASC" ? a.id - b.id : b.id - a.id));
    return sorted.slice(0, limit);
  }

  private async rangeQuery(
    scope: MessageScope,
    op: "<" | "<=" | ">=" | ">" | "=",
    anchor: number,
    order: "ASC" | "DESC",
    limit: number,
    extra: readonly (readonly [string, SqlValue])[],
  ): Promise<{ id: number; flags: number }[]> {
    const params: SqlValue[] = [];
    const where = await this.scopeWhere(scope, params);
    where.push(`m.id ${op} ?`);
    params.push(anchor);
    for (const [sql, value] of extra) {
      where.push(sql);
      params.push(value);
    }
    params.push(limit);
    const rows = await this.db.all<{ id: number; flags: number }>(
      `SELECT m.id AS id, ${FLAGS_EXPR} AS flags FROM ${USER_FROM} WHERE ${where.join(" AND ")} ORDER BY m.id ${order} LIMIT ?`,
      params,
    );
    return rows.map((r) => ({ id: Number(r.id), flags: Number(r.flags) }));
  }

  /**
   * The WHERE terms of a scope (after USER_FROM's two parameters): a stream's whole history, or
   * the messages the user received. Flag narrows get an index-friendly bound: rows only for the
   * flags only rows carry, and no message below the lowest possible unread one for `is:unread`.
   */
  private async scopeWhere(scope: MessageScope, params: SqlValue[]): Promise<string[]> {
    params.push(scope.userId, scope.userId);
    const where: string[] = [];
    if (scope.historyOfStreamId !== undefined) {
      where.push("m.stream_id = ?");
      params.push(scope.historyOfStreamId);
    } else {
      where.push(RECEIVED);
    }
    for (const c of scope.conditions) {
      // SQLite indexes messages for search in batches: bring the index up to date first.
      if (c.kind === "search" && c.terms.length > 0 && this.db.dialect === "sqlite") {
        await this.db.run(SEARCH_CATCH_UP_SQL);
      }
      where.push(conditionSql(c, params, this.db.dialect));
      if ((c.kind === "private" || c.kind === "pm") && !c.negated) {
        // Private messages always have a row per recipient.
        where.push("m.id IN (SELECT message_id FROM user_messages WHERE user_id = ?)");
        params.push(scope.userId);
      }
      if (c.kind !== "flag") continue;
      if (!c.negated && (c.bits & ~ROW_ONLY_FLAGS) === 0) {
        where.push(
          `m.id IN (SELECT message_id FROM user_messages WHERE user_id = ? AND (flags & ${c.bits}) <> 0)`,
        );
        params.push(scope.userId);
      } else if (c.negated && c.bits === READ) {
        where.push("m.id >= ?");
        params.push(await this.lowestPossibleUnread(scope.userId));
      }
    }
    return where;
  }

  /** No message below this id is unread for the user (the lowest unread row or watermark + 1). */
  private async lowestPossibleUnread(userId: number): Promise<number> {
    const r = await this.db.get<{ a: number | null; b: number | null }>(
      `SELECT (SELECT MIN(message_id) FROM user_messages WHERE user_id = ? AND (flags & 1) = 0) AS a,
              (SELECT MIN(read_upto) FROM subscriptions WHERE user_id = ?) AS b`,
      [userId, userId],
    );
    const a = r?.a == null ? Number.MAX_SAFE_INTEGER : Number(r.a);
    const b = r?.b == null ? Number.MAX_SAFE_INTEGER : Number(r.b) + 1;
    return Math.min(a, b);
  }

  /** Which of `ids` are in `scope` (GET /messages/matches_narrow), ascending. */
  async matchingIds(scope: MessageScope, ids: readonly number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const params: SqlValue[] = [];
    const where = await this.scopeWhere(scope, params);
    where.push(`m.id IN ${jsonIdsIn(this.db)}`);
    params.push(JSON.stringify(ids));
    const rows = await this.db.all<{ id: number }>(
      `SELECT m.id AS id FROM ${USER_FROM} WHERE ${where.join(" AND ")} ORDER BY m.id`,
      params,
    );
    return rows.map((r) => Number(r.id));
  }

  /** Highest message id the user received; -1 when none. */
  async maxMessageId(userId: number): Promise<number> {
    const [last] = await this.range({ userId, conditions: [] }, ">=", 0, "DESC", 1);
    return last === undefined ? -1 : last.id;
  }

  /** Whether the user received a message of this topic. */
  async hasTopic(userId: number, streamId: number, topic: string): Promise<boolean> {
    const [first] = await this.range(
      {
        userId,
        conditions: [
          { kind: "stream", streamId, negated: false },
          { kind: "topic", topic, negated: false },
        ],
      },
      ">=",
      0,
      "ASC",
      1,
    );
    return first !== undefined;
  }

  /**
   * The user's unread messages, ascending, at most `limit` (the newest ones), optionally of one
   * stream or topic (flattened from unreadState).
   */
  async unreadRows(userId: number, limit: number, filter: FlagFilter = {}): Promise<UnreadRow[]> {
    const { rows, groups } = await this.unreadState(userId, filter);
    const out = [...rows];
    for (const g of groups) {
      for (const id of g.ids) {
        out.push({ id, flags: g.flags, streamId: g.streamId, topic: g.topic, pmKey: null, senderId: 0 });
      }
    }
    out.sort((a, b) => a.id - b.id);
    return out.length > limit ? out.slice(out.length - limit) : out;
  }

  /** See unread-state.ts. */
  async unreadState(userId: number, filter: FlagFilter = {}): Promise<UnreadState> {
    return unreadState(this.db, userId, filter);
  }

  /** Ids of the messages the user received in a stream (optionally one topic), ascending. */
  private async receivedIds(userId: number, streamId: number, topic: string | undefined): Promise<number[]> {
    const params: SqlValue[] = [userId, userId, streamId];
    let sql = `SELECT m.id AS id FROM ${USER_FROM} WHERE m.stream_id = ? AND ${RECEIVED}`;
    if (topic !== undefined) {
      sql += " AND lower(m.topic) = lower(?)";
      params.push(topic);
    }
    const rows = await this.db.all<{ id: number }>(`${sql} ORDER BY m.id`, params);
    return rows.map((r) => Number(r.id));
  }

  /**
   * Serialises the user's flag changes until the transaction ends. A change reads the user's
   * flags and writes them back, moves watermarks and drops rows: two at once for one user (two
   * clients marking messages read) lost one's write or deadlocked on PostgreSQL. SQLite
   * transactions never interleave (sqlite.ts); outside a transaction this holds nothing.
   */
  async lockUser(userId: number): Promise<void> {
    if (this.db.dialect !== "postgres" || this.locked.has(userId)) return;
    await this.db.get("SELECT pg_advisory_xact_lock(?, ?)", [FLAG_LOCK_CLASS, userId]);
    // Held until the transaction ends; outside one (the pool itself) it was released at once.
    if (!("transaction" in this.db)) this.locked.add(userId);
  }

  /** Every message marked read: the watermarks at the newest message, the rows read, none left redundant. */
  async markAllRead(userId: number): Promise<void> {
    await this.lockUser(userId);
    await this.db.run("UPDATE subscriptions SET read_upto = ? WHERE user_id = ?", [
      await this.rows.maxId(),
      userId,
    ]);
    await this.db.run("UPDATE user_messages SET flags = flags | 1 WHERE user_id = ? AND (flags & 1) = 0", [
      userId,
    ]);
    await this.dropRedundantRows(userId, {});
  }

  /**
   * Sets (`add`) or clears a flag bit on the user's messages: some ids, a stream, or a stream's
   * topic (case-insensitive), among those the user received. Returns the ids that changed,
   * ascending. Marking a whole stream read moves its watermark; other changes write rows, then
   * move the watermark over what is read and drop the rows that became redundant.
   */
  async changeFlag(userId: number, bit: number, add: boolean, filter: FlagFilter): Promise<number[]> {
    await this.lockUser(userId);
    if (filter.messageIds === undefined && filter.streamId === undefined) {
      if (bit === READ && add) {
        const changed = (await this.unreadRows(userId, Number.MAX_SAFE_INTEGER)).map((r) => r.id);
        await this.markAllRead(userId);
        return changed;
      }
      throw new Error("changeFlag: a flag other than read needs message ids or a stream");
    }
    if (filter.messageIds === undefined && bit === READ && add && filter.topic === undefined) {
      const streamId = filter.streamId!;
      const changed = (await this.unreadRows(userId, Number.MAX_SAFE_INTEGER, { streamId })).map((r) => r.id);
      await this.db.run("UPDATE subscriptions SET read_upto = ? WHERE user_id = ? AND stream_id = ?", [
        await this.rows.maxId(),
        userId,
        streamId,
      ]);
      await this.db.run(
        `UPDATE user_messages SET flags = flags | 1 WHERE user_id = ? AND (flags & 1) = 0
         AND message_id IN (SELECT id FROM messages WHERE stream_id = ?)`,
        [userId, streamId],
      );
      await this.dropRedundantRows(userId, { streamId });
      return changed.sort((a, b) => a - b);
    }
    let ids = filter.messageIds;
    if (ids === undefined) ids = await this.receivedIds(userId, filter.streamId!, filter.topic);
    else if (filter.streamId !== undefined) {
      const inStream = new Set(await this.receivedIds(userId, filter.streamId, filter.topic));
      ids = ids.filter((id) => inStream.has(id));
    }
    if (ids.length === 0) return [];
    const current = await this.flagsOfMany(userId, [...new Set(ids)]);
    const writes: [number, number, number][] = [];
    for (const [id, flags] of current) {
      const has = (flags & bit) !== 0;
      if (has !== add) writes.push([userId, id, add ? flags | bit : flags & ~bit]);
    }
    if (writes.length === 0) return [];
    const changed = writes.map((w) => w[1]).sort((a, b) => a - b);
    await this.rows.upsertRows(writes, add ? { set: bit, clear: 0 } : { set: 0, clear: bit });
    if (bit === READ && add) {
      const streams = await this.db.all<{ stream_id: number }>(
        `SELECT DISTINCT stream_id FROM messages WHERE id IN ${jsonIdsIn(this.db)} AND recipient_flags IS NOT NULL`,
        [JSON.stringify(changed)],
      );
      for (const s of streams) await this.advanceWatermark(userId, Number(s.stream_id));
    }
    await this.dropRedundantRows(userId, { messageIds: changed });
    return changed;
  }

  /**
   * Moves the user's watermark of a stream up to just below their first unread message there (or
   * the newest message), then drops the rows that became redundant.
   */
  private async advanceWatermark(userId: number, streamId: number): Promise<void> {
    const sub = await this.db.get<{ read_upto: number }>(
      "SELECT read_upto FROM subscriptions WHERE user_id = ? AND stream_id = ?",
      [userId, streamId],
    );
    if (sub === undefined) return;
    const from = Number(sub.read_upto);
    const first = await this.db.get<{ id: number }>(
      `SELECT m.id AS id FROM ${USER_FROM} WHERE m.stream_id = ? AND m.id > ? AND ${RECEIVED}
       AND (${FLAGS_EXPR} & 1) = 0 ORDER BY m.id LIMIT 1`,
      [userId, userId, streamId, from],
    );
    const to = first === undefined ? await this.rows.maxId() : Number(first.id) - 1;
    if (to <= from) return;
    await this.db.run(
      "UPDATE subscriptions SET read_upto = ? WHERE user_id = ? AND stream_id = ? AND read_upto < ?",
      [to, userId, streamId, to],
    );
    await this.dropRedundantRows(userId, { streamId });
  }

  /** Deletes the user's rows of sparse messages that say what the derived flags say. */
  private async dropRedundantRows(userId: number, filter: FlagFilter): Promise<void> {
    const params: SqlValue[] = [userId, userId];
    let extra = "";
    if (filter.messageIds !== undefined) {
      if (filter.messageIds.length === 0) return;
      extra = ` AND um2.message_id IN ${jsonIdsIn(this.db)}`;
      params.push(JSON.stringify(filter.messageIds));
    } else if (filter.streamId !== undefined) {
      extra = " AND m.stream_id = ?";
      params.push(filter.streamId);
    }
    await this.db.run(
      `DELETE FROM user_messages WHERE user_id = ? AND message_id IN (
         SELECT m.id FROM user_messages um2 JOIN messages m ON m.id = um2.message_id
         JOIN subscriptions sub ON sub.user_id = um2.user_id AND sub.stream_id = m.stream_id
         WHERE um2.user_id = ?${extra} AND ${COVERED}
           AND um2.flags = (m.recipient_flags | ${DERIVED_READ}))`,
      params,
    );
  }

  /**
   * A row for a user who did not receive the message (public history: starring, reacting; a move
   * into their stream), replacing a "not received" row; none when they did, or when another
   * transaction wrote one since (their flags stay).
   */
  async insertUserMessage(userId: number, messageId: number, flags: number): Promise<void> {
    await this.insertUserMessages(userId, [messageId], flags);
  }

  /** `insertUserMessage` for several messages of one user. */
  async insertUserMessages(userId: number, messageIds: readonly number[], flags: number): Promise<void> {
    const have = await this.flagsOfMany(userId, messageIds);
    const rows = messageIds.filter((id) => !have.has(id)).map((id) => [userId, id, flags] as const);
    await this.rows.upsertRows(rows, "received");
  }

  /**
   * `insertUserMessage` for every pair of `userIds` and `messageIds` when the messages have a row per
   * recipient (moved messages, after `densify`): an existing row stays, a "not received" one is
   * replaced. The pairs are made a statement's worth at a time (a move into a large stream gives
   * each new subscriber every moved message: millions of rows).
   */
  async insertDenseUserMessages(
    userIds: readonly number[],
    messageIds: readonly number[],
    flags: number,
  ): Promise<void> {
    let batch: [number, number, number][] = [];
    for (const messageId of messageIds) {
      for (const userId of userIds) {
        batch.push([userId, messageId, flags]);
        if (batch.length === ROWS_PER_STATEMENT) {
          await this.rows.upsertRows(batch, "received");
          batch = [];
        }
      }
    }
    await this.rows.upsertRows(batch, "received");
  }

  /**
   * Sets the `mask` bits of several users' flags of one message to those of `flags` (the user's
   * whole flags when they have no row yet); the user's other bits stay as they are when written.
   */
  async setUserFlags(
    messageId: number,
    mask: number,
    changes: readonly { userId: number; flags: number }[],
  ): Promise<void> {
    if (changes.length === 0) return;
    const bySet = new Map<number, [number, number, number][]>();
    for (const c of changes) {
      const set = c.flags & mask;
      const group = bySet.get(set);
      if (group === undefined) bySet.set(set, [[c.userId, messageId, c.flags]]);
      else group.push([c.userId, messageId, c.flags]);
    }
    for (const [set, rows] of bySet) await this.rows.upsertRows(rows, { set, clear: mask & ~set });
    for (const c of changes) await this.dropRedundantRows(c.userId, { messageIds: [messageId] });
  }
}
