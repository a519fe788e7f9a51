import type { Migration } from "./types.js";

/**
 * Messages and their per-recipient rows.
 *
 * - `recipients`: Zulip's Recipient: one row per stream (type 2, key = stream id), per user for
 *   one-to-one private messages (type 1, key = user id) and per group conversation (type 3, key =
 *   the sorted participant ids "3,5,9"). `messages.recipient_id` points here.
 * - `messages`: stream messages carry `stream_id` and `topic`; private messages carry `pm_key`, the
 *   sorted participant ids including the sender ("3,5"; "3" for a note to self). Times are seconds.
 *   `edit_history` is Zulip's stored JSON list, newest entry first; NULL when never edited.
 * - `user_messages`: one row per recipient, `flags` is Zulip's bitmask (read 1, starred 2,
 *   collapsed 4, mentioned 8, wildcard_mentioned 16, has_alert_word 512, historical 1024,
 *   is_private 2048).
 */
export const messages: Migration = {
  id: "003-messages",
  up: (t) => `
CREATE TABLE recipients (
  id ${t.id},
  type INTEGER NOT NULL,
  type_key TEXT NOT NULL,
  UNIQUE (type, type_key)
);
CREATE TABLE messages (
  id ${t.id},
  sender_id ${t.bigint} NOT NULL REFERENCES users(id),
  recipient_id ${t.bigint} NOT NULL REFERENCES recipients(id),
  stream_id ${t.bigint},
  topic TEXT NOT NULL DEFAULT '',
  pm_key TEXT,
  content TEXT NOT NULL,
  rendered_content TEXT NOT NULL,
  client TEXT NOT NULL,
  date_sent ${t.bigint} NOT NULL,
  last_edit_time ${t.bigint},
  edit_history TEXT,
  is_me_message INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX messages_stream_topic ON messages(stream_id, topic, id);
CREATE INDEX messages_stream ON messages(stream_id, id);
CREATE INDEX messages_pm_key ON messages(pm_key, id);
CREATE INDEX messages_sender ON messages(sender_id, id);
CREATE TABLE user_messages (
  user_id ${t.bigint} NOT NULL REFERENCES users(id),
  message_id ${t.bigint} NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
  flags ${t.bigint} NOT NULL DEFAULT 0,
  PRIMARY KEY (user_id, message_id)
);
CREATE INDEX user_messages_message ON user_messages(message_id);
CREATE INDEX user_messages_unread ON user_messages(user_id, message_id) WHERE (flags & 1) = 0`,
};
