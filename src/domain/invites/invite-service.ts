import crypto from "node:crypto";
import type { Clock } from "../../clock.js";
import { JsonableError } from "../../errors.js";
import type { InvitesRepo } from "../../store/invites-repo.js";
import type { InviteRow } from "../../store/invites-repo.js";
import { Role, isAdmin } from "../users/types.js";
import type { User } from "../users/types.js";
import type { GroupSettingUpdate, GroupSettingValue } from "../user-groups/group-settings.js";
import { valueOfGroupName } from "../user-groups/group-settings.js";
import { LEGACY_INVITE_POLICY_GROUPS } from "./types.js";
import type { InviteInfo, NewInvite, Registration } from "./types.js";

export interface InviteDeps {
  repo: InvitesRepo;
  clock: Clock;
  /** The site's address, for the links (`<realmUrl>/join/<key>/`). */
  realmUrl: () => string;
  users: {
    allUsers(): Promise<User[]>;
    /** Creates a human account; `actor` must be an administrator (UserService.createUser). */
    createUser(
      actor: User,
      input: { email: string; password: string; fullName: string; role: number; joinDefaultStreams: boolean },
    ): Promise<User>;
  };
  /** The realm's `can_invite_users_group` and `create_multiuse_invite_group` (GroupPermissionsService). */
  permissions: {
    hasPermission(user: User, value: GroupSettingValue): Promise<boolean>;
    realmSetting(name: InviteSetting): Promise<GroupSettingValue>;
    setRealmSettings(actor: User, updates: Partial<Record<InviteSetting, GroupSettingUpdate>>): Promise<void>;
  };
}

/** The realm settings that say who may invite. */
type InviteSetting = "can_invite_users_group" | "create_multiuse_invite_group";

/** An unknown, used, expired or revoked link: one answer for all, so a link reveals nothing. */
export class InvalidInvitationError extends JsonableError {
  constructor() {
    super("The invitation link has expired or has been deactivated.");
  }
}

const ROLES: readonly number[] = Object.values(Role);

const hashKey = (key: string): string => crypto.createHash("sha256").update(key, "utf8").digest("hex");

function info(row: InviteRow): InviteInfo {
  return {
    id: row.id,
    invitedByUserId: row.referrerId,
    invitedSeconds: Math.floor(row.createdAt / 1000),
    expirySeconds: row.expiresAt === null ? null : Math.floor(row.expiresAt / 1000),
    inviteAs: row.inviteAs,
    isMultiuse: row.maxUses !== 1,
  };
}

/**
 * Invitation links without email (Zulip's multiuse invites, plus single-use ones): an
 * administrator, or a member where the realm's `can_invite_users_group` allows, makes a link; a
 * person who opens it chooses a name and password and gets an account in the default streams.
 * Only a hash of each link's key is stored.
 */
export class InviteService {
  private readonly repo: InvitesRepo;

  constructor(private readonly deps: InviteDeps) {
    this.repo = deps.repo;
  }

  /**
   * PATCH /realm `invite_to_realm_policy`, the legacy name: sets `can_invite_users_group` and
   * `create_multiuse_invite_group` to the group the number stands for (administrators only, with
   * the same `realm` events).
   */
  async setLegacyPolicy(actor: User, policy: number): Promise<void> {
    const group = LEGACY_INVITE_POLICY_GROUPS[policy];
    if (!isAdmin(actor)) throw new JsonableError("Must be an organization administrator");
    if (group === undefined) throw new JsonableError("Invalid invite_to_realm_policy");
    const value = valueOfGroupName(group);
    await this.deps.permissions.setRealmSettings(actor, {
      can_invite_users_group: { new: value },
      create_multiuse_invite_group: { new: value },
    });
  }

  /**
   * Whether `user` may invite (not a bot): one person with a single-use link under the realm's
   * `can_invite_users_group` (Zulip's invitations to one person, sent by email there), anyone with
   * a reusable link under `create_multiuse_invite_group` (Zulip's reusable invitation links).
   */
  async canInvite(user: User, reusable = false): Promise<boolean> {
    if (user.isBot || !user.isActive) return false;
    const { permissions } = this.deps;
    const setting = reusable ? "create_multiuse_invite_group" : "can_invite_users_group";
    return permissions.hasPermission(user, await permissions.realmSetting(setting));
  }

  /** POST /invites/multiuse: the new link (shown this once) and its id. */
  async create(actor: User, input: NewInvite): Promise<{ id: number; link: string }> {
    if (!(await this.canInvite(actor, !input.singleUse))) throw new JsonableError("Insufficient permission");
    if (!ROLES.includes(input.inviteAs)) throw new JsonableError("Invalid invite_as");
    if (input.inviteAs === Role.OWNER && actor.role !== Role.OWNER)
      throw new JsonableError("Must be an organization owner");
    if (input.inviteAs <= Role.ADMIN && !isAdmin(actor))
      throw new JsonableError("Must be an organization administrator");
    if (input.expiresInMinutes !== null && input.expiresInMinutes <= 0)
      throw new JsonableError("Invalid invite_expires_in_minutes");
    const key = crypto.randomBytes(24).toString("base64url");
    const now = this.deps.clock.now();
    const row = await this.repo.insert({
      realmId: actor.realmId,
      referrerId: actor.id,
      keyHash: hashKey(key),
      inviteAs: input.inviteAs,
      createdAt: now,
      expiresAt: input.expiresInMinutes === null ? null : now + input.expiresInMinutes * 60_000,
      maxUses: input.singleUse ? 1 : null,
    });
    return { id: row.id, link: `${this.deps.realmUrl().replace(/\/+$/, "")}/join/${key}/` };
  }

  /** GET /invites: the usable links, all of them for an administrator, else the user's own. */
  async list(actor: User): Promise<InviteInfo[]> {
    const rows = await this.repo.usable(
      actor.realmId,
      this.deps.clock.now(),
      isAdmin(actor) ? undefined : actor.id,
    );
    return rows.map(info);
  }

  /** DELETE /invites/multiuse/{id}: the link stops working (its maker or an administrator). */
  async revoke(actor: User, id: number): Promise<void> {
    const row = await this.repo.byId(actor.realmId, id);
    if (row === undefined || row.revoked) throw new JsonableError("No such invitation");
    if (row.referrerId !== actor.id && !isAdmin(actor))
      throw new JsonableError("Must be an organization administrator");
    await this.repo.revoke(id);
  }

  /** Whether a link's key is usable now (the join page asks before showing its form). */
  async check(key: string): Promise<void> {
    const row = await this.repo.byKeyHash(hashKey(key));
    const now = this.deps.clock.now();
    if (
      row === undefined ||
      row.revoked ||
      (row.expiresAt !== null && row.expiresAt <= now) ||
      (row.maxUses !== null && row.uses >= row.maxUses)
    )
      throw new InvalidInvitationError();
  }

  /**
   * POST /join/{key}: an account for the person who opened the link, in the default streams.
   * The link's use is taken first (so a single-use link makes one account, even when two people
   * submit at once) and given back if the account cannot be created (email in use, bad name).
   */
  async accept(key: string, registration: Registration): Promise<User> {
    const row = await this.repo.byKeyHash(hashKey(key));
    if (row === undefined || !(await this.repo.claim(row.id, this.deps.clock.now())))
      throw new InvalidInvitationError();
    try {
      if (registration.password === "") throw new JsonableError("Password cannot be empty");
      return await this.deps.users.createUser(await this.organization(row), {
        email: registration.email,
        password: registration.password,
        fullName: registration.fullName,
        role: row.inviteAs,
        joinDefaultStreams: true,
      });
    } catch (err) {
      await this.repo.release(row.id);
      throw err;
    }
  }

  /**
   * Who creates the account: the link's maker when an active administrator, else any active
   * administrator. The link carries the right, checked when it was made (as in Zulip, a link
   * outlives a change of its maker's role).
   */
  private async organization(row: InviteRow): Promise<User> {
    const admins = (await this.deps.users.allUsers()).filter(
      (u) => u.realmId === row.realmId && u.isActive && !u.isBot && isAdmin(u),
    );
    const actor = admins.find((u) => u.id === row.referrerId) ?? admins[0];
    if (actor === undefined) throw new InvalidInvitationError();
    return actor;
  }
}
