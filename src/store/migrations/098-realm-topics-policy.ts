import type { Migration } from "./types.js";

/**
 * The realm's `topics_policy` (Zulip 11, feature level 392): "disable_empty_topic" (channel messages
 * need a topic, the default) or "allow_empty_topic" (an empty topic, shown as "general chat").
 */
export const realmTopicsPolicy: Migration = {
  id: "098-realm-topics-policy",
  up: () => `ALTER TABLE realms ADD COLUMN topics_policy TEXT NOT NULL DEFAULT 'disable_empty_topic'`,
};
