import type { Migration } from "./types.js";

/**
 * User-group subgroups (Zulip's GroupGroupMembership): the direct subgroups of each non-system
 * group. A group's members include its subgroups' members, recursively; the system groups'
 * subgroups follow the roles (src/domain/user-groups) and are not stored.
 */
export const userGroupSubgroups: Migration = {
  id: "024-user-group-subgroups",
  up: (t) => `
CREATE TABLE user_group_subgroups (
  group_id ${t.bigint} NOT NULL REFERENCES user_groups(id) ON DELETE CASCADE,
  subgroup_id ${t.bigint} NOT NULL REFERENCES user_groups(id) ON DELETE CASCADE,
  PRIMARY KEY (group_id, subgroup_id)
);
CREATE INDEX user_group_subgroups_subgroup ON user_group_subgroups (subgroup_id)`,
};
