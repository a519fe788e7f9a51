import type { Migration } from "./types.js";

/** Who created a stream (`creator_id` of stream objects, Zulip 9.0); null for older streams and "general". */
export const streamCreator: Migration = {
  id: "114-stream-creator",
  up: (t) => `ALTER TABLE streams ADD COLUMN creator_id ${t.bigint} REFERENCES users(id)`,
};
