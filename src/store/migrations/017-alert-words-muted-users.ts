import type { Migration } from "./types.js";

/**
 * Alert words (Zulip's AlertWord: words that flag a message `has_alert_word` for the user) and muted
 * users (Zulip's MutedUser, with the time of muting).
 */
export const alertWordsMutedUsers: Migration = {
  id: "017-alert-words-muted-users",
  up: (t) => `
CREATE TABLE alert_words (
  id ${t.id},
  user_id ${t.bigint} NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  word TEXT NOT NULL,
  UNIQUE (user_id, word)
);
CREATE TABLE muted_users (
  user_id ${t.bigint} NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  muted_user_id ${t.bigint} NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  date_muted ${t.bigint} NOT NULL,
  PRIMARY KEY (user_id, muted_user_id)
)`,
};
