import {
  AuthenticationFailedError,
  InvalidApiKeyError,
  JsonableError,
  UnauthorizedError,
  UnauthorizedPrincipalError,
  UserDeactivatedError,
} from "../../errors.js";
import type { Clock } from "../../clock.js";
import { apiKeyLookupId, onUserCredentialsChange } from "../../store/users-repo.js";
import type { NewUser, UsersRepo } from "../../store/users-repo.js";
import type { EventSink } from "../events/event-sink.js";
import type { EgressPolicy } from "../egress/egress-policy.js";
import { AuthCache } from "./auth-cache.js";
import { LoginThrottle } from "./login-throttle.js";
import type { FailureLog } from "../../infra/failure-log.js";
import { constantTimeEqual } from "../../lib/constant-time.js";
import {
  dummyPasswordHash,
  generateApiKey,
  generateToken,
  hashPassword,
  isWellFormedApiKey,
  verifyPassword,
} from "./secrets.js";
import { avatarUrl } from "./avatar.js";
import { BotType, Role, isAdmin } from "./types.js";
import type { BotService, BotTypeValue, CustomProfileField, ProfileValue, Realm, User } from "./types.js";

export const MAX_NAME_LENGTH = 100;
const EMAIL_RE = /^[^\s@]+@[^\s@]+$/;

export interface NewBot {
  fullName: string;
  shortName: string;
  botType: number;
  payloadUrl?: string | undefined;
  interfaceType?: number | undefined;
  serviceName?: string | undefined;
  configData?: Record<string, string> | undefined;
}

export interface UserServiceOptions {
  /** Checks outgoing-webhook URLs when a bot is created or edited (src/domain/egress). */
  egress?: EgressPolicy | undefined;
  /** Active bots one user may own (`--max-bots-per-user`); 0 or absent: no cap. */
  maxBotsPerUser?: number | undefined;
  /**
   * Bots' old API keys still valid during a rotation's overlap (src/domain/users/credential-rotation.ts):
   * the bot whose old key has this lookup id. Absent: no old key authenticates.
   */
  oldApiKeys?: { botOfOldApiKey(keyHash: string, now: number): Promise<number | undefined> } | undefined;
}

export interface BotWithServices {
  bot: User;
  services: BotService[];
}

/** Users, bots, authentication and custom profile fields. */
export class UserService {
  private readonly throttle: LoginThrottle;

  constructor(
    private readonly repo: UsersRepo,
    private readonly events: EventSink,
    private readonly clock: Clock,
    private readonly botDomain: () => string,
    /** Whether a bundled bot may run as an embedded bot (the bot registry's port, src/services.ts). */
    private readonly isEmbeddableBot: (name: string) => boolean,
    /** Where failed sign-ins are counted (shared by every process with `--redis`). */
    failureLog?: FailureLog,
    private readonly options: UserServiceOptions = {},
  ) {
    this.throttle = new LoginThrottle(clock, failureLog);
    // Any UsersRepo write of a key or the active flag drops the user from this cache at once. The
    // listener holds the cache weakly so a closed server's service can be collected.
    const cache = new WeakRef(this.authCache);
    const unsubscribe = onUserCredentialsChange((userId) => {
      const live = cache.deref();
      if (live === undefined) unsubscribe();
      else live.invalidate(userId);
    });
  }

  async realm(): Promise<Realm> {
    const realm = await this.repo.getRealm();
    if (realm === undefined) throw new Error("The organization has not been created yet");
    return realm;
  }

  /** Recently authenticated users (see AuthCache: 5 s, dropped at once on in-process changes). */
  private readonly authCache = new AuthCache();

  /**
   * The invalidation hook for lifecycle code: call it after deactivating or reactivating a user
   * or bot, changing a key or a role, so the next request sees the change. (UsersRepo.setActive
   * and setApiKey already call it through `onUserCredentialsChange`.)
   */
  invalidateCredentials(userId: number): void {
    this.authCache.invalidate(userId);
  }

  private forget(user: User): void {
    this.authCache.invalidate(user.id);
  }

  /** HTTP Basic credentials → the active user, with Zulip's messages in Zulip's order. */
  async authenticate(email: string, apiKey: string): Promise<User> {
    if (!isWellFormedApiKey(apiKey)) throw new UnauthorizedError("Malformed API key");
    const now = this.clock.now();
    let user = this.authCache.get(email, now);
    if (user === undefined) {
      user = await this.repo.byEmail(email);
      if (user !== undefined && user.isActive) this.authCache.set(user, now);
    }
    // Compare against a dummy key when the user is unknown, so timing does not reveal emails.
    const expected = user?.apiKey ?? "x".repeat(32);
    const current = constantTimeEqual(apiKey, expected);
    // A bot's old key during a rotation's overlap also authenticates (looked up only on a mismatch).
    if (user === undefined || (!current && !(user.isBot && (await this.isOldApiKeyOf(user.id, apiKey, now)))))
      throw new UnauthorizedError("Invalid API key");
    if (!user.isActive) throw new UnauthorizedError("Account is deactivated");
    return user;
  }

  /** An incoming webhook's `api_key` → its active user (any account's key works, as in Zulip). */
  async authenticateApiKey(apiKey: string): Promise<User> {
    return (await this.authenticateApiKeyCredential(apiKey)).user;
  }

  /**
   * As {@link authenticateApiKey}, and whether the key was a bot's old one, still valid during a
   * rotation's overlap (the delivery log marks such requests).
   */
  async authenticateApiKeyCredential(apiKey: string): Promise<{ user: User; oldKey: boolean }> {
    const key = apiKey.trim();
    if (!isWellFormedApiKey(key)) throw new InvalidApiKeyError("Malformed API key");
    const now = this.clock.now();
    let user = this.authCache.getByKey(key, now);
    if (user === undefined) {
      user = await this.repo.byApiKey(key);
      if (user !== undefined && user.isActive) this.authCache.setByKey(key, user, now);
    }
    let oldKey = false;
    if (user === undefined || !constantTimeEqual(user.apiKey, key)) {
      // Old keys are not cached: retiring one takes effect at once.
      const botId = await this.options.oldApiKeys?.botOfOldApiKey(apiKeyLookupId(key), now);
      user = botId === undefined ? undefined : await this.repo.byId(botId);
      if (user === undefined || !user.isBot) throw new InvalidApiKeyError();
      oldKey = true;
    }
    if (!user.isActive) throw new UserDeactivatedError();
    return { user, oldKey };
  }

  /** Whether `apiKey` is an old key of this bot, still valid at `now`. */
  private async isOldApiKeyOf(botId: number, apiKey: string, now: number): Promise<boolean> {
    const owner = await this.options.oldApiKeys?.botOfOldApiKey(apiKeyLookupId(apiKey), now);
    return owner === botId;
  }

  /**
   * Username + password → the user. The scrypt check runs off the event loop; failures are limited
   * per username and per client IP (429 RATE_LIMIT_HIT); an unknown user costs the same check.
   */
  async fetchApiKey(username: string, password: string, clientIp?: string): Promise<User> {
    const key = username.trim().toLowerCase();
    await this.throttle.check(key, clientIp);
    const user = await this.repo.byEmail(key);
    const hash = user ? await this.repo.passwordHash(user.id) : null;
    const ok = await verifyPassword(password, hash ?? (await dummyPasswordHash()));
    if (!ok || hash === null || user === undefined) {
      await this.throttle.fail(key, clientIp);
      throw new AuthenticationFailedError();
    }
    if (!user.isActive) throw new UserDeactivatedError();
    await this.throttle.succeed(key);
    return user;
  }

  async byId(id: number): Promise<User | undefined> {
    return this.repo.byId(id);
  }

  async byEmail(email: string): Promise<User | undefined> {
    return this.repo.byEmail(email);
  }

  async getUser(id: number): Promise<User> {
    const user = await this.repo.byId(id);
    if (user === undefined) throw new JsonableError("No such user");
    return user;
  }

  async allUsers(): Promise<User[]> {
    return this.repo.all();
  }

  /** The ids of the active users (bots included), ascending: the realm-wide events' recipients. */
  async activeUserIds(): Promise<number[]> {
    return this.repo.activeIds();
  }

  /** The emails of the users among `ids`, by id. */
  async emailsOf(ids: readonly number[]): Promise<Map<number, string>> {
    return this.repo.emailsOf(ids);
  }

  /** Changes whenever what a directory of users (names, emails, activity, profile fields) holds changes. */
  async directoryVersion(): Promise<number> {
    return this.repo.directoryVersion();
  }

  async profileData(userIds: readonly number[] | null): Promise<Map<number, Map<number, ProfileValue>>> {
    return this.repo.profileValues(userIds);
  }

  /** Zulip's full-name rules (trimmed; "Name too short!", "Name too long!", "Invalid characters in name!"). */
  validateFullName(fullName: string): string {
    const name = fullName.trim();
    if (name === "") throw new JsonableError("Name too short!");
    if (name.length > MAX_NAME_LENGTH) throw new JsonableError("Name too long!");
    if (/[\p{Cc}*`\\>"@]/u.test(name)) throw new JsonableError("Invalid characters in name!");
    return name;
  }

  private requireAdmin(actor: User): void {
    if (!isAdmin(actor)) throw new UnauthorizedPrincipalError("Must be an organization administrator");
  }

  /** The first start: the organization, its owner and the Notification Bot. */
  async createRealm(opts: {
    stringId: string;
    name: string;
    description: string;
    ownerEmail: string;
    ownerName: string;
    ownerPassword: string;
  }): Promise<{ realm: Realm; owner: User }> {
    const now = this.clock.now();
    const realmId = await this.repo.createRealm(
      opts.stringId,
      opts.name,
      opts.description,
      Math.floor(now / 1000),
    );
    const owner = await this.insertNewUser("Email is already in use.", {
      realmId,
      email: opts.ownerEmail,
      fullName: opts.ownerName,
      shortName: opts.ownerEmail.split("@")[0] ?? "",
      passwordHash: await hashPassword(opts.ownerPassword),
      apiKey: generateApiKey(),
      role: Role.OWNER,
      isBot: false,
      botType: null,
      botOwnerId: null,
      dateJoinedMs: now,
    });
    await this.insertNewUser("Username already in use", {
      realmId,
      email: `notification-bot@${this.botDomain()}`,
      fullName: "Notification Bot",
      shortName: "notification-bot",
      passwordHash: null,
      apiKey: generateApiKey(),
      role: Role.MEMBER,
      isBot: true,
      botType: BotType.GENERIC,
      botOwnerId: null,
      dateJoinedMs: now,
    });
    return { realm: (await this.repo.getRealm())!, owner };
  }

  /** The system bot that sends owner notifications and subscription notices. */
  async notificationBot(): Promise<User> {
    const bot = await this.repo.byEmail(`notification-bot@${this.botDomain()}`);
    if (bot !== undefined) return bot;
    const all = await this.repo.all();
    const found = all.find((u) => u.isBot && u.botOwnerId === null && u.shortName === "notification-bot");
    if (found === undefined) throw new Error("The Notification Bot is missing");
    return found;
  }

  async createUser(
    actor: User,
    input: {
      email: string;
      password: string | undefined;
      fullName: string;
      role?: number;
      /** Join the default streams (true, as in Zulip; seeding code may choose otherwise). */
      joinDefaultStreams?: boolean;
    },
  ): Promise<User> {
    this.requireAdmin(actor);
    const email = input.email.trim();
    if (!EMAIL_RE.test(email)) throw new JsonableError(`Invalid email '${email}'`);
    if ((await this.repo.byEmail(email)) !== undefined) throw new JsonableError("Email is already in use.");
    const fullName = this.validateFullName(input.fullName);
    const user = await this.insertNewUser("Email is already in use.", {
      realmId: actor.realmId,
      email,
      fullName,
      shortName: email.split("@")[0] ?? "",
      passwordHash:
        input.password === undefined || input.password === "" ? null : await hashPassword(input.password),
      apiKey: generateApiKey(),
      role: (input.role as User["role"] | undefined) ?? Role.MEMBER,
      isBot: false,
      botType: null,
      botOwnerId: null,
      dateJoinedMs: this.clock.now(),
    });
    await this.announceUser(user);
    if (input.joinDefaultStreams !== false) {
      for (const listener of this.createdListeners) await listener(user);
    }
    return user;
  }

  /**
   * Inserts a user or bot whose email was checked free; `taken` is the error when another request
   * took the email since (two admins creating the same user at once).
   */
  private async insertNewUser(taken: string, user: NewUser): Promise<User> {
    const inserted = await this.repo.insertUser(user);
    if (inserted === undefined) throw new JsonableError(taken);
    return inserted;
  }

  private readonly createdListeners: ((user: User) => Promise<void>)[] = [];

  /** Runs after a human user is created (default-stream subscriptions hook in here). */
  onUserCreated(listener: (user: User) => Promise<void>): void {
    this.createdListeners.push(listener);
  }

  private async announceUser(user: User): Promise<void> {
    const everyone = (await this.repo.all()).filter((u) => u.isActive);
    this.events.send(
      { type: "realm_user", op: "add", person: userEventPerson(user) },
      everyone.map((u) => u.id),
    );
  }

  /**
   * An outgoing webhook's URL must be one the server may request: EgressDeniedError (400) when
   * its host is, or resolves to, an address the egress policy denies. A name that does not
   * resolve yet is accepted (each delivery checks again).
   */
  async checkPayloadUrl(url: string): Promise<void> {
    await this.options.egress?.checkOnSave(url);
  }

  async createBot(owner: User, input: NewBot): Promise<BotWithServices> {
    if (owner.isBot) throw new JsonableError("This endpoint does not accept bot requests.");
    if (owner.role === Role.GUEST) throw new JsonableError("Not allowed for guest users");
    const fullName = this.validateFullName(input.fullName);
    const shortName = input.shortName.trim().toLowerCase();
    if (shortName === "" || !/^[a-z0-9._-]+$/.test(shortName))
      throw new JsonableError("Bad name or username");
    const botType = input.botType;
    if (
      ![BotType.GENERIC, BotType.INCOMING_WEBHOOK, BotType.OUTGOING_WEBHOOK, BotType.EMBEDDED].includes(
        botType as BotTypeValue,
      )
    ) {
      throw new JsonableError("Invalid bot type");
    }
    const interfaceType = input.interfaceType ?? 1;
    if (interfaceType !== 1 && interfaceType !== 2) throw new JsonableError("Invalid interface type");
    const email = `${shortName}-bot@${this.botDomain()}`;
    if ((await this.repo.byEmail(email)) !== undefined) throw new JsonableError("Username already in use");
    if (await this.repo.fullNameTaken(fullName)) throw new JsonableError("Name is already in use!");
    const maxBots = this.options.maxBotsPerUser ?? 0;
    if (maxBots > 0 && (await this.repo.botsOwnedBy(owner.id)).filter((b) => b.isActive).length >= maxBots) {
      throw new JsonableError(
        `You already own ${maxBots} active bots, the most this server allows; deactivate one first.`,
      );
    }
    let baseUrl: string | undefined;
    if (botType === BotType.OUTGOING_WEBHOOK) {
      baseUrl = (input.payloadUrl ?? "").trim();
      if (!/^https?:\/\/[^\s]+$/.test(baseUrl)) throw new JsonableError("payload_url is not a URL");
      await this.checkPayloadUrl(baseUrl);
    }
    if (botType === BotType.EMBEDDED && !this.isEmbeddableBot(input.serviceName ?? shortName)) {
      throw new JsonableError("Invalid embedded bot name.");
    }
    const bot = await this.insertNewUser("Username already in use", {
      realmId: owner.realmId,
      email,
      fullName,
      shortName,
      passwordHash: null,
      apiKey: generateApiKey(),
      role: Role.MEMBER,
      isBot: true,
      botType: botType as BotTypeValue,
      botOwnerId: owner.id,
      dateJoinedMs: this.clock.now(),
    });
    if (input.configData !== undefined && Object.keys(input.configData).length > 0) {
      await this.repo.setBotConfig(bot.id, input.configData);
    }
    const services: BotService[] = [];
    if (botType === BotType.OUTGOING_WEBHOOK && baseUrl !== undefined) {
      services.push(
        await this.repo.insertService({
          botId: bot.id,
          name: shortName,
          baseUrl,
          interface: interfaceType,
          token: generateToken(),
        }),
      );
    }
    if (botType === BotType.EMBEDDED) {
      services.push(
        await this.repo.insertService({
          botId: bot.id,
          name: input.serviceName ?? shortName,
          baseUrl: "",
          interface: 1,
          token: generateToken(),
        }),
      );
    }
    await this.announceUser(bot);
    const admins = (await this.repo.all()).filter(
      (u) => u.isActive && !u.isBot && (isAdmin(u) || u.id === owner.id),
    );
    this.events.send(
      { type: "realm_bot", op: "add", bot: botEventData(bot, services) },
      admins.map((u) => u.id),
    );
    return { bot, services };
  }

  async botsOf(owner: User): Promise<BotWithServices[]> {
    const bots = await this.repo.botsOwnedBy(owner.id);
    return Promise.all(bots.map(async (bot) => ({ bot, services: await this.repo.servicesOf(bot.id) })));
  }

  /** A bot's configuration (embedded bots' config, webhook secrets). */
  async botConfig(botId: number): Promise<Record<string, string>> {
    return this.repo.botConfig(botId);
  }

  /** Owner (or an administrator) updates a bot's configuration entries. */
  async updateBotConfig(actor: User, botId: number, entries: Record<string, string>): Promise<void> {
    const bot = await this.repo.byId(botId);
    if (bot === undefined || !bot.isBot) throw new JsonableError("No such bot");
    if (bot.botOwnerId !== actor.id && !isAdmin(actor)) throw new JsonableError("Insufficient permission");
    for (const [k, v] of Object.entries(entries)) {
      if (v.length > 10000) throw new JsonableError(`Value of config_data["${k}"] is too long`);
    }
    await this.repo.setBotConfig(botId, entries);
  }

  async servicesOf(botId: number): Promise<BotService[]> {
    return this.repo.servicesOf(botId);
  }

  async profileFields(): Promise<CustomProfileField[]> {
    return this.repo.profileFields();
  }

  /** Sets (or with an empty value, clears) the user's own profile field values. */
  async updateProfileData(user: User, data: readonly { id: number; value: string }[]): Promise<void> {
    const fields = new Map((await this.repo.profileFields()).map((f) => [f.id, f]));
    for (const item of data) {
      if (!fields.has(item.id)) throw new JsonableError(`Field id ${item.id} not found.`);
    }
    for (const item of data) {
      if (item.value === "") await this.repo.deleteProfileValue(user.id, item.id);
      else await this.repo.setProfileValue(user.id, item.id, item.value, null);
      this.events.send(
        {
          type: "realm_user",
          op: "update",
          person: { user_id: user.id, custom_profile_field: { id: item.id, value: item.value } },
        },
        (await this.repo.all()).filter((u) => u.isActive).map((u) => u.id),
      );
    }
  }

  async regenerateApiKey(user: User): Promise<string> {
    const key = generateApiKey();
    await this.repo.setApiKey(user.id, key);
    this.forget(user);
    return key;
  }
}

/** The `person` of realm_user events. */
export function userEventPerson(user: User): Record<string, unknown> {
  return {
    user_id: user.id,
    email: user.email,
    full_name: user.fullName,
    is_admin: isAdmin(user),
    is_owner: user.role === Role.OWNER,
    is_guest: user.role === Role.GUEST,
    is_bot: user.isBot,
    bot_type: user.botType,
    ...(user.isBot ? { bot_owner_id: user.botOwnerId } : {}),
    role: user.role,
    timezone: user.timezone,
    avatar_url: avatarUrl(user.email),
    avatar_version: 1,
    date_joined: new Date(user.dateJoinedMs).toISOString().replace("Z", "+00:00"),
    is_active: user.isActive,
  };
}

export function botEventData(bot: User, services: BotService[]): Record<string, unknown> {
  return {
    email: bot.email,
    user_id: bot.id,
    full_name: bot.fullName,
    bot_type: bot.botType,
    is_active: bot.isActive,
    api_key: bot.apiKey,
    default_sending_stream: bot.defaultSendingStream,
    default_events_register_stream: bot.defaultEventsRegisterStream,
    default_all_public_streams: bot.defaultAllPublicStreams,
    avatar_url: avatarUrl(bot.email),
    owner_id: bot.botOwnerId,
    services: services.map((s) =>
      bot.botType === BotType.EMBEDDED
        ? { service_name: s.name, config_data: {} }
        : { base_url: s.baseUrl, interface: s.interface, token: s.token },
    ),
  };
}
