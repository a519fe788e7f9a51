import type { Clock } from "./clock.js";
import type { EventSink } from "./domain/events/event-sink.js";
import { PersonalListsService } from "./domain/alert-words/personal-lists-service.js";
import { LinkifiersService } from "./domain/linkifiers/linkifiers-service.js";
import { PresenceService } from "./domain/presence/presence-service.js";
import type { PresenceStore } from "./domain/presence/presence-service.js";
import type { ChangeBus } from "./infra/change-bus.js";
import type { Logger } from "./lib/logger.js";
import { SettingsService } from "./domain/settings/settings-service.js";
import { UserStatusService } from "./domain/settings/user-status-service.js";
import type { StreamAccess } from "./domain/streams/access.js";
import { TypingService } from "./domain/typing/typing-service.js";
import { UserGroupsService } from "./domain/user-groups/user-groups-service.js";
import { UserAdminService } from "./domain/users/admin.js";
import { ProfileFieldsService } from "./domain/users/profile-fields.js";
import type { UserService } from "./domain/users/user-service.js";
import type { Db } from "./store/db.js";
import { LinkifiersRepo } from "./store/linkifiers-repo.js";
import { PersonalListsRepo } from "./store/personal-lists-repo.js";
import { UserAdminRepo } from "./store/user-admin-repo.js";
import { UserGroupsRepo } from "./store/user-groups-repo.js";
import { UsersRepo } from "./store/users-repo.js";
import { UserStateRepo } from "./store/user-state-repo.js";
import { UserStateService } from "./domain/users/user-state-service.js";
import { UserStatusRepo } from "./store/user-status-repo.js";
import { PushTokensService } from "./domain/push/push-tokens-service.js";
import { PushTokensRepo } from "./store/push-tokens-repo.js";

/**
 * Part of the composition root (with src/services.ts): builds the repositories and services of the
 * per-user features (presence, typing, user status, the state register reports), so that
 * src/services.ts gains one line per area, not one per service.
 */
export interface UserFeatures {
  /** Presence pings and the realm's presence (POST /users/me/presence, GET /realm/presence). */
  presence: PresenceService;
  /** Typing notifications (POST /typing). */
  typing: TypingService;
  /** User status (POST /users/me/status). */
  userStatus: UserStatusService;
  /** PATCH /users/{id} (name, role), DELETE /users/{id} (deactivation). */
  userAdmin: UserAdminService;
  /** Alert words and muted users (/users/me/alert_words, /users/me/muted_users). */
  personalLists: PersonalListsService;
  /** Linkifiers (/realm/linkifiers, /realm/filters), applied by the Markdown renderer. */
  linkifiers: LinkifiersService;
  /** PATCH /settings: full name, password, display settings (register reads them). */
  settings: SettingsService;
  /** User groups and `@*group*` mentions (/user_groups). */
  userGroups: UserGroupsService;
  /** Read-only per-user state for register (starred ids, recent conversations, user topics). */
  userState: UserStateService;
  /** Managing custom profile fields (POST, PATCH, DELETE /realm/profile_fields…). */
  profileFields: ProfileFieldsService;
  /** Mobile push tokens (/users/me/apns_device_token, /users/me/android_gcm_reg_id), stored only. */
  pushTokens: PushTokensService;
}

export interface UserFeatureDeps {
  db: Db;
  events: EventSink;
  clock: Clock;
  users: UserService;
  streams: StreamAccess;
  /** Created first (createUserGroups): the messages service renders group mentions with it. */
  userGroups: UserGroupsService;
  /** Created first too (createPersonalLists): sending flags alert words with it. */
  personalLists: PersonalListsService;
  /** Created first too (createLinkifiers): the renderer applies them. */
  linkifiers: LinkifiersService;
  /** Where presence rows live (Redis with `--redis`; this process's memory by default). */
  presenceStore?: PresenceStore | undefined;
}

export function createLinkifiers(
  deps: Pick<UserFeatureDeps, "db" | "events" | "users"> & {
    changes?: ChangeBus | undefined;
    logger?: Logger;
  },
): LinkifiersService {
  return new LinkifiersService(
    new LinkifiersRepo(deps.db),
    deps.users,
    deps.events,
    deps.changes,
    deps.logger,
  );
}

export function createPersonalLists(
  deps: Pick<UserFeatureDeps, "db" | "events" | "clock" | "users"> & { changes?: ChangeBus | undefined },
): PersonalListsService {
  return new PersonalListsService(
    new PersonalListsRepo(deps.db),
    deps.users,
    deps.events,
    deps.clock,
    deps.changes,
  );
}

export function createUserGroups(
  deps: Pick<UserFeatureDeps, "db" | "events" | "clock" | "users">,
): UserGroupsService {
  return new UserGroupsService(new UserGroupsRepo(deps.db), deps.users, deps.events, deps.clock);
}

export function createUserFeatures(deps: UserFeatureDeps): UserFeatures {
  const { db, events, clock, users, streams } = deps;
  // Realm-wide events (presence, status) go to every active user.
  const realmUserIds = (): Promise<number[]> => users.activeUserIds();
  const presence = new PresenceService(events, clock, realmUserIds, deps.presenceStore);
  const usersRepo = new UsersRepo(db);
  const adminRepo = new UserAdminRepo(db);
  return {
    presence,
    userAdmin: new UserAdminService({
      users,
      active: usersRepo,
      repo: adminRepo,
      events,
      onDeactivated: (id) => {
        void presence.forget(id).catch(() => undefined);
      },
    }),
    typing: new TypingService(events, users, streams),
    userStatus: new UserStatusService(new UserStatusRepo(db), events, clock, realmUserIds),
    userState: new UserStateService(new UserStateRepo(db)),
    profileFields: new ProfileFieldsService(usersRepo, users, events),
    pushTokens: new PushTokensService(new PushTokensRepo(db), clock),
    userGroups: deps.userGroups,
    personalLists: deps.personalLists,
    linkifiers: deps.linkifiers,
    settings: new SettingsService(
      {
        userSettings: (id) => usersRepo.userSettings(id),
        saveUserSettings: (id, s) => usersRepo.saveUserSettings(id, s),
        passwordHash: (id) => usersRepo.passwordHash(id),
        setPasswordHash: (id, hash) => usersRepo.setPasswordHash(id, hash),
        setFullName: (id, name) => adminRepo.setFullName(id, name),
      },
      users,
      events,
    ),
  };
}
