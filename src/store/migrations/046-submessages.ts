import type { Migration } from "./types.js";

/**
 * Submessages (Zulip's SubMessage): the widget a `/poll`, `/todo` or bot `widget_content` message
 * creates, and each vote, option, task or tick added to it through POST /submessage. `content` is
 * the JSON text as clients send and read it.
 */
export const submessages: Migration = {
  id: "046-submessages",
  up: (t) => `
CREATE TABLE submessages (
  id ${t.id},
  message_id ${t.bigint} NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
  sender_id ${t.bigint} NOT NULL REFERENCES users(id),
  msg_type TEXT NOT NULL,
  content TEXT NOT NULL
);
CREATE INDEX submessages_message ON submessages (message_id, id)`,
};
