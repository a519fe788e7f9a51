/** Register's unread messages as stored since migration 021 (see narrow-sql.ts for the model). */
import type { Queryable, SqlValue } from "./db.js";
import { NOT_RECEIVED } from "./narrow-sql.js";
import type { UnreadRow } from "../domain/messages/types.js";

interface UnreadSqlRow {
  id: number;
  flags: number;
  stream_id: number | null;
  topic: string;
  pm_key: string | null;
  sender_id: number;
}

/** Sparse stream messages a user has unread: one stream, topic and derived flags. */
/** Which of a user's messages a flag change or an unread query covers. */
export interface FlagFilter {
  messageIds?: readonly number[];
  streamId?: number;
  topic?: string;
}

export interface UnreadGroup {
  streamId: number;
  topic: string;
  flags: number;
  /** Ascending. */
  ids: number[];
}

export interface UnreadState {
  rows: UnreadRow[];
  groups: UnreadGroup[];
}

/**
 * The user's unread messages, optionally of one stream or topic: `rows`, the unread rows
 * (partial index user_messages_unread; private messages and exceptions), ascending; `groups`, the
 * sparse stream messages without a row above the watermark of each subscription interval, one
 * list of ids (ascending) per stream, topic and derived flags. Grouped in SQL: 50,000 unread
 * messages are ~100 result rows instead of 50,000.
 */
export async function unreadState(
  db: Queryable,
  userId: number,
  filter: FlagFilter = {},
): Promise<UnreadState> {
  const where: string[] = [];
  const fp: SqlValue[] = [];
  if (filter.streamId !== undefined) {
    where.push("m.stream_id = ?");
    fp.push(filter.streamId);
    if (filter.topic !== undefined) {
      where.push("lower(m.topic) = lower(?)");
      fp.push(filter.topic);
    }
  }
  const extra = where.map((w) => ` AND ${w}`).join("");
  const explicit = await db.all<UnreadSqlRow>(
    `SELECT m.id AS id, m.stream_id AS stream_id, m.topic AS topic, m.pm_key AS pm_key, m.sender_id AS sender_id,
       um.flags AS flags
     FROM user_messages um JOIN messages m ON m.id = um.message_id
     WHERE um.user_id = ? AND (um.flags & 1) = 0 AND (um.flags & ${NOT_RECEIVED}) = 0${extra}
     ORDER BY um.message_id`,
    [userId, ...fp],
  );
  const rows: UnreadRow[] = explicit.map((r) => ({
    id: Number(r.id),
    flags: Number(r.flags),
    streamId: r.stream_id === null ? null : Number(r.stream_id),
    topic: r.topic,
    pmKey: r.pm_key,
    senderId: Number(r.sender_id),
  }));
  const agg = db.dialect === "sqlite" ? "group_concat(m.id)" : "string_agg(m.id::text, ',' ORDER BY m.id)";
  const grouped = await db.all<{ stream_id: number; topic: string; flags: number; ids: string }>(
    `SELECT m.stream_id AS stream_id, m.topic AS topic, m.recipient_flags AS flags, ${agg} AS ids
     FROM subscriptions sub JOIN messages m ON m.stream_id = sub.stream_id
     WHERE sub.user_id = ? AND sub.active = 1 AND m.id >= sub.active_from AND m.id > sub.read_upto
       AND m.recipient_flags IS NOT NULL AND m.sender_id <> sub.user_id${extra}
     GROUP BY m.stream_id, m.topic, m.recipient_flags
     UNION ALL
     SELECT m.stream_id AS stream_id, m.topic AS topic, m.recipient_flags AS flags, ${agg} AS ids
     FROM subscription_intervals si
       JOIN subscriptions sub ON sub.user_id = si.user_id AND sub.stream_id = si.stream_id
       JOIN messages m ON m.stream_id = si.stream_id
     WHERE si.user_id = ? AND m.id >= si.from_id AND m.id < si.to_id AND m.id > sub.read_upto
       AND m.recipient_flags IS NOT NULL AND m.sender_id <> si.user_id${extra}
     GROUP BY m.stream_id, m.topic, m.recipient_flags`,
    [userId, ...fp, userId, ...fp],
  );
  if (grouped.length === 0) return { rows, groups: [] };
  // A row decides for its message (read, or unread and listed above, or not received).
  const lowest = await db.get<{ w: number | null }>(
    "SELECT MIN(read_upto) AS w FROM subscriptions WHERE user_id = ?",
    [userId],
  );
  const withRows = new Set(
    (
      await db.all<{ message_id: number }>(
        "SELECT message_id FROM user_messages WHERE user_id = ? AND message_id > ?",
        [userId, lowest?.w == null ? 0 : Number(lowest.w)],
      )
    ).map((r) => Number(r.message_id)),
  );
  const byKey = new Map<string, UnreadGroup>();
  for (const g of grouped) {
    const key = `${g.stream_id}\u0000${g.flags}\u0000${g.topic}`;
    let group = byKey.get(key);
    if (group === undefined) {
      group = { streamId: Number(g.stream_id), topic: g.topic, flags: Number(g.flags), ids: [] };
      byKey.set(key, group);
    }
    for (const part of String(g.ids).split(",")) {
      const id = Number(part);
      if (!withRows.has(id)) group.ids.push(id);
    }
  }
  const groups = [...byKey.values()].filter((g) => g.ids.length > 0);
  for (const g of groups) {
    for (let i = 1; i < g.ids.length; i++) {
      if (g.ids[i]! < g.ids[i - 1]!) {
        g.ids.sort((a, b) => a - b);
        break;
      }
    }
  }
  return { rows, groups };
}
