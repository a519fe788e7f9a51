import type { Migration } from "./types.js";

/**
 * Group-based permission settings (Zulip's group-setting values, feature levels 191-342): each
 * stored value is the JSON of a group id or of `{"direct_members": [...], "direct_subgroups": [...]}`;
 * NULL (or no row) means the setting's default. Channels and user groups carry theirs as columns,
 * the realm's are rows of `realm_group_settings`.
 */
export const groupPermissionSettings: Migration = {
  id: "110-group-permission-settings",
  up: (t) => `
ALTER TABLE streams ADD COLUMN can_send_message_group TEXT;
ALTER TABLE streams ADD COLUMN can_add_subscribers_group TEXT;
ALTER TABLE streams ADD COLUMN can_remove_subscribers_group TEXT;
ALTER TABLE streams ADD COLUMN can_administer_channel_group TEXT;
ALTER TABLE streams ADD COLUMN can_subscribe_group TEXT;
ALTER TABLE user_groups ADD COLUMN can_mention_group TEXT;
CREATE TABLE realm_group_settings (
  realm_id ${t.bigint} NOT NULL,
  name TEXT NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY (realm_id, name)
)`,
};
