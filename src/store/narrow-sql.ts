/**
 * A narrow's conditions as SQL over `messages m` left-joined to the user's `user_messages um` and
 * subscription `sub` (USER_FROM), and what the user received of it, with which flags.
 *
 * Stream messages are stored sparsely (migration 021): `m.recipient_flags` is not NULL and a user
 * has a row only where their flags differ from the derived ones. A user received such a message
 * iff its id falls in one of their subscription intervals (the active one, [sub.active_from, ∞),
 * or a closed one in `subscription_intervals`); without a row its flags are `m.recipient_flags`
 * plus `read` when its id ≤ `sub.read_upto` (the read watermark) or the user sent it. A row always
 * wins; a row with NOT_RECEIVED says the user did not receive it (a deactivated subscriber).
 * Messages with `recipient_flags` NULL (private messages, moved messages) have a row per recipient.
 */
import type { Queryable, SqlValue } from "./db.js";
import type { MessageCondition } from "../domain/messages/types.js";

/** Flags of a message a user never received but may read through public history: read + historical. */
const HISTORICAL = 1 | 1024;

/** The bit of a `user_messages` row saying "not received" (never shown: not an API flag). */
export const NOT_RECEIVED = 1 << 24;

/** `messages m`, the user's row `um` and subscription `sub`: two parameters, the user id twice. */
export const USER_FROM =
  "messages m LEFT JOIN user_messages um ON um.message_id = m.id AND um.user_id = ? " +
  "LEFT JOIN subscriptions sub ON sub.user_id = ? AND sub.stream_id = m.stream_id";

/** Whether sparse message m falls in one of sub's user's subscription intervals. */
export const COVERED =
  "(m.recipient_flags IS NOT NULL AND ((sub.active = 1 AND m.id >= sub.active_from) OR EXISTS " +
  "(SELECT 1 FROM subscription_intervals si WHERE si.user_id = sub.user_id AND si.stream_id = m.stream_id " +
  "AND si.from_id <= m.id AND si.to_id > m.id)))";

/** The derived read bit of a covered message without a row. */
export const DERIVED_READ =
  "(CASE WHEN m.id <= sub.read_upto OR m.sender_id = sub.user_id THEN 1 ELSE 0 END)";

/** Whether the user received message m. */
export const RECEIVED = `(CASE WHEN um.flags IS NOT NULL THEN (um.flags & ${NOT_RECEIVED}) = 0 ELSE ${COVERED} END)`;

/** How a range query reads the user's messages. */
export interface MessageScope {
  userId: number;
  /**
   * When set, every message of this stream is visible (public history), with HISTORICAL flags for
   * those the user never received; otherwise only the messages the user received.
   */
  historyOfStreamId?: number | undefined;
  conditions: readonly MessageCondition[];
}

export function conditionSql(c: MessageCondition, params: SqlValue[], dialect: Queryable["dialect"]): string {
  let sql: string;
  switch (c.kind) {
    case "search":
      if (c.terms.length === 0) return "1 = 1";
      if (dialect === "sqlite") {
        sql = "m.id IN (SELECT rowid FROM messages_fts WHERE messages_fts MATCH ?)";
        params.push(c.terms.map((t) => `"${t.replace(/"/g, '""')}"`).join(" "));
      } else {
        sql = `m.search_tsv @@ (${c.terms.map(() => "phraseto_tsquery('english', ?)").join(" && ")})`;
        params.push(...c.terms);
      }
      break;
    case "has":
      sql = `m.has_${c.what} = 1`;
      break;
    case "id":
      sql = "m.id = ?";
      params.push(c.id);
      break;
    case "stream":
      sql = "m.stream_id = ?";
      params.push(c.streamId);
      break;
    case "topic":
      sql = "m.stream_id IS NOT NULL AND lower(m.topic) = lower(?)";
      params.push(c.topic);
      break;
    case "sender":
      sql = "m.sender_id = ?";
      params.push(c.userId);
      break;
    case "pm":
      sql = "m.pm_key = ?";
      params.push(c.pmKey);
      break;
    case "private":
      sql = "m.pm_key IS NOT NULL";
      break;
    case "flag":
      sql = `(${FLAGS_EXPR} & ${c.bits}) <> 0`;
      break;
    case "pm-including":
      sql = "m.pm_key IS NOT NULL AND (',' || m.pm_key || ',') LIKE ?";
      params.push(`%,${c.userId},%`);
      break;
    case "public-streams":
      sql = `m.stream_id IN (SELECT id FROM streams WHERE invite_only = 0${c.webPublicOnly ? " AND is_web_public = 1" : ""})`;
      break;
    case "topics":
      sql =
        c.topics.length === 0
          ? "1 = 0"
          : c.topics.map(() => "(m.stream_id = ? AND lower(m.topic) = ?)").join(" OR ");
      for (const t of c.topics) params.push(t.streamId, t.topicLower);
      break;
    case "resolved":
      sql = "m.stream_id IS NOT NULL AND m.topic LIKE ?";
      params.push("\u2714 %");
      break;
    case "reacted":
      sql = "EXISTS (SELECT 1 FROM reactions r WHERE r.message_id = m.id)";
      break;
    case "not-muted":
      // Muted topics: pairs of stream id and lower-cased topic.
      if (c.topics.length === 0) return "1 = 1";
      sql = `NOT (${c.topics.map(() => "(m.stream_id = ? AND lower(m.topic) = ?)").join(" OR ")})`;
      for (const t of c.topics) params.push(t.streamId, t.topicLower);
      return sql;
  }
  return c.negated ? `NOT (${sql})` : `(${sql})`;
}

/** The user's flags for message m: the row's, the derived ones, or read + historical. */
export const FLAGS_EXPR =
  `(CASE WHEN um.flags IS NOT NULL AND (um.flags & ${NOT_RECEIVED}) = 0 THEN um.flags ` +
  `WHEN ${COVERED} THEN m.recipient_flags | ${DERIVED_READ} ELSE ${HISTORICAL} END)`;
