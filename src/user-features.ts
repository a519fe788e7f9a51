import type { Clock } from "./clock.js";
import type { EventSink } from "./domain/events/event-sink.js";
import { PresenceService } from "./domain/presence/presence-service.js";
import { UserStatusService } from "./domain/settings/user-status-service.js";
import type { StreamAccess } from "./domain/streams/access.js";
import { TypingService } from "./domain/typing/typing-service.js";
import { UserGroupsService } from "./domain/user-groups/user-groups-service.js";
import type { UserService } from "./domain/users/user-service.js";
import type { Db } from "./store/db.js";
import { UserGroupsRepo } from "./store/user-groups-repo.js";
import { UserStateRepo } from "./store/user-state-repo.js";
import { UserStatusRepo } from "./store/user-status-repo.js";

/**
 * The per-user features of issue 18 (presence, typing, user status, the state register reports),
 * wired in one place so src/services.ts gains one line per area, not one per service.
 */
export interface UserFeatures {
  /** Presence pings and the realm's presence (POST /users/me/presence, GET /realm/presence). */
  presence: PresenceService;
  /** Typing notifications (POST /typing). */
  typing: TypingService;
  /** User status (POST /users/me/status). */
  userStatus: UserStatusService;
  /** User groups and `@*group*` mentions (/user_groups). */
  userGroups: UserGroupsService;
  /** Read-only per-user state for register (starred ids, recent conversations, user topics). */
  userState: UserStateRepo;
}

export interface UserFeatureDeps {
  db: Db;
  events: EventSink;
  clock: Clock;
  users: UserService;
  streams: StreamAccess;
  /** Created first (createUserGroups): the messages service renders group mentions with it. */
  userGroups: UserGroupsService;
}

export function createUserGroups(
  deps: Pick<UserFeatureDeps, "db" | "events" | "clock" | "users">,
): UserGroupsService {
  return new UserGroupsService(new UserGroupsRepo(deps.db), deps.users, deps.events, deps.clock);
}

export function createUserFeatures(deps: UserFeatureDeps): UserFeatures {
  const { db, events, clock, users, streams } = deps;
  // Realm-wide events (presence, status) go to every active user.
  const realmUserIds = async (): Promise<number[]> =>
    (await users.allUsers()).filter((u) => u.isActive).map((u) => u.id);
  return {
    presence: new PresenceService(events, clock, realmUserIds),
    typing: new TypingService(events, users, streams),
    userStatus: new UserStatusService(new UserStatusRepo(db), events, clock, realmUserIds),
    userState: new UserStateRepo(db),
    userGroups: deps.userGroups,
  };
}
