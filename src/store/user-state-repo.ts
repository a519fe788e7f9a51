import type { Queryable } from "./db.js";

/** A direct-message conversation as register's `recent_private_conversations` lists it. */
export interface RecentConversationRow {
  pmKey: string;
  maxMessageId: number;
}

/** A muted topic with its stream id (register's `user_topics`). */
export interface UserTopicRow {
  streamId: number;
  topic: string;
  dateMuted: number;
}

/** Read-only per-user state that register reports and no other area owns a query for. */
export class UserStateRepo {
  constructor(private readonly db: Queryable) {}

  /** Ids of the messages the user starred, ascending. */
  async starredMessageIds(userId: number): Promise<number[]> {
    const rows = await this.db.all<{ message_id: number }>(
      "SELECT message_id FROM user_messages WHERE user_id = ? AND (flags & 2) <> 0 ORDER BY message_id",
      [userId],
    );
    return rows.map((r) => Number(r.message_id));
  }

  /** The user's direct-message conversations, most recent first (at most `limit`). */
  async recentConversations(userId: number, limit: number): Promise<RecentConversationRow[]> {
    const rows = await this.db.all<{ pm_key: string; max_id: number }>(
      `SELECT m.pm_key, MAX(m.id) AS max_id FROM user_messages um JOIN messages m ON m.id = um.message_id
       WHERE um.user_id = ? AND m.pm_key IS NOT NULL GROUP BY m.pm_key ORDER BY max_id DESC LIMIT ?`,
      [userId, limit],
    );
    return rows.map((r) => ({ pmKey: r.pm_key, maxMessageId: Number(r.max_id) }));
  }

  /** The user's muted topics, oldest first. */
  async mutedTopics(userId: number): Promise<UserTopicRow[]> {
    const rows = await this.db.all<{ stream_id: number; topic: string; date_muted: number }>(
      "SELECT stream_id, topic, date_muted FROM muted_topics WHERE user_id = ? ORDER BY date_muted, stream_id, topic_lower",
      [userId],
    );
    return rows.map((r) => ({
      streamId: Number(r.stream_id),
      topic: r.topic,
      dateMuted: Number(r.date_muted),
    }));
  }

  /** Ids of the realm's default streams (new users join them), ascending. */
  async defaultStreamIds(): Promise<number[]> {
    const rows = await this.db.all<{ id: number }>("SELECT id FROM streams WHERE is_default = 1 ORDER BY id");
    return rows.map((r) => Number(r.id));
  }
}
