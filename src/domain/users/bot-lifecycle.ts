/**
 * The bot lifecycle, with Zulip's rules and events: edit a bot (name, owner, outgoing-webhook URL
 * and interface, config, default streams), deactivate and reactivate it, regenerate its key (or a
 * user's own). Changes reach the bot's owner and the administrators as `realm_bot` events, and
 * everyone as `realm_user` events where Zulip sends them.
 *
 * A deactivated bot stops at once: its key no longer authenticates (API and incoming webhooks; the
 * auth cache is invalidated through UserService's hook), and its pending outgoing-webhook
 * deliveries are dropped when they come up (the delivery worker skips inactive bots).
 */
import { JsonableError, UnauthorizedPrincipalError } from "../../errors.js";
import type { BotsRepo } from "../../store/bots-repo.js";
import type { UsersRepo } from "../../store/users-repo.js";
import type { EventSink } from "../events/event-sink.js";
import { avatarUrl } from "./avatar.js";
import { generateApiKey } from "./secrets.js";
import { BotType, isAdmin } from "./types.js";
import type { BotService, User } from "./types.js";
import type { UserService } from "./user-service.js";
import { MAX_NAME_LENGTH, botEventData, userEventPerson } from "./user-service.js";

/** What PATCH /bots/{bot_id} may change; absent fields stay. */
export interface BotChanges {
  fullName?: string;
  ownerId?: number;
  serviceUrl?: string;
  serviceInterface?: number;
  configData?: Record<string, string>;
  /** A stream name; "" clears it. */
  defaultSendingStream?: string;
  defaultEventsRegisterStream?: string;
  defaultAllPublicStreams?: boolean;
}

/** The bot after an edit, as PATCH /bots/{bot_id} answers. */
export interface EditedBot {
  bot: User;
  ownerEmail: string | undefined;
  services: BotService[];
  configData: Record<string, string> | undefined;
  serviceUrl: string | undefined;
  serviceInterface: number | undefined;
}

export interface BotLifecycleDeps {
  users: UserService;
  usersRepo: UsersRepo;
  botsRepo: BotsRepo;
  events: EventSink;
  /** The canonical name of a stream, or undefined when there is none of that name. */
  streamName(name: string): Promise<string | undefined>;
}

export class BotLifecycleService {
  constructor(private readonly deps: BotLifecycleDeps) {}

  /** Zulip's access_bot_by_id: the bot's owner or an administrator. */
  async accessBot(actor: User, botId: number): Promise<User> {
    const bot = await this.deps.usersRepo.byId(botId);
    if (bot === undefined || !bot.isBot || bot.realmId !== actor.realmId)
      throw new JsonableError("No such bot");
    if (bot.botOwnerId !== actor.id && !isAdmin(actor)) throw new JsonableError("Insufficient permission");
    return bot;
  }

  async edit(actor: User, botId: number, changes: BotChanges): Promise<EditedBot> {
    const { usersRepo, botsRepo } = this.deps;
    let bot = await this.accessBot(actor, botId);
    // Validate everything before writing anything.
    const fullName =
      changes.fullName === undefined ? undefined : await this.checkNewName(bot, changes.fullName);
    const owner = changes.ownerId === undefined ? undefined : await this.checkNewOwner(changes.ownerId);
    // Handing a bot to someone else is for administrators only: the new owner never agreed to it.
    if (owner !== undefined && owner.id !== bot.botOwnerId && !isAdmin(actor)) {
      throw new JsonableError("Only organization administrators can transfer a bot to another user");
    }
    const services = await usersRepo.servicesOf(bot.id);
    if (changes.serviceUrl !== undefined && !/^https?:\/\/[^\s]+$/.test(changes.serviceUrl.trim())) {
      throw new JsonableError("service_payload_url is not a URL");
    }
    if (changes.serviceUrl !== undefined) await this.deps.users.checkPayloadUrl(changes.serviceUrl.trim());
    if (changes.serviceInterface !== undefined && ![1, 2].includes(changes.serviceInterface)) {
      throw new JsonableError("Invalid interface type");
    }
    const sending = await this.checkStream(changes.defaultSendingStream);
    const register = await this.checkStream(changes.defaultEventsRegisterStream);
    if (changes.configData !== undefined) {
      for (const [k, v] of Object.entries(changes.configData)) {
        if (v.length > 10000) throw new JsonableError(`Value of config_data["${k}"] is too long`);
      }
    }

    const update: Record<string, unknown> = {};
    if (fullName !== undefined && fullName !== bot.fullName) {
      await botsRepo.setFullName(bot.id, fullName);
      update.full_name = fullName;
    }
    const previousOwnerId = bot.botOwnerId;
    let transferredKey: string | undefined;
    if (owner !== undefined && owner.id !== bot.botOwnerId) {
      await botsRepo.setOwner(bot.id, owner.id);
      update.owner_id = owner.id;
      // The previous owner knows the key: a transferred bot gets a new one, at once.
      transferredKey = generateApiKey();
      await usersRepo.setApiKey(bot.id, transferredKey);
      this.deps.users.invalidateCredentials(bot.id);
    }
    const serviceChange = {
      ...(changes.serviceUrl === undefined ? {} : { baseUrl: changes.serviceUrl.trim() }),
      ...(changes.serviceInterface === undefined ? {} : { interface: changes.serviceInterface }),
    };
    if (
      Object.keys(serviceChange).length > 0 &&
      bot.botType === BotType.OUTGOING_WEBHOOK &&
      services.length > 0
    ) {
      await botsRepo.updateServices(bot.id, serviceChange);
      update.services = "changed";
    }
    if (changes.configData !== undefined && Object.keys(changes.configData).length > 0) {
      await usersRepo.setBotConfig(bot.id, changes.configData);
      if (bot.botType === BotType.EMBEDDED) update.services = "changed";
    }
    if (sending !== undefined && sending.value !== bot.defaultSendingStream) {
      await botsRepo.setDefaultSendingStream(bot.id, sending.value);
      update.default_sending_stream = sending.value;
    }
    if (register !== undefined && register.value !== bot.defaultEventsRegisterStream) {
      await botsRepo.setDefaultEventsRegisterStream(bot.id, register.value);
      update.default_events_register_stream = register.value;
    }
    if (
      changes.defaultAllPublicStreams !== undefined &&
      changes.defaultAllPublicStreams !== bot.defaultAllPublicStreams
    ) {
      await botsRepo.setDefaultAllPublicStreams(bot.id, changes.defaultAllPublicStreams);
      update.default_all_public_streams = changes.defaultAllPublicStreams;
    }

    bot = (await usersRepo.byId(bot.id)) as User;
    const nowServices = await usersRepo.servicesOf(bot.id);
    if (update.services !== undefined) update.services = botEventData(bot, nowServices).services;
    // One realm_bot update per changed property, as Zulip sends them.
    const administrators = await this.botAdministrators(bot, previousOwnerId);
    for (const [key, value] of Object.entries(update)) {
      this.deps.events.send(
        { type: "realm_bot", op: "update", bot: { user_id: bot.id, [key]: value } },
        administrators,
      );
    }
    if (transferredKey !== undefined) {
      // The new key goes to the bot's administrators now, not to the previous owner.
      this.deps.events.send(
        { type: "realm_bot", op: "update", bot: { user_id: bot.id, api_key: transferredKey } },
        await this.botAdministrators(bot),
      );
    }
    const everyone = (await usersRepo.all()).filter((u) => u.isActive && !u.isBot).map((u) => u.id);
    if (update.full_name !== undefined) {
      this.deps.events.send(
        { type: "realm_user", op: "update", person: { user_id: bot.id, full_name: bot.fullName } },
        everyone,
      );
    }
    if (update.owner_id !== undefined) {
      this.deps.events.send(
        { type: "realm_user", op: "update", person: { user_id: bot.id, bot_owner_id: bot.botOwnerId } },
        everyone,
      );
    }
    const ownerUser = bot.botOwnerId === null ? undefined : await usersRepo.byId(bot.botOwnerId);
    return {
      bot,
      ownerEmail: ownerUser?.email,
      services: nowServices,
      configData: changes.configData,
      serviceUrl: changes.serviceUrl?.trim(),
      serviceInterface: changes.serviceInterface,
    };
  }

  /** DELETE /bots/{bot_id}: the bot's key stops working at once. Deactivating twice does nothing. */
  async deactivate(actor: User, botId: number): Promise<void> {
    const bot = await this.accessBot(actor, botId);
    if (!bot.isActive) return;
    await this.deps.usersRepo.setActive(bot.id, false);
    this.deps.users.invalidateCredentials(bot.id);
    const administrators = await this.botAdministrators(bot);
    this.deps.events.send(
      { type: "realm_bot", op: "remove", bot: { user_id: bot.id, full_name: bot.fullName } },
      administrators,
    );
    const everyone = (await this.deps.usersRepo.all()).filter((u) => u.isActive && !u.isBot).map((u) => u.id);
    this.deps.events.send(
      { type: "realm_user", op: "remove", person: { user_id: bot.id, full_name: bot.fullName } },
      everyone,
    );
  }

  /** POST /users/{user_id}/reactivate (administrators): a user or a bot comes back. */
  async reactivate(actor: User, userId: number): Promise<void> {
    if (!isAdmin(actor)) throw new UnauthorizedPrincipalError("Must be an organization administrator");
    const user = await this.deps.usersRepo.byId(userId);
    if (user === undefined || user.realmId !== actor.realmId) throw new JsonableError("No such user");
    if (user.isActive) return;
    await this.deps.usersRepo.setActive(user.id, true);
    this.deps.users.invalidateCredentials(user.id);
    const active = (await this.deps.usersRepo.byId(user.id)) as User;
    const everyone = (await this.deps.usersRepo.all()).filter((u) => u.isActive && !u.isBot).map((u) => u.id);
    this.deps.events.send({ type: "realm_user", op: "add", person: userEventPerson(active) }, everyone);
    if (active.isBot) {
      const services = await this.deps.usersRepo.servicesOf(active.id);
      this.deps.events.send(
        { type: "realm_bot", op: "add", bot: botEventData(active, services) },
        await this.botAdministrators(active),
      );
    }
  }

  /** POST /bots/{bot_id}/api_key/regenerate: the old key stops working at once. */
  async regenerateBotKey(actor: User, botId: number): Promise<string> {
    const bot = await this.accessBot(actor, botId);
    const key = generateApiKey();
    await this.deps.usersRepo.setApiKey(bot.id, key);
    this.deps.users.invalidateCredentials(bot.id);
    this.deps.events.send(
      { type: "realm_bot", op: "update", bot: { user_id: bot.id, api_key: key } },
      await this.botAdministrators(bot),
    );
    return key;
  }

  /** POST /users/me/api_key/regenerate: the caller's own key. */
  async regenerateOwnKey(user: User): Promise<string> {
    return this.deps.users.regenerateApiKey(user);
  }

  /** Who may administer the bot: its owner (and a previous one) and the administrators, active humans. */
  async botAdministrators(bot: User, previousOwnerId: number | null = null): Promise<number[]> {
    return (await this.deps.usersRepo.all())
      .filter(
        (u) =>
          u.isActive &&
          !u.isBot &&
          (isAdmin(u) || u.id === bot.botOwnerId || (previousOwnerId !== null && u.id === previousOwnerId)),
      )
      .map((u) => u.id);
  }

  private async checkNewName(bot: User, fullName: string): Promise<string> {
    const name = fullName.trim();
    if (name === bot.fullName) return name;
    if (name === "") throw new JsonableError("Name too short!");
    if (name.length > MAX_NAME_LENGTH) throw new JsonableError("Name too long!");
    if (/[\p{Cc}*`\\>"@]/u.test(name)) throw new JsonableError("Invalid characters in name!");
    if (
      name.toLowerCase() !== bot.fullName.toLowerCase() &&
      (await this.deps.usersRepo.fullNameTaken(name))
    ) {
      throw new JsonableError("Name is already in use!");
    }
    return name;
  }

  private async checkNewOwner(ownerId: number): Promise<User> {
    const owner = await this.deps.usersRepo.byId(ownerId);
    if (owner === undefined) throw new JsonableError("Failed to change owner, no such user");
    if (!owner.isActive) throw new JsonableError("Failed to change owner, user is deactivated");
    if (owner.isBot) throw new JsonableError("Failed to change owner, bots can't own other bots");
    return owner;
  }

  /** undefined: unchanged; {value: null}: cleared; {value: name}: that stream. */
  private async checkStream(name: string | undefined): Promise<{ value: string | null } | undefined> {
    if (name === undefined) return undefined;
    if (name === "") return { value: null };
    const canonical = await this.deps.streamName(name);
    if (canonical === undefined) throw new JsonableError(`Invalid stream name '${name}'`);
    return { value: canonical };
  }
}

/** Avatar URL of a bot for the PATCH answer. */
export function botAvatarUrl(bot: User): string {
  return avatarUrl(bot.email);
}
