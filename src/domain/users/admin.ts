import { JsonableError, UnauthorizedPrincipalError } from "../../errors.js";
import type { UserAdminRepo } from "../../store/user-admin-repo.js";
import type { EventSink } from "../events/event-sink.js";
import { Role, isAdmin } from "./types.js";
import type { User } from "./types.js";

/** What user administration needs of the users area. */
export interface AdminUsers {
  byId(id: number): Promise<User | undefined>;
  allUsers(): Promise<User[]>;
  activeUserIds(): Promise<number[]>;
  invalidateCredentials(userId: number): void;
  validateFullName(fullName: string): string;
}

/** Where deactivation is written (UsersRepo.setActive invalidates cached credentials). */
export interface ActiveFlag {
  setActive(userId: number, active: boolean): Promise<void>;
  botsOwnedBy(ownerId: number): Promise<User[]>;
}

export interface UserAdminDeps {
  users: AdminUsers;
  active: ActiveFlag;
  repo: UserAdminRepo;
  events: EventSink;
  /** Called for each deactivated account (presence forgets it). */
  onDeactivated?: (userId: number) => void;
}

const ROLES: readonly number[] = [Role.OWNER, Role.ADMIN, Role.MODERATOR, Role.MEMBER, Role.GUEST];

/**
 * User administration: PATCH /users/{id} (name, role) and DELETE /users/{id} (deactivation). A
 * deactivated user's API key, web sessions (SessionService.lookUp refuses inactive users) and bots
 * stop working at once. Reactivation is BotLifecycleService.reactivate (POST /users/{id}/reactivate).
 */
export class UserAdminService {
  constructor(private readonly deps: UserAdminDeps) {}

  private async everyone(): Promise<number[]> {
    return this.deps.users.activeUserIds();
  }

  private async target(actor: User, userId: number, allowDeactivated: boolean): Promise<User> {
    const user = await this.deps.users.byId(userId);
    if (user === undefined || user.realmId !== actor.realmId || (!allowDeactivated && !user.isActive)) {
      throw new JsonableError("No such user");
    }
    return user;
  }

  private requireAdmin(actor: User): void {
    if (!isAdmin(actor)) throw new UnauthorizedPrincipalError("Must be an organization administrator");
  }

  async update(actor: User, userId: number, change: { fullName?: string; role?: number }): Promise<void> {
    this.requireAdmin(actor);
    const user = await this.target(actor, userId, true);
    const recipients = await this.everyone();
    if (change.role !== undefined && change.role !== user.role) {
      if (!ROLES.includes(change.role)) throw new JsonableError("Invalid role");
      if ((change.role === Role.OWNER || user.role === Role.OWNER) && actor.role !== Role.OWNER) {
        throw new JsonableError("Must be an organization owner");
      }
      const owners = await this.deps.repo.activeOwnerIds();
      if (user.role === Role.OWNER && owners.length === 1 && owners[0] === user.id) {
        throw new JsonableError("The owner permission cannot be removed from the only organization owner.");
      }
    }
    const fullName =
      change.fullName === undefined ? undefined : this.deps.users.validateFullName(change.fullName);
    if (change.role !== undefined && change.role !== user.role) {
      await this.deps.repo.setRole(user.id, change.role);
      this.deps.users.invalidateCredentials(user.id);
      this.deps.events.send(
        { type: "realm_user", op: "update", person: { user_id: user.id, role: change.role } },
        recipients,
      );
    }
    if (fullName !== undefined && fullName !== user.fullName) {
      await this.deps.repo.setFullName(user.id, fullName);
      this.deps.users.invalidateCredentials(user.id);
      this.deps.events.send(
        { type: "realm_user", op: "update", person: { user_id: user.id, full_name: fullName } },
        recipients,
      );
    }
  }

  /** DELETE /users/{id} (administrators) or DELETE /users/me (oneself). */
  async deactivate(actor: User, userId: number): Promise<void> {
    if (actor.id !== userId) this.requireAdmin(actor);
    const user = await this.target(actor, userId, false);
    if (user.isBot) throw new JsonableError("No such user");
    if (user.role === Role.OWNER) {
      if (actor.role !== Role.OWNER) throw new JsonableError("Must be an organization owner");
      const owners = await this.deps.repo.activeOwnerIds();
      if (owners.length === 1) throw new JsonableError("Cannot deactivate the only organization owner");
    }
    const bots = (await this.deps.active.botsOwnedBy(user.id)).filter((b) => b.isActive);
    for (const account of [user, ...bots]) {
      await this.deps.active.setActive(account.id, false);
      this.deps.users.invalidateCredentials(account.id);
      this.deps.onDeactivated?.(account.id);
    }
    const recipients = await this.everyone();
    const admins = (await this.deps.users.allUsers())
      .filter((u) => u.isActive && isAdmin(u))
      .map((u) => u.id);
    for (const account of [user, ...bots]) {
      const person = { user_id: account.id, full_name: account.fullName };
      this.deps.events.send({ type: "realm_user", op: "remove", person }, recipients);
      if (account.isBot) this.deps.events.send({ type: "realm_bot", op: "remove", bot: person }, admins);
    }
  }
}
