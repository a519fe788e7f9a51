import type { Migration } from "./types.js";

/**
 * A channel's own `topics_policy` (Zulip 11, feature levels 392/404): "inherit" (the realm's, the
 * default), "allow_empty_topic", "disable_empty_topic" or "empty_topic_only".
 */
export const streamTopicsPolicy: Migration = {
  id: "111-stream-topics-policy",
  up: () => `ALTER TABLE streams ADD COLUMN topics_policy TEXT NOT NULL DEFAULT 'inherit'`,
};
