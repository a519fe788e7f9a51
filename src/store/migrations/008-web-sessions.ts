import type { Migration } from "./types.js";

/**
 * Web-app sessions (Zulip's Django sessions): one row per signed-in browser. The cookie holds a
 * random id; only its SHA-256 is stored, so a copy of the database cannot be used to sign in.
 * `csrf_token` is the token every state-changing `/json` request must echo. Expired rows are
 * deleted lazily; a user's rows vanish with the user.
 */
export const webSessions: Migration = {
  id: "008-web-sessions",
  up: (t) => `
CREATE TABLE web_sessions (
  id_hash TEXT PRIMARY KEY,
  user_id ${t.bigint} NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  csrf_token TEXT NOT NULL,
  created_ms ${t.bigint} NOT NULL,
  expires_ms ${t.bigint} NOT NULL
);
CREATE INDEX web_sessions_user ON web_sessions (user_id)`,
};
