import type { Migration } from "./types.js";

/**
 * Stream management.
 *
 * - `streams.deactivated`: an archived stream (DELETE /streams/{id}); its name is freed by
 *   renaming it "!DEACTIVATED:<name>" as Zulip does, and nobody is subscribed any more.
 * - `user_topics`: a user's followed (3) and unmuted (2) topics (POST /user_topics); muted topics
 *   stay in `muted_topics`. `last_updated` in seconds.
 */
export const streamManagement: Migration = {
  id: "013-stream-management",
  up: (t) => `
ALTER TABLE streams ADD COLUMN deactivated INTEGER NOT NULL DEFAULT 0;
CREATE TABLE user_topics (
  user_id ${t.bigint} NOT NULL REFERENCES users(id),
  stream_id ${t.bigint} NOT NULL REFERENCES streams(id),
  topic_lower TEXT NOT NULL,
  topic TEXT NOT NULL,
  visibility_policy INTEGER NOT NULL,
  last_updated ${t.bigint} NOT NULL,
  PRIMARY KEY (user_id, stream_id, topic_lower)
)`,
};
