import type { Migration } from "./types.js";

/**
 * Who may make invitation links becomes the realm's group-based settings `can_invite_users_group`
 * (single-use links; Zulip 10.0, feature level 321) and `create_multiuse_invite_group` (reusable
 * links; feature level 314), rows of `realm_group_settings` (migration 110). Each realm's
 * `invite_to_realm_policy` number is converted once into the value it meant: 1 members → role:members
 * (5), 2 administrators → role:administrators (2), 3 full members → role:fullmembers (4),
 * 4 moderators → role:moderators (3), 6 nobody → the empty anonymous group; then
 * `realm_invite_policy` is dropped. Converting beats reading the old number as the default: the
 * setting then has one place where it is stored, so register, events, PATCH /realm and the
 * permission check need no fallback, and a realm without a row keeps meaning the setting's
 * default (administrators, as the old policy's default was).
 */
export const canInviteUsersGroup: Migration = {
  id: "113-can-invite-users-group",
  up: () => `
INSERT INTO realm_group_settings (realm_id, name, value)
SELECT realm_id, setting.name,
  CASE policy
    WHEN 1 THEN '5'
    WHEN 2 THEN '2'
    WHEN 3 THEN '4'
    WHEN 4 THEN '3'
    ELSE '{"direct_members":[],"direct_subgroups":[]}'
  END
FROM realm_invite_policy
CROSS JOIN (SELECT 'can_invite_users_group' AS name UNION ALL SELECT 'create_multiuse_invite_group') AS setting
WHERE policy IN (1, 2, 3, 4, 6)
ON CONFLICT (realm_id, name) DO NOTHING;
DROP TABLE realm_invite_policy`,
};
