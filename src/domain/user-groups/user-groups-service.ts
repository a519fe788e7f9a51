import type { Clock } from "../../clock.js";
import { BadRequestError, JsonableError } from "../../errors.js";
import type { UserGroupRow, UserGroupsRepo } from "../../store/user-groups-repo.js";
import type { EventSink } from "../events/event-sink.js";
import { Role, isGuest } from "../users/types.js";
import type { User } from "../users/types.js";
import { recursiveMembers, recursiveSubgroups } from "./membership.js";
import type { PermissionChecker } from "./group-permissions.js";
import { PERMISSION_SETTINGS, defaultValue, sameValue, storedValue } from "./group-settings.js";
import type { GroupSettingUpdate, GroupSettingValue } from "./group-settings.js";
import type { UserGroupView } from "./types.js";

/**
 * The system groups' ids (migration 016 inserts them in this order) and who belongs to each
 * directly: the users of one role, with the group of the next higher roles as a subgroup.
 */
export const SystemGroup = {
  OWNERS: 1,
  ADMINISTRATORS: 2,
  MODERATORS: 3,
  FULL_MEMBERS: 4,
  MEMBERS: 5,
  EVERYONE: 6,
  INTERNET: 7,
} as const;

const SYSTEM_DIRECT: Readonly<Record<number, { role: number | null; subgroups: number[] }>> = {
  [SystemGroup.OWNERS]: { role: Role.OWNER, subgroups: [] },
  [SystemGroup.ADMINISTRATORS]: { role: Role.ADMIN, subgroups: [SystemGroup.OWNERS] },
  [SystemGroup.MODERATORS]: { role: Role.MODERATOR, subgroups: [SystemGroup.ADMINISTRATORS] },
  [SystemGroup.FULL_MEMBERS]: { role: Role.MEMBER, subgroups: [SystemGroup.MODERATORS] },
  [SystemGroup.MEMBERS]: { role: null, subgroups: [SystemGroup.FULL_MEMBERS] },
  [SystemGroup.EVERYONE]: { role: Role.GUEST, subgroups: [SystemGroup.MEMBERS] },
  [SystemGroup.INTERNET]: { role: null, subgroups: [SystemGroup.EVERYONE] },
};

/** A group as the API shows it (Zulip's UserGroup dict at feature level 153). */
export function userGroupWire(g: UserGroupView): Record<string, unknown> {
  return {
    id: g.id,
    name: g.name,
    description: g.description,
    members: g.members,
    direct_subgroup_ids: g.directSubgroupIds,
    is_system_group: g.isSystemGroup,
    can_mention_group: g.canMentionGroup,
  };
}

const CAN_MENTION = PERMISSION_SETTINGS.group.can_mention_group;

/** A group that `@*name*` may mention, with its members (for the Markdown renderer). */
export interface MentionableGroup {
  id: number;
  name: string;
  memberIds: number[];
}

export interface GroupUsers {
  allUsers(): Promise<User[]>;
  activeUserIds(): Promise<number[]>;
  byId(id: number): Promise<User | undefined>;
}

/** User groups: GET/POST/PATCH/DELETE /user_groups…, `user_group` events, `@*group*` mentions. */
export class UserGroupsService {
  constructor(
    private readonly repo: UserGroupsRepo,
    private readonly users: GroupUsers,
    private readonly events: EventSink,
    private readonly clock: Clock,
  ) {}

  private permissions: PermissionChecker | undefined;

  /** Group-based permissions (made after this service, which they read groups from). */
  usePermissions(permissions: PermissionChecker): void {
    this.permissions = permissions;
  }

  private checker(): PermissionChecker {
    if (this.permissions === undefined) throw new Error("group permissions are not set up");
    return this.permissions;
  }

  private async realmUserIds(): Promise<number[]> {
    return this.users.activeUserIds();
  }

  private async view(rows: UserGroupRow[]): Promise<UserGroupView[]> {
    const stored = await this.repo.allMembers();
    const subgroups = await this.repo.allSubgroups();
    const realm = (await this.users.allUsers()).filter(
      (u) => u.isActive && !(u.isBot && u.botOwnerId === null),
    );
    return rows.map((g) => {
      const system = g.isSystemGroup ? SYSTEM_DIRECT[g.id] : undefined;
      const members =
        system === undefined
          ? (stored.get(g.id) ?? [])
          : system.role === null
            ? []
            : realm.filter((u) => u.role === system.role).map((u) => u.id);
      return {
        id: g.id,
        name: g.name,
        description: g.description,
        members,
        directSubgroupIds: system?.subgroups ?? subgroups.get(g.id) ?? [],
        isSystemGroup: g.isSystemGroup,
        canMentionGroup: storedValue(g.canMentionGroup) ?? defaultValue(CAN_MENTION, g.isSystemGroup),
      };
    });
  }

  /** Every group of the realm, system groups first (register's `realm_user_groups`). */
  async list(): Promise<UserGroupView[]> {
    return this.view(await this.repo.all());
  }

  /** Groups named in a message (non-system only), with their members and their subgroups' members. */
  async mentionable(names: readonly string[]): Promise<MentionableGroup[]> {
    const rows = await this.repo.namedGroups(names);
    if (rows.length === 0) return [];
    const byId = new Map((await this.list()).map((g) => [g.id, g]));
    return rows.map((g) => ({ id: g.id, name: g.name, memberIds: recursiveMembers(byId, g.id) }));
  }

  /**
   * Zulip's check of a message's (non-silent) group mentions: the sender must hold each group's
   * `can_mention_group`. Throws "You are not allowed to mention user group '<name>'." otherwise.
   */
  async checkCanMention(sender: User, groupIds: readonly number[]): Promise<void> {
    if (groupIds.length === 0) return;
    const byId = new Map((await this.list()).map((g) => [g.id, g]));
    for (const id of groupIds) {
      const group = byId.get(id);
      if (group === undefined) continue;
      if (!(await this.checker().hasPermission(sender, group.canMentionGroup))) {
        throw new JsonableError(`You are not allowed to mention user group '${group.name}'.`);
      }
    }
  }

  private async editable(actor: User, groupId: number): Promise<UserGroupRow> {
    const group = await this.repo.byId(groupId);
    if (group === undefined) throw new BadRequestError("Invalid user group");
    if (isGuest(actor) || group.isSystemGroup) throw new BadRequestError("Insufficient permission");
    // Zulip 6: members may edit only the groups they belong to; moderators and admins any group.
    if (actor.role > Role.MODERATOR && !(await this.repo.members(groupId)).includes(actor.id)) {
      throw new BadRequestError("Insufficient permission");
    }
    return group;
  }

  private async checkUsers(actor: User, ids: readonly number[]): Promise<void> {
    for (const id of ids) {
      const user = await this.users.byId(id);
      if (user?.isActive !== true || user.realmId !== actor.realmId) {
        throw new BadRequestError(`Invalid user ID: ${id}`);
      }
    }
  }

  private checkName(name: string): string {
    const trimmed = name.trim();
    if (trimmed === "") throw new BadRequestError("User group name cannot be empty.");
    if (trimmed.startsWith("role:")) throw new BadRequestError("User group name cannot start with 'role:'.");
    return trimmed;
  }

  async create(
    actor: User,
    input: {
      name: string;
      description: string;
      members: number[];
      canMentionGroup?: GroupSettingValue | undefined;
    },
  ): Promise<number> {
    if (isGuest(actor)) throw new BadRequestError("Insufficient permission");
    const name = this.checkName(input.name);
    const taken = new BadRequestError(`User group '${name}' already exists.`);
    if ((await this.repo.byName(name)) !== undefined) throw taken;
    const members = [...new Set(input.members)].sort((a, b) => a - b);
    await this.checkUsers(actor, members);
    const canMention =
      input.canMentionGroup === undefined
        ? null
        : await this.checker().checkSetting(CAN_MENTION, "can_mention_group", input.canMentionGroup);
    const row = await this.repo.insert({
      name,
      description: input.description,
      creatorId: actor.id,
      dateCreated: Math.floor(this.clock.now() / 1000),
      canMentionGroup: canMention === null ? null : JSON.stringify(canMention),
    });
    if (row === undefined) throw taken;
    await this.repo.addMembers(row.id, members);
    const [view] = await this.view([row]);
    this.events.send(
      { type: "user_group", op: "add", group: userGroupWire(view!) },
      await this.realmUserIds(),
    );
    return row.id;
  }

  async update(
    actor: User,
    groupId: number,
    change: { name?: string; description?: string; canMentionGroup?: GroupSettingUpdate },
  ): Promise<void> {
    const group = await this.editable(actor, groupId);
    if (
      change.name === undefined &&
      change.description === undefined &&
      change.canMentionGroup === undefined
    ) {
      throw new BadRequestError("No new data supplied");
    }
    const data: Record<string, string> = {};
    let canMention: GroupSettingValue | undefined;
    if (change.canMentionGroup !== undefined) {
      const current = storedValue(group.canMentionGroup) ?? defaultValue(CAN_MENTION, group.isSystemGroup);
      this.checker().checkExpected(change.canMentionGroup, current);
      const value = await this.checker().checkSetting(
        CAN_MENTION,
        "can_mention_group",
        change.canMentionGroup.new,
      );
      if (!sameValue(value, current)) canMention = value;
    }
    if (change.name !== undefined) {
      const name = this.checkName(change.name);
      const other = await this.repo.byName(name);
      if (other !== undefined && other.id !== group.id) {
        throw new BadRequestError(`User group '${name}' already exists.`);
      }
      if (name !== group.name) data["name"] = name;
    }
    if (change.description !== undefined && change.description !== group.description) {
      data["description"] = change.description;
    }
    if (Object.keys(data).length === 0 && canMention === undefined) return;
    await this.repo.update(group.id, {
      ...data,
      ...(canMention === undefined ? {} : { canMentionGroup: JSON.stringify(canMention) }),
    });
    this.events.send(
      {
        type: "user_group",
        op: "update",
        group_id: group.id,
        data: { ...data, ...(canMention === undefined ? {} : { can_mention_group: canMention }) },
      },
      await this.realmUserIds(),
    );
  }

  async delete(actor: User, groupId: number): Promise<void> {
    const group = await this.editable(actor, groupId);
    await this.repo.delete(group.id);
    this.events.send({ type: "user_group", op: "remove", group_id: group.id }, await this.realmUserIds());
  }

  async updateMembers(
    actor: User,
    groupId: number,
    change: { add: readonly number[]; remove: readonly number[] },
  ): Promise<void> {
    const group = await this.editable(actor, groupId);
    if (change.add.length === 0 && change.remove.length === 0) {
      throw new BadRequestError('Nothing to do. Specify at least one of "add" or "delete".');
    }
    const current = new Set(await this.repo.members(group.id));
    const add = [...new Set(change.add)].sort((a, b) => a - b);
    const remove = [...new Set(change.remove)].sort((a, b) => a - b);
    await this.checkUsers(actor, add);
    for (const id of add) {
      if (current.has(id)) throw new BadRequestError(`User ${id} is already a member of this group`);
    }
    for (const id of remove) {
      if (!current.has(id)) throw new BadRequestError(`There is no member '${id}' in this user group`);
    }
    const recipients = await this.realmUserIds();
    if (add.length > 0) {
      await this.repo.addMembers(group.id, add);
      this.events.send(
        { type: "user_group", op: "add_members", group_id: group.id, user_ids: add },
        recipients,
      );
    }
    if (remove.length > 0) {
      await this.repo.removeMembers(group.id, remove);
      this.events.send(
        { type: "user_group", op: "remove_members", group_id: group.id, user_ids: remove },
        recipients,
      );
    }
  }

  /** The realm's groups by id, for walks through subgroups. */
  private async graph(): Promise<Map<number, UserGroupView>> {
    return new Map((await this.list()).map((g) => [g.id, g]));
  }

  /** A group to read (Zulip's require_member_or_admin, then access_user_group_by_id for reading). */
  private async readable(actor: User, groupId: number): Promise<{ byId: Map<number, UserGroupView> }> {
    if (isGuest(actor)) throw new JsonableError("Not allowed for guest users");
    const byId = await this.graph();
    if (!byId.has(groupId)) throw new BadRequestError("Invalid user group");
    return { byId };
  }

  /** GET /user_groups/{id}/members: direct members only, or with every subgroup's members. */
  async members(actor: User, groupId: number, directOnly: boolean): Promise<number[]> {
    const { byId } = await this.readable(actor, groupId);
    return directOnly ? [...(byId.get(groupId)?.members ?? [])] : recursiveMembers(byId, groupId);
  }

  /** GET /user_groups/{id}/members/{user_id}: whether the user belongs, directly or through subgroups. */
  async isMember(actor: User, groupId: number, userId: number, directOnly: boolean): Promise<boolean> {
    const members = await this.members(actor, groupId, directOnly);
    // Zulip's access_user_by_id: bots and unknown ids are "No such user".
    const user = await this.users.byId(userId);
    if (user === undefined || user.realmId !== actor.realmId || user.isBot)
      throw new JsonableError("No such user");
    if (!user.isActive) throw new JsonableError("User is deactivated");
    return members.includes(userId);
  }

  /** GET /user_groups/{id}/subgroups: direct subgroups only, or recursively (never the group itself). */
  async subgroups(actor: User, groupId: number, directOnly: boolean): Promise<number[]> {
    const { byId } = await this.readable(actor, groupId);
    return directOnly ? [...(byId.get(groupId)?.directSubgroupIds ?? [])] : recursiveSubgroups(byId, groupId);
  }

  /**
   * POST /user_groups/{id}/subgroups (Zulip's update_subgroups_of_user_group): adds, then removes,
   * direct subgroups, with Zulip's checks in its order; a subgroup that would make the group its own
   * subgroup (a cycle) is refused. All checks pass before anything changes.
   */
  async updateSubgroups(
    actor: User,
    groupId: number,
    change: { add: readonly number[]; remove: readonly number[] },
  ): Promise<void> {
    if (isGuest(actor)) throw new BadRequestError("Insufficient permission");
    if (change.add.length === 0 && change.remove.length === 0) {
      throw new BadRequestError('Nothing to do. Specify at least one of "add" or "delete".');
    }
    const add = [...new Set(change.add)].sort((a, b) => a - b);
    const remove = [...new Set(change.remove)].sort((a, b) => a - b);
    const byId = await this.graph();
    const checkIds = (ids: readonly number[]): void => {
      for (const id of ids) if (!byId.has(id)) throw new BadRequestError(`Invalid user group ID: ${id}`);
    };
    const direct = new Set(byId.get(groupId)?.directSubgroupIds ?? []);
    if (add.length > 0) {
      checkIds(add);
      await this.editable(actor, groupId);
      for (const id of add) {
        if (direct.has(id))
          throw new BadRequestError(`User group ${id} is already a subgroup of this group.`);
      }
      // The group may not be below any group it would contain (Zulip checks the subgroups' subgroups).
      if (add.some((id) => id === groupId || recursiveSubgroups(byId, id).includes(groupId))) {
        throw new BadRequestError(
          `User group ${groupId} is already a subgroup of one of the passed subgroups.`,
        );
      }
    }
    if (remove.length > 0) {
      checkIds(remove);
      await this.editable(actor, groupId);
      for (const id of remove) {
        if (!direct.has(id)) throw new BadRequestError(`User group ${id} is not a subgroup of this group.`);
      }
    }
    const recipients = await this.realmUserIds();
    if (add.length > 0) {
      await this.repo.addSubgroups(groupId, add);
      this.events.send(
        { type: "user_group", op: "add_subgroups", group_id: groupId, direct_subgroup_ids: add },
        recipients,
      );
    }
    if (remove.length > 0) {
      await this.repo.removeSubgroups(groupId, remove);
      this.events.send(
        { type: "user_group", op: "remove_subgroups", group_id: groupId, direct_subgroup_ids: remove },
        recipients,
      );
    }
  }
}
