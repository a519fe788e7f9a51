import type { Migration } from "./types.js";

/** Mentions look users up by lower-case full name (both dialects support expression indexes). */
export const indexes: Migration = {
  id: "005-indexes",
  up: () => `CREATE INDEX users_full_name_lower ON users (lower(full_name))`,
};
