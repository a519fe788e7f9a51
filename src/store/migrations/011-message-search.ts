import type { Migration } from "./types.js";

/**
 * Full-text search and Zulip's `has:` columns.
 *
 * - `has_link`, `has_image`, `has_attachment` (0/1): Zulip's Message flags of the same names,
 *   set from the rendered content when a message is sent or edited (backfilled here).
 * - SQLite: `messages_fts`, an FTS5 index over topic and content (Porter stemming) that reads its
 *   text from `messages` (external content) and is kept in step by triggers on insert, update of
 *   topic/content and delete.
 * - PostgreSQL: `search_tsv`, a stored generated `tsvector` (English configuration) over topic
 *   and content with a GIN index; PostgreSQL recomputes it on every write.
 */
export const messageSearch: Migration = {
  id: "011-message-search",
  up: (t) => {
    const has = `
ALTER TABLE messages ADD COLUMN has_link INTEGER NOT NULL DEFAULT 0;
ALTER TABLE messages ADD COLUMN has_image INTEGER NOT NULL DEFAULT 0;
ALTER TABLE messages ADD COLUMN has_attachment INTEGER NOT NULL DEFAULT 0;
UPDATE messages SET
  has_link = CASE WHEN rendered_content LIKE '%<a %' THEN 1 ELSE 0 END,
  has_image = CASE WHEN rendered_content LIKE '%<img %' THEN 1 ELSE 0 END,
  has_attachment = CASE WHEN rendered_content LIKE '%href="/user_uploads/%' THEN 1 ELSE 0 END;
`;
    if (t.dialect === "postgres") {
      return `${has}
ALTER TABLE messages ADD COLUMN search_tsv tsvector
  GENERATED ALWAYS AS (to_tsvector('english', topic || ' ' || content)) STORED;
CREATE INDEX messages_search ON messages USING GIN (search_tsv)`;
    }
    return `${has}
CREATE VIRTUAL TABLE messages_fts USING fts5(topic, content, content='messages', content_rowid='id', tokenize='porter unicode61');
INSERT INTO messages_fts(messages_fts) VALUES ('rebuild');
CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN INSERT INTO messages_fts(rowid, topic, content) VALUES (new.id, new.topic, new.content); END;
CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN INSERT INTO messages_fts(messages_fts, rowid, topic, content) VALUES ('delete', old.id, old.topic, old.content); END;
CREATE TRIGGER messages_fts_update AFTER UPDATE OF topic, content ON messages BEGIN INSERT INTO messages_fts(messages_fts, rowid, topic, content) VALUES ('delete', old.id, old.topic, old.content); INSERT INTO messages_fts(rowid, topic, content) VALUES (new.id, new.topic, new.content); END`;
  },
};
