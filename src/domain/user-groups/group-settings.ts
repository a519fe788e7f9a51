import { JsonableError } from "../../errors.js";

/**
 * Zulip's group-setting values (api/group-setting-values): who holds a permission is either one
 * user group (its id, system groups included) or an anonymous group, `{direct_members,
 * direct_subgroups}`: those users and the members of those groups. This server has no
 * `role:nobody` group: "nobody" is the anonymous group with neither members nor subgroups.
 */
export type GroupSettingValue = number | AnonymousGroup;

export interface AnonymousGroup {
  direct_members: number[];
  direct_subgroups: number[];
}

/** The system groups' ids (migration 016; the same as user-groups-service.ts's SystemGroup). */
const GROUP_ID = {
  "role:owners": 1,
  "role:administrators": 2,
  "role:moderators": 3,
  "role:fullmembers": 4,
  "role:members": 5,
  "role:everyone": 6,
  "role:internet": 7,
} as const;
const INTERNET = 7;
const EVERYONE = 6;

export const NOBODY: AnonymousGroup = Object.freeze({ direct_members: [], direct_subgroups: [] });

/** One permission setting, as server_supported_permission_settings describes it. */
export interface PermissionSettingDef {
  allowNobodyGroup: boolean;
  allowEveryoneGroup: boolean;
  /** "role:nobody" or a system group's name. */
  defaultGroupName: string;
  /** For user groups: the default of the system groups' own setting. */
  defaultForSystemGroups: string | null;
}

const def = (
  defaultGroupName: string,
  allowEveryoneGroup: boolean,
  defaultForSystemGroups: string | null = null,
): PermissionSettingDef => ({
  allowNobodyGroup: true,
  allowEveryoneGroup,
  defaultGroupName,
  defaultForSystemGroups,
});

/**
 * The permission settings this server implements, by scope, with Zulip's defaults. Each governs
 * something the server does (see docs/compat.md, "Group-based permission settings").
 */
export const PERMISSION_SETTINGS = {
  realm: {
    can_add_subscribers_group: def("role:members", false),
    can_create_private_channel_group: def("role:members", false),
    can_create_public_channel_group: def("role:members", false),
    // Who invites one person, with a single-use link (Zulip: role:members; here administrators,
    // see docs/compat.md), and who makes reusable invitation links (Zulip's default).
    can_invite_users_group: def("role:administrators", false),
    create_multiuse_invite_group: def("role:administrators", false),
  },
  stream: {
    can_add_subscribers_group: def("role:nobody", false),
    can_administer_channel_group: def("role:nobody", false),
    can_remove_subscribers_group: def("role:administrators", true),
    can_send_message_group: def("role:everyone", true),
    can_subscribe_group: def("role:nobody", false),
  },
  group: {
    can_mention_group: def("role:everyone", true, "role:nobody"),
  },
} as const;

export type RealmPermissionName = keyof typeof PERMISSION_SETTINGS.realm;
export type StreamPermissionName = keyof typeof PERMISSION_SETTINGS.stream;
export type GroupPermissionName = keyof typeof PERMISSION_SETTINGS.group;

export const REALM_PERMISSION_NAMES = Object.keys(PERMISSION_SETTINGS.realm) as RealmPermissionName[];
export const STREAM_PERMISSION_NAMES = Object.keys(PERMISSION_SETTINGS.stream) as StreamPermissionName[];

/** The value a group name stands for ("role:nobody" is the empty anonymous group). */
export function valueOfGroupName(name: string): GroupSettingValue {
  if (name === "role:nobody") return { direct_members: [], direct_subgroups: [] };
  const id = (GROUP_ID as Record<string, number>)[name];
  if (id === undefined) throw new Error(`unknown system group ${name}`);
  return id;
}

/** A setting's default value. */
export function defaultValue(setting: PermissionSettingDef, forSystemGroup = false): GroupSettingValue {
  return valueOfGroupName(
    forSystemGroup && setting.defaultForSystemGroups !== null
      ? setting.defaultForSystemGroups
      : setting.defaultGroupName,
  );
}

/** register's `server_supported_permission_settings` (Zulip 8.0, feature level 221). */
export function supportedPermissionSettingsWire(): Record<string, Record<string, Record<string, unknown>>> {
  const scope = (defs: Record<string, PermissionSettingDef>) =>
    Object.fromEntries(
      Object.entries(defs).map(([name, d]) => [
        name,
        {
          require_system_group: false,
          allow_internet_group: false,
          allow_nobody_group: d.allowNobodyGroup,
          allow_everyone_group: d.allowEveryoneGroup,
          default_group_name: d.defaultGroupName,
          default_for_system_groups: d.defaultForSystemGroups,
          allowed_system_groups: [],
        },
      ]),
    );
  return {
    realm: scope(PERMISSION_SETTINGS.realm),
    stream: scope(PERMISSION_SETTINGS.stream),
    group: scope(PERMISSION_SETTINGS.group),
  };
}

const sortedUnique = (ids: readonly number[]) => [...new Set(ids)].sort((a, b) => a - b);

/**
 * Zulip's canonical form: an anonymous group of exactly one subgroup and no members is that
 * group's id; lists are sorted and without repeats.
 */
export function canonical(value: GroupSettingValue): GroupSettingValue {
  if (typeof value === "number") return value;
  const members = sortedUnique(value.direct_members);
  const subgroups = sortedUnique(value.direct_subgroups);
  if (members.length === 0 && subgroups.length === 1) return subgroups[0]!;
  return { direct_members: members, direct_subgroups: subgroups };
}

export function sameValue(a: GroupSettingValue, b: GroupSettingValue): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

const isIdList = (v: unknown): v is number[] =>
  Array.isArray(v) && v.every((x) => typeof x === "number" && Number.isSafeInteger(x));

/** A group-setting value from its JSON form; `name` is the parameter, for the error. */
export function parseGroupSettingValue(raw: unknown, name: string): GroupSettingValue {
  if (typeof raw === "number" && Number.isSafeInteger(raw)) return raw;
  if (typeof raw === "object" && raw !== null && !Array.isArray(raw)) {
    const o = raw as Record<string, unknown>;
    const keys = Object.keys(o);
    if (keys.length === 2 && isIdList(o["direct_members"]) && isIdList(o["direct_subgroups"])) {
      return { direct_members: o["direct_members"], direct_subgroups: o["direct_subgroups"] };
    }
  }
  throw new JsonableError(`${name} is not a valid group-setting value`);
}

/** An update of a setting (`{"new": value, "old": value}`, `old` optional), as PATCH endpoints take it. */
export interface GroupSettingUpdate {
  new: GroupSettingValue;
  old?: GroupSettingValue | undefined;
}

export function parseGroupSettingUpdate(raw: unknown, name: string): GroupSettingUpdate {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw) || !("new" in raw)) {
    throw new JsonableError(`${name} is not a valid group-setting value update`);
  }
  const o = raw as Record<string, unknown>;
  if (Object.keys(o).some((k) => k !== "new" && k !== "old")) {
    throw new JsonableError(`${name} is not a valid group-setting value update`);
  }
  return {
    new: parseGroupSettingValue(o["new"], `${name}.new`),
    old: "old" in o ? parseGroupSettingValue(o["old"], `${name}.old`) : undefined,
  };
}

/** What checking a value needs: which groups and users exist. */
export interface ValueCheckLookups {
  groupExists(id: number): boolean;
  userExists(id: number): Promise<boolean>;
}

/**
 * Zulip's checks of a new value: every group and user must exist, and the setting must allow it
 * (no `role:internet`; `role:everyone` and nobody only where allowed).
 */
export async function checkValue(
  setting: PermissionSettingDef,
  name: string,
  value: GroupSettingValue,
  lookups: ValueCheckLookups,
): Promise<GroupSettingValue> {
  const v = canonical(value);
  const groups = typeof v === "number" ? [v] : v.direct_subgroups;
  for (const id of groups) {
    if (!lookups.groupExists(id)) throw new JsonableError(`Invalid user group ID: ${id}`);
  }
  if (typeof v !== "number") {
    for (const id of v.direct_members) {
      if (!(await lookups.userExists(id))) throw new JsonableError(`Invalid user ID: ${id}`);
    }
  }
  const refuse = (group: string) => {
    throw new JsonableError(`'${name}' setting cannot be set to '${group}' group.`);
  };
  if (groups.includes(INTERNET)) refuse("role:internet");
  if (!setting.allowEveryoneGroup && groups.includes(EVERYONE)) refuse("role:everyone");
  if (!setting.allowNobodyGroup && typeof v !== "number" && groups.length + v.direct_members.length === 0) {
    refuse("role:nobody");
  }
  return v;
}

/** Stored form (a TEXT column): JSON; null stands for the default. */
export function storedValue(raw: string | null | undefined): GroupSettingValue | undefined {
  if (raw === null || raw === undefined) return undefined;
  return parseGroupSettingValue(JSON.parse(raw) as unknown, "stored value");
}
