import type { Migration } from "./types.js";

/**
 * Drafts (Zulip's Draft: synced between a user's clients; `recipients` is the JSON list shown as
 * `to`) and scheduled messages (Zulip's ScheduledMessage: sent by the delivery worker at
 * `scheduled_timestamp`; `claimed_until` (ms) lets one server process at a time send each, and a
 * claim that outlives a crash expires so another process picks the message up).
 */
export const draftsScheduledMessages: Migration = {
  id: "025-drafts-scheduled-messages",
  up: (t) => `
CREATE TABLE drafts (
  id ${t.id},
  user_id ${t.bigint} NOT NULL REFERENCES users(id),
  type TEXT NOT NULL,
  recipients TEXT NOT NULL,
  topic TEXT NOT NULL DEFAULT '',
  content TEXT NOT NULL,
  last_edit_time ${t.bigint} NOT NULL
);
CREATE INDEX drafts_user ON drafts (user_id, last_edit_time);
CREATE TABLE scheduled_messages (
  id ${t.id},
  sender_id ${t.bigint} NOT NULL REFERENCES users(id),
  type TEXT NOT NULL,
  stream_id ${t.bigint},
  recipients TEXT NOT NULL,
  topic TEXT NOT NULL DEFAULT '',
  content TEXT NOT NULL,
  rendered_content TEXT NOT NULL,
  scheduled_timestamp ${t.bigint} NOT NULL,
  delivered INTEGER NOT NULL DEFAULT 0,
  failed INTEGER NOT NULL DEFAULT 0,
  failure_message TEXT,
  delivered_message_id ${t.bigint},
  claimed_until ${t.bigint}
);
CREATE INDEX scheduled_messages_due ON scheduled_messages (delivered, failed, scheduled_timestamp);
CREATE INDEX scheduled_messages_sender ON scheduled_messages (sender_id)`,
};
