import type { Queryable } from "./db.js";
import type { Reaction } from "../domain/messages/types.js";

interface ReactionRow {
  message_id: number;
  user_id: number;
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
}

function toReaction(r: ReactionRow): Reaction {
  return {
    messageId: Number(r.message_id),
    userId: Number(r.user_id),
    emojiName: r.emoji_name,
    emojiCode: r.emoji_code,
    reactionType: r.reaction_type as Reaction["reactionType"],
  };
}

const COLUMNS = "message_id, user_id, emoji_name, emoji_code, reaction_type";

/** Emoji reactions on messages. Only this class runs SQL about reactions. */
export class ReactionsRepo {
  constructor(private readonly db: Queryable) {}

  /** Adds the reaction; false when the user already has it (same emoji code and type). */
  async add(r: Reaction): Promise<boolean> {
    const res = await this.db.run(
      `INSERT INTO reactions (${COLUMNS}) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
      [r.messageId, r.userId, r.emojiName, r.emojiCode, r.reactionType],
    );
    return res.changes > 0;
  }

  /** Removes the user's reaction; the removed row, or undefined when there was none. */
  async remove(
    messageId: number,
    userId: number,
    emojiCode: string,
    reactionType: string,
  ): Promise<Reaction | undefined> {
    const row = await this.db.get<ReactionRow>(
      `DELETE FROM reactions WHERE message_id = ? AND user_id = ? AND emoji_code = ? AND reaction_type = ?
       RETURNING ${COLUMNS}`,
      [messageId, userId, emojiCode, reactionType],
    );
    return row === undefined ? undefined : toReaction(row);
  }

  /** The user's reaction with this emoji, if any. */
  async find(
    messageId: number,
    userId: number,
    emojiCode: string,
    reactionType: string,
  ): Promise<Reaction | undefined> {
    const row = await this.db.get<ReactionRow>(
      `SELECT ${COLUMNS} FROM reactions
       WHERE message_id = ? AND user_id = ? AND emoji_code = ? AND reaction_type = ?`,
      [messageId, userId, emojiCode, reactionType],
    );
    return row === undefined ? undefined : toReaction(row);
  }

  /** The oldest reaction of anyone with this emoji on the message (a new one is a vote for it). */
  async firstWithEmoji(
    messageId: number,
    emojiCode: string,
    reactionType: string,
  ): Promise<Reaction | undefined> {
    const row = await this.db.get<ReactionRow>(
      `SELECT ${COLUMNS} FROM reactions WHERE message_id = ? AND emoji_code = ? AND reaction_type = ?
       ORDER BY id LIMIT 1`,
      [messageId, emojiCode, reactionType],
    );
    return row === undefined ? undefined : toReaction(row);
  }

  /**
   * Every reaction on these messages in ONE query (a JSON array parameter, whatever the number of
   * ids), in the order they were added.
   */
  async forMessages(messageIds: readonly number[]): Promise<Reaction[]> {
    if (messageIds.length === 0) return [];
    const ids =
      this.db.dialect === "sqlite"
        ? "(SELECT value FROM json_each(?))"
        : "(SELECT json_array_elements_text(?::json)::bigint)";
    const rows = await this.db.all<ReactionRow>(
      `SELECT ${COLUMNS} FROM reactions WHERE message_id IN ${ids} ORDER BY id`,
      [JSON.stringify(messageIds)],
    );
    return rows.map(toReaction);
  }
}
