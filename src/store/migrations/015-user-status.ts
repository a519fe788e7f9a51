import type { Migration } from "./types.js";

/**
 * User status (Zulip's UserStatus): one row per user who set one — a status text, an emoji and the
 * legacy `away` flag. A row with every field empty means "no status" and is deleted.
 */
export const userStatus: Migration = {
  id: "015-user-status",
  up: (t) => `
CREATE TABLE user_status (
  user_id ${t.bigint} PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  status_text TEXT NOT NULL DEFAULT '',
  emoji_name TEXT NOT NULL DEFAULT '',
  emoji_code TEXT NOT NULL DEFAULT '',
  reaction_type TEXT NOT NULL DEFAULT 'unicode_emoji',
  away INTEGER NOT NULL DEFAULT 0,
  updated ${t.bigint} NOT NULL
)`,
};
