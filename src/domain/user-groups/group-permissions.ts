import { JsonableError } from "../../errors.js";
import type { RealmGroupSettingsRepo } from "../../store/realm-group-settings-repo.js";
import type { EventSink } from "../events/event-sink.js";
import { Role, isAdmin } from "../users/types.js";
import type { Realm, User } from "../users/types.js";
import {
  PERMISSION_SETTINGS,
  REALM_PERMISSION_NAMES,
  canonical,
  checkValue,
  defaultValue,
  sameValue,
  storedValue,
} from "./group-settings.js";
import type {
  GroupSettingUpdate,
  GroupSettingValue,
  PermissionSettingDef,
  RealmPermissionName,
} from "./group-settings.js";
import { recursiveMembers } from "./membership.js";
import type { UserGroupView } from "./types.js";

/** Who holds a group-setting value, and whether a new value may be set (what streams and messages need). */
export interface PermissionChecker {
  hasPermission(user: User, value: GroupSettingValue): Promise<boolean>;
  checkSetting(
    setting: PermissionSettingDef,
    name: string,
    value: GroupSettingValue,
  ): Promise<GroupSettingValue>;
  /** Throws Zulip's error when `update.old` is given and is not the current value. */
  checkExpected(update: GroupSettingUpdate, current: GroupSettingValue): void;
  realmSetting(name: RealmPermissionName): Promise<GroupSettingValue>;
}

export interface GroupPermissionsDeps {
  groups: { list(): Promise<UserGroupView[]> };
  users: {
    byId(id: number): Promise<User | undefined>;
    realm(): Promise<Realm>;
    activeUserIds(): Promise<number[]>;
  };
  realmSettings: RealmGroupSettingsRepo;
  events: EventSink;
}

/** The highest role each role-based system group (ids 1-6) takes in. */
const ROLE_LIMIT: Readonly<Record<number, number>> = {
  1: Role.OWNER,
  2: Role.ADMIN,
  3: Role.MODERATOR,
  4: Role.MEMBER,
  5: Role.MEMBER,
  6: Role.GUEST,
};

/**
 * Group-based permissions: membership of a group-setting value (system groups by role, without
 * reading the groups), the checks of a new value, and the realm's own settings (PATCH /realm,
 * `realm` update_dict events).
 */
export class GroupPermissionsService implements PermissionChecker {
  constructor(private readonly deps: GroupPermissionsDeps) {}

  async hasPermission(user: User, value: GroupSettingValue): Promise<boolean> {
    const v = canonical(value);
    if (typeof v === "number") {
      const limit = ROLE_LIMIT[v];
      if (limit !== undefined) return user.isActive && user.role <= limit;
    } else if (v.direct_members.includes(user.id)) {
      return true;
    }
    const groups = typeof v === "number" ? [v] : v.direct_subgroups;
    if (groups.length === 0) return false;
    const byId = new Map((await this.deps.groups.list()).map((g) => [g.id, g]));
    return groups.some((id) => recursiveMembers(byId, id).includes(user.id));
  }

  async checkSetting(
    setting: PermissionSettingDef,
    name: string,
    value: GroupSettingValue,
  ): Promise<GroupSettingValue> {
    const ids = new Set((await this.deps.groups.list()).map((g) => g.id));
    return checkValue(setting, name, value, {
      groupExists: (id) => ids.has(id),
      userExists: async (id) => {
        const u = await this.deps.users.byId(id);
        return u !== undefined && u.isActive;
      },
    });
  }

  checkExpected(update: GroupSettingUpdate, current: GroupSettingValue): void {
    if (update.old !== undefined && !sameValue(update.old, current)) {
      throw new JsonableError("'old' value does not match the expected value.");
    }
  }

  /** Every realm setting with its value (register's `realm_<name>`). */
  async realmSettings(): Promise<Record<RealmPermissionName, GroupSettingValue>> {
    const realm = await this.deps.users.realm();
    const stored = await this.deps.realmSettings.all(realm.id);
    const out = {} as Record<RealmPermissionName, GroupSettingValue>;
    for (const name of REALM_PERMISSION_NAMES) {
      out[name] = storedValue(stored.get(name)) ?? defaultValue(PERMISSION_SETTINGS.realm[name]);
    }
    return out;
  }

  async realmSetting(name: RealmPermissionName): Promise<GroupSettingValue> {
    return (await this.realmSettings())[name];
  }

  /**
   * PATCH /realm with `{"new", "old"}` updates (administrators only). One `realm` update_dict event
   * with the changed values goes to everyone.
   */
  async setRealmSettings(
    actor: User,
    updates: Partial<Record<RealmPermissionName, GroupSettingUpdate>>,
  ): Promise<void> {
    const names = REALM_PERMISSION_NAMES.filter((n) => updates[n] !== undefined);
    if (names.length === 0) return;
    if (!isAdmin(actor)) throw new JsonableError("Must be an organization administrator");
    const current = await this.realmSettings();
    const changed: Record<string, GroupSettingValue> = {};
    for (const name of names) {
      const update = updates[name]!;
      this.checkExpected(update, current[name]);
      const value = await this.checkSetting(PERMISSION_SETTINGS.realm[name], name, update.new);
      if (!sameValue(value, current[name])) changed[name] = value;
    }
    if (Object.keys(changed).length === 0) return;
    const realm = await this.deps.users.realm();
    for (const [name, value] of Object.entries(changed)) {
      await this.deps.realmSettings.set(realm.id, name, JSON.stringify(value));
    }
    const everyone = await this.deps.users.activeUserIds();
    this.deps.events.send({ type: "realm", op: "update_dict", property: "default", data: changed }, everyone);
  }
}
