import type { Migration } from "./types.js";

/**
 * Emoji reactions (Zulip's Reaction): one row per user, message and emoji. An emoji is identified
 * by (`emoji_code`, `reaction_type`); `emoji_name` is how it was named when added. Rows are listed
 * in insertion order (`id`), as Zulip does, and vanish with their message.
 */
export const reactions: Migration = {
  id: "006-reactions",
  up: (t) => `
CREATE TABLE reactions (
  id ${t.id},
  message_id ${t.bigint} NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
  user_id ${t.bigint} NOT NULL REFERENCES users(id),
  emoji_name TEXT NOT NULL,
  emoji_code TEXT NOT NULL,
  reaction_type TEXT NOT NULL,
  UNIQUE (message_id, user_id, emoji_code, reaction_type)
)`,
};
