/**
 * Rotation with an overlap for a bot's API key and its outgoing-webhook token, parallel to its
 * signing secrets (src/domain/outgoing/signing-secrets.ts): a rotation makes a new credential
 * current and keeps the replaced one valid until a time the owner sets (or until the owner retires
 * it); retiring ends the overlap now.
 *
 * - An old API key keeps authenticating, for the API (HTTP Basic) and incoming webhooks
 *   (UserService's `oldApiKeys` hook). Only its lookup id (SHA-256) is kept.
 * - During a token's overlap the server keeps sending the old token in outgoing webhooks (the
 *   receiver still has it), the oldest one still valid, until the overlap ends or is retired; then
 *   the new one. A receiver given both (the bot server: `token = new old`) never refuses a request.
 *
 * Zulip's `POST /bots/{bot_id}/api_key/regenerate` stays immediate: it also retires old keys.
 */
import type { Clock } from "../../clock.js";
import { JsonableError } from "../../errors.js";
import type {
  BotCredentialsRepo,
  OldCredentialKind,
  OldCredentialRow,
} from "../../store/bot-credentials-repo.js";
import type { BotsRepo } from "../../store/bots-repo.js";
import { apiKeyLookupId } from "../../store/users-repo.js";
import type { UsersRepo } from "../../store/users-repo.js";
import type { EventSink } from "../events/event-sink.js";
import type { BotLifecycleService } from "./bot-lifecycle.js";
import { generateApiKey, generateToken } from "./secrets.js";
import { BotType } from "./types.js";
import type { BotService, User } from "./types.js";
import type { UserService } from "./user-service.js";
import { botEventData } from "./user-service.js";

export type { OldCredentialKind, OldCredentialRow } from "../../store/bot-credentials-repo.js";

/** The longest overlap a rotation may set. */
export const MAX_OVERLAP_MS = 365 * 24 * 3600_000;
/** How long a service's token to send is kept in memory at most (another process's rotation shows after it). */
const CACHE_MS = 10_000;

export interface CredentialRotationDeps {
  lifecycle: BotLifecycleService;
  users: UserService;
  usersRepo: UsersRepo;
  botsRepo: BotsRepo;
  credentials: BotCredentialsRepo;
  events: EventSink;
  clock: Clock;
}

/** A bot's credentials after a rotation or a retirement. */
export interface BotCredentials {
  bot: User;
  /** The current API key. */
  apiKey: string;
  /** The current outgoing token (its first service's); null for a bot without a service. */
  token: string | null;
  oldApiKeys: OldCredentialRow[];
  oldTokens: OldCredentialRow[];
}

/** The token an outgoing webhook carries now, and whether it is an old one in its overlap. */
export interface TokenToSend {
  token: string;
  old: boolean;
}

export class CredentialRotationService {
  /** Per service: the token to send and until when that holds. */
  private readonly tokens = new Map<number, { sent: TokenToSend; until: number }>();

  constructor(private readonly deps: CredentialRotationDeps) {}

  /** The bot's current credentials and the old ones still valid (its owner or an administrator). */
  async list(actor: User, botId: number): Promise<BotCredentials> {
    const bot = await this.deps.lifecycle.accessBot(actor, botId);
    return this.credentialsOf(bot);
  }

  /**
   * A new current API key; the old one stays valid until `overlapUntil` (ms), or until retired
   * when null. A time not in the future, or more than {@link MAX_OVERLAP_MS} ahead, is refused.
   */
  async rotateApiKey(actor: User, botId: number, overlapUntil: number | null): Promise<BotCredentials> {
    const bot = await this.deps.lifecycle.accessBot(actor, botId);
    const now = this.deps.clock.now();
    this.checkOverlap(overlapUntil, now);
    const key = generateApiKey();
    await this.deps.credentials.addOldApiKey(bot.id, apiKeyLookupId(bot.apiKey), now, overlapUntil);
    await this.deps.usersRepo.setApiKey(bot.id, key);
    this.deps.users.invalidateCredentials(bot.id);
    this.deps.events.send(
      { type: "realm_bot", op: "update", bot: { user_id: bot.id, api_key: key } },
      await this.deps.lifecycle.botAdministrators(bot),
    );
    return this.credentialsOf({ ...bot, apiKey: key });
  }

  /** A new outgoing token for the bot's services; the old one is still sent until `overlapUntil` (or retired). */
  async rotateToken(actor: User, botId: number, overlapUntil: number | null): Promise<BotCredentials> {
    const bot = await this.deps.lifecycle.accessBot(actor, botId);
    const services = await this.deps.usersRepo.servicesOf(bot.id);
    if (bot.botType !== BotType.OUTGOING_WEBHOOK || services.length === 0)
      throw new JsonableError("This bot has no outgoing webhook token");
    const now = this.deps.clock.now();
    this.checkOverlap(overlapUntil, now);
    const token = generateToken();
    for (const s of services)
      await this.deps.credentials.addOldToken(bot.id, s.id, s.token, now, overlapUntil);
    await this.deps.botsRepo.setServiceToken(bot.id, token);
    for (const s of services) this.tokens.delete(s.id);
    const now2 = await this.deps.usersRepo.servicesOf(bot.id);
    this.deps.events.send(
      {
        type: "realm_bot",
        op: "update",
        bot: { user_id: bot.id, services: botEventData(bot, now2)["services"] },
      },
      await this.deps.lifecycle.botAdministrators(bot),
    );
    return this.credentialsOf(bot);
  }

  /** Ends the overlap of the bot's old API keys or tokens now. */
  async retireOld(actor: User, botId: number, kind: OldCredentialKind): Promise<BotCredentials> {
    const bot = await this.deps.lifecycle.accessBot(actor, botId);
    await this.retireOldOf(bot.id, kind);
    return this.credentialsOf(bot);
  }

  /** Ends an overlap without an access check (Zulip's regenerate, already checked, retires old keys). */
  async retireOldOf(botId: number, kind: OldCredentialKind): Promise<void> {
    await this.deps.credentials.retireOld(botId, kind, this.deps.clock.now());
    if (kind === "token")
      for (const s of await this.deps.usersRepo.servicesOf(botId)) this.tokens.delete(s.id);
  }

  /**
   * The token an outgoing webhook of this service carries: during an overlap the oldest old token
   * still valid (the receiver has it), otherwise the current one. Kept in memory until the overlap
   * ends or {@link CACHE_MS} passes (a rotation in this process clears it at once).
   */
  async tokenFor(service: BotService): Promise<TokenToSend> {
    const now = this.deps.clock.now();
    const cached = this.tokens.get(service.id);
    if (
      cached !== undefined &&
      cached.until > now &&
      (cached.sent.old || cached.sent.token === service.token)
    )
      return cached.sent;
    const olds = (await this.deps.credentials.valid(service.botId, "token", now)).filter(
      (r) => r.serviceId === service.id && r.token !== null,
    );
    const oldest = olds[olds.length - 1];
    const sent: TokenToSend =
      oldest === undefined ? { token: service.token, old: false } : { token: oldest.token!, old: true };
    const until = Math.min(now + CACHE_MS, ...olds.map((r) => r.retiresAt ?? Infinity));
    this.tokens.set(service.id, { sent, until });
    return sent;
  }

  private checkOverlap(overlapUntil: number | null, now: number): void {
    if (overlapUntil === null) return;
    if (overlapUntil <= now || overlapUntil > now + MAX_OVERLAP_MS)
      throw new JsonableError("overlap_until must be a time in the future, at most 365 days from now");
  }

  private async credentialsOf(bot: User): Promise<BotCredentials> {
    const now = this.deps.clock.now();
    const [services, oldApiKeys, oldTokens] = await Promise.all([
      this.deps.usersRepo.servicesOf(bot.id),
      this.deps.credentials.valid(bot.id, "api_key", now),
      this.deps.credentials.valid(bot.id, "token", now),
    ]);
    const current = await this.deps.usersRepo.byId(bot.id);
    return {
      bot,
      apiKey: current?.apiKey ?? bot.apiKey,
      token: services[0]?.token ?? null,
      oldApiKeys,
      oldTokens,
    };
  }
}
