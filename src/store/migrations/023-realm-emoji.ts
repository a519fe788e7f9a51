import type { Migration } from "./types.js";

/**
 * Custom emoji (Zulip's RealmEmoji): a name, the uploaded image (resized, in the uploads storage
 * under `storage_key`) served as `/user_avatars/<realm>/emoji/images/<file_name>`, and for animated
 * images a still first frame (`still_storage_key`). Deactivating keeps the row (old messages and
 * reactions still show the image), so only one *active* emoji may hold a name.
 */
export const realmEmoji: Migration = {
  id: "023-realm-emoji",
  up: (t) => `
CREATE TABLE realm_emoji (
  id ${t.id},
  name TEXT NOT NULL,
  file_name TEXT NOT NULL UNIQUE,
  content_type TEXT NOT NULL,
  storage_key TEXT NOT NULL,
  still_storage_key TEXT,
  author_id ${t.bigint} REFERENCES users(id),
  deactivated INTEGER NOT NULL DEFAULT 0,
  date_created ${t.bigint} NOT NULL
);
CREATE UNIQUE INDEX realm_emoji_active_name ON realm_emoji (name) WHERE deactivated = 0`,
};
