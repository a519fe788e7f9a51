/**
 * SQLite's full-text index catches up in batches (migration 026): this one statement indexes
 * every message above `messages_fts_state.upto`, through the trigger `messages_fts_catch_up`,
 * and does nothing when the index is complete. Run before every search and every
 * SEARCH_CATCH_UP_MS while messages arrive.
 */
export const SEARCH_CATCH_UP_SQL = `UPDATE messages_fts_state SET upto = (SELECT max(id) FROM messages)
  WHERE upto < (SELECT coalesce(max(id), 0) FROM messages)`;

/** How often the index catches up on its own (messages sent meanwhile share one segment). */
export const SEARCH_CATCH_UP_MS = 1000;
