import type { Migration } from "./types.js";

/**
 * SQLite's full-text index is written in batches instead of once per message.
 *
 * An FTS5 insert per message costs a send ~13 % of its CPU: each commit writes a new index segment
 * and merging the small segments never stops. Now `messages_fts_state.upto` is the highest message
 * id in the index, and one statement catches up (store/search-index.ts): raising `upto` fires a
 * trigger that indexes every message above the old value, in one segment. It runs every second
 * while messages arrive and before any search, so a search always sees every message.
 * Edits and deletes touch the index only for messages already in it (a message still waiting is
 * indexed later with its content of then). PostgreSQL is unchanged (a generated tsvector column).
 */
export const batchedSearchIndex: Migration = {
  id: "026-batched-search-index",
  up: (t) => {
    if (t.dialect === "postgres") return "";
    return `
CREATE TABLE messages_fts_state (id INTEGER PRIMARY KEY CHECK (id = 1), upto INTEGER NOT NULL);
INSERT INTO messages_fts_state (id, upto) SELECT 1, coalesce(max(id), 0) FROM messages;
DROP TRIGGER messages_fts_insert;
DROP TRIGGER messages_fts_delete;
DROP TRIGGER messages_fts_update;
CREATE TRIGGER messages_fts_catch_up AFTER UPDATE OF upto ON messages_fts_state BEGIN INSERT INTO messages_fts(rowid, topic, content) SELECT id, topic, content FROM messages WHERE id > old.upto AND id <= new.upto ORDER BY id; END;
CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages WHEN old.id <= (SELECT upto FROM messages_fts_state) BEGIN INSERT INTO messages_fts(messages_fts, rowid, topic, content) VALUES ('delete', old.id, old.topic, old.content); END;
CREATE TRIGGER messages_fts_update AFTER UPDATE OF topic, content ON messages WHEN old.id <= (SELECT upto FROM messages_fts_state) BEGIN INSERT INTO messages_fts(messages_fts, rowid, topic, content) VALUES ('delete', old.id, old.topic, old.content); INSERT INTO messages_fts(rowid, topic, content) VALUES (new.id, new.topic, new.content); END`;
  },
};
