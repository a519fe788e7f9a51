import type { Migration } from "./types.js";

/**
 * User groups (Zulip's UserGroup / NamedUserGroup): named sets of users that `@*group*` mentions.
 * The role-based system groups are rows too, inserted here in Zulip's order so their ids are fixed
 * (1 owners … 7 internet); their members follow the users' roles and are not stored.
 * `user_group_members` holds the direct members of the other groups.
 */
export const userGroups: Migration = {
  id: "016-user-groups",
  up: (t) => `
CREATE TABLE user_groups (
  id ${t.id},
  name TEXT NOT NULL UNIQUE,
  description TEXT NOT NULL DEFAULT '',
  is_system_group INTEGER NOT NULL DEFAULT 0,
  creator_id ${t.bigint} REFERENCES users(id),
  date_created ${t.bigint}
);
CREATE TABLE user_group_members (
  group_id ${t.bigint} NOT NULL REFERENCES user_groups(id) ON DELETE CASCADE,
  user_id ${t.bigint} NOT NULL REFERENCES users(id),
  PRIMARY KEY (group_id, user_id)
);
CREATE INDEX user_group_members_user ON user_group_members (user_id);
INSERT INTO user_groups (name, description, is_system_group) VALUES ('role:owners', 'Owners of this organization', 1);
INSERT INTO user_groups (name, description, is_system_group) VALUES ('role:administrators', 'Administrators of this organization, including owners', 1);
INSERT INTO user_groups (name, description, is_system_group) VALUES ('role:moderators', 'Moderators of this organization, including administrators', 1);
INSERT INTO user_groups (name, description, is_system_group) VALUES ('role:fullmembers', 'Members of this organization, not including new accounts and guests', 1);
INSERT INTO user_groups (name, description, is_system_group) VALUES ('role:members', 'Members of this organization, not including guests', 1);
INSERT INTO user_groups (name, description, is_system_group) VALUES ('role:everyone', 'Everyone in this organization, including guests', 1);
INSERT INTO user_groups (name, description, is_system_group) VALUES ('role:internet', 'Everyone on the Internet', 1)`,
};
