import type { Migration } from "./types.js";

/**
 * Uploaded files (Zulip's Attachment) and the messages that link them.
 *
 * - `attachments`: one row per upload; `path_id` is the URL path after `/user_uploads/`
 *   ("2/ce/<random>/name.pdf"), `storage_key` where the storage backend keeps the bytes,
 *   `content_type` what the bytes were sniffed as; `create_time_ms` in milliseconds.
 * - `attachment_messages`: which messages link an attachment (set when its owner sends or edits
 *   a message with its URL); vanishes with the message.
 */
export const attachments: Migration = {
  id: "012-attachments",
  up: (t) => `
CREATE TABLE attachments (
  id ${t.id},
  path_id TEXT NOT NULL UNIQUE,
  storage_key TEXT NOT NULL,
  file_name TEXT NOT NULL,
  size ${t.bigint} NOT NULL,
  content_type TEXT NOT NULL,
  owner_id ${t.bigint} NOT NULL REFERENCES users(id),
  create_time_ms ${t.bigint} NOT NULL
);
CREATE INDEX attachments_owner ON attachments(owner_id, id);
CREATE TABLE attachment_messages (
  attachment_id ${t.bigint} NOT NULL REFERENCES attachments(id) ON DELETE CASCADE,
  message_id ${t.bigint} NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
  PRIMARY KEY (attachment_id, message_id)
);
CREATE INDEX attachment_messages_message ON attachment_messages(message_id)`,
};
