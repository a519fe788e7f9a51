import type { Migration } from "./types.js";

/** Saved snippets (Zulip's SavedSnippet, feature level 297): a user's titled texts to insert in a message. */
export const savedSnippets: Migration = {
  id: "095-saved-snippets",
  up: (t) => `
CREATE TABLE saved_snippets (
  id ${t.id},
  user_id ${t.bigint} NOT NULL REFERENCES users(id),
  title TEXT NOT NULL,
  content TEXT NOT NULL,
  date_created ${t.bigint} NOT NULL
);
CREATE INDEX saved_snippets_user ON saved_snippets (user_id, id)`,
};
