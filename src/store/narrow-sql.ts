/** A narrow's conditions as SQL over `messages m` left-joined to the user's `user_messages um`. */
import type { Queryable, SqlValue } from "./db.js";
import type { MessageCondition } from "../domain/messages/types.js";

/** Flags of a message a user never received but may read through public history: read + historical. */
const HISTORICAL = 1 | 1024;

/** How a range query reads the user's messages. */
export interface MessageScope {
  userId: number;
  /**
   * When set, every message of this stream is visible (public history), with HISTORICAL flags for
   * those the user never received; otherwise only the user's own user_messages rows.
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
    case "not-muted":
      // Muted topics: pairs of stream id and lower-cased topic.
      if (c.topics.length === 0) return "1 = 1";
      sql = `NOT (${c.topics.map(() => "(m.stream_id = ? AND lower(m.topic) = ?)").join(" OR ")})`;
      for (const t of c.topics) params.push(t.streamId, t.topicLower);
      return sql;
  }
  return c.negated ? `NOT (${sql})` : `(${sql})`;
}

export const FLAGS_EXPR = `COALESCE(um.flags, ${HISTORICAL})`;
