import type { Migration } from "./types.js";

/**
 * API keys are looked up by a non-secret id, the SHA-256 (hex) of the key, through this unique
 * index, and then compared in constant time: no B-tree search ever runs on the secret itself.
 * Existing rows keep working: the repository fills in the hashes of rows that have none
 * (`UsersRepo.fillApiKeyHashes`, on the first lookup that misses), and the plaintext stays, since
 * Zulip's API hands keys back (`fetch_api_key`, a bot's key to its owner).
 */
export const apiKeyLookup: Migration = {
  id: "007-api-key-lookup",
  up: () => `
ALTER TABLE users ADD COLUMN api_key_hash TEXT;
CREATE UNIQUE INDEX users_api_key_hash ON users (api_key_hash)`,
};
