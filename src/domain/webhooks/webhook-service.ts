import { memoryOnceEvery } from "../../infra/once-every.js";
import type { OnceEvery } from "../../infra/once-every.js";
import {
  InvalidJsonError,
  JsonableError,
  MethodNotAllowedError,
  MissingHttpEventHeaderError,
  NotFoundError,
  RateLimitedError,
  RequestVariableMissingError,
  StreamDoesNotExistError,
  StreamIdDoesNotExistError,
  UnauthorizedError,
  UnsupportedWebhookEventTypeError,
  WebhookMisconfiguredError,
} from "../../errors.js";
import type { Clock } from "../../clock.js";
import type { Logger } from "../../logger.js";
import type {
  AnyIntegration,
  HandshakeResponse,
  WebhookMessage,
} from "../../../integrations/kit/define-integration.js";
import type { Wild } from "../../../integrations/kit/wild.js";
import type { UserService } from "../users/user-service.js";
import type { User } from "../users/types.js";
import { misconfiguredNotice } from "./misconfigured.js";
import { verifySignature } from "./signatures.js";
import { readBody, unquote, type DispatchOutcome, type WebhookRequest } from "./stages.js";
import { dispatchLazily } from "./lazy-dispatch.js";
import {
  missingHeaderMessage,
  invalidJsonMessage,
  rateLimitedMessage,
  unsupportedEventMessage,
} from "./owner-notices.js";
import type { WebhookRateLimiter } from "./rate-limit.js";
import type { DeliveryLog } from "../deliveries/delivery-log.js";
import { incomingEntry } from "../deliveries/entries.js";
import { captureOf } from "./capture.js";

/** What the pipeline needs from messaging: send as `sender`, return the message id. */
export type SendMessage = (
  sender: User,
  message: {
    type: "stream" | "private";
    to: string | number | (string | number)[];
    topic?: string;
    content: string;
    client?: string;
  },
) => Promise<number>;

/** Where the per-bot webhook secrets live (bot config keys `webhook_secret` or `<integration>_secret`). */
export type SecretLookup = (bot: User, integration: string) => Promise<string | undefined>;

/** The port to the integrations registry (wired in src/services.ts). */
export interface IntegrationRegistry {
  get(name: string): AnyIntegration | undefined;
  list(): readonly AnyIntegration[];
}

/** A registry over a list of integrations (names are unique; the registry test checks it). */
export function registryOf(integrations: readonly AnyIntegration[]): IntegrationRegistry {
  const byName = new Map(integrations.map((i) => [i.name, i]));
  return { get: (name) => byName.get(name), list: () => [...byName.values()] };
}

export interface IncomingWebhookRequest {
  method: string;
  path: string;
  /** The absolute URL as the sender called it (for signatures over the URL, e.g. Trello's). */
  url: string;
  headers: Readonly<Record<string, string | undefined>>;
  params: Readonly<Record<string, string>>;
  rawBody: Buffer;
  form: Readonly<Record<string, string>> | undefined;
  /** Decoded HTTP Basic credentials, when the request had them. */
  basicAuth: [string, string] | undefined;
}

export type WebhookResult =
  /** Success: extra fields of the success response, ids of the messages sent. */
  | { kind: "success"; data: Record<string, unknown>; messageIds: number[] }
  /** A set-up handshake's answer, written as is. */
  | { kind: "handshake"; response: HandshakeResponse }
  /** An event the integration does not support: answered 200 with the error body (see docs/compat.md). */
  | { kind: "unsupported"; error: UnsupportedWebhookEventTypeError };

/** At most one owner notification of each kind per bot per minute (Zulip's BOT_OWNER_STREAM_ALERT_WAITPERIOD). */
const NOTIFY_INTERVAL_MS = 60_000;

/** What the stages found out, for the delivery log, even when a later stage throws. */
interface Trace {
  event: string | undefined;
  messageIds: number[];
  /** Why a message was not posted although the request was answered with success. */
  failure?: string | undefined;
}

/** Optional parts of the pipeline (src/services.ts wires them). */
export interface WebhookExtras {
  /** The delivery log (src/domain/deliveries). */
  deliveries?: DeliveryLog | undefined;
  /** Per-bot token buckets (`--webhook-rate-limit`, config_data `webhook_rate_limit`). */
  rateLimiter?: WebhookRateLimiter | undefined;
  /** The once-a-minute gate of owner notifications (shared by every process with `--redis`). */
  onceEvery?: OnceEvery | undefined;
}

/**
 * The incoming-webhook pipeline, written once for every integration, in named stages:
 * authenticate → handshake → verify signature → read body, classify, filter, render (the pure
 * stages of stages.ts) → deliver to the stream (`topic` overrides) or privately to the bot's owner.
 * Misconfigurations (missing event header, bad JSON, unknown stream, unsupported event) are told
 * to the bot's owner, once a minute at most.
 */
export class WebhookService {
  private readonly notices: OnceEvery;

  constructor(
    private readonly registry: IntegrationRegistry,
    private readonly users: UserService,
    private readonly send: SendMessage,
    private readonly secretFor: SecretLookup,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly extras: WebhookExtras = {},
  ) {
    this.notices = extras.onceEvery ?? memoryOnceEvery();
  }

  list(): readonly AnyIntegration[] {
    return this.registry.list();
  }

  get(name: string): AnyIntegration | undefined {
    return this.registry.get(name);
  }

  async handle(name: string, req: IncomingWebhookRequest): Promise<WebhookResult> {
    const integration = this.registry.get(name);
    if (integration === undefined) throw new NotFoundError(`Unknown integration '${name}'`);
    const method = req.method.toUpperCase();
    const isProbe = method === "GET" || method === "HEAD";
    if (isProbe && integration.handshake === undefined) throw new MethodNotAllowedError(["POST"]);

    const bot = await this.authenticate(req);
    const trace: Trace = { event: undefined, messageIds: [] };
    const startedMs = this.clock.now();
    try {
      if (this.extras.rateLimiter !== undefined) await this.takeToken(bot, integration);
      const result = await this.run(integration, bot, req, trace, false);
      this.record(bot, integration.name, req, trace, startedMs, result, undefined, null);
      return result;
    } catch (err) {
      this.record(bot, integration.name, req, trace, startedMs, undefined, err, null);
      throw err;
    }
  }

  /**
   * Runs a logged incoming request again through today's integration code, as `bot` (no rate limit,
   * no signature check: the original passed them or the owner asks for it), and logs the result as
   * a new entry pointing to the original. Returns the new entry's id and the result.
   */
  async replay(
    bot: User,
    name: string,
    req: IncomingWebhookRequest,
    originalId: number,
  ): Promise<{ deliveryId: number | undefined; result: WebhookResult | undefined; error: unknown }> {
    const integration = this.registry.get(name);
    if (integration === undefined) throw new NotFoundError(`Unknown integration '${name}'`);
    const trace: Trace = { event: undefined, messageIds: [] };
    const startedMs = this.clock.now();
    let result: WebhookResult | undefined;
    let error: unknown;
    try {
      result = await this.run(integration, bot, req, trace, true);
    } catch (err) {
      error = err;
    }
    const log = this.extras.deliveries;
    const deliveryId =
      log === undefined
        ? undefined
        : await log.recordNow(
            incomingEntry(
              captureOf(bot, integration.name, req, trace, startedMs, result, error, originalId),
              log.config.maxBodyBytes,
            ),
          );
    return { deliveryId, result, error };
  }

  /** Stages after authentication (`replaying`: no handshake, no signature check). */
  private async run(
    integration: AnyIntegration,
    bot: User,
    req: IncomingWebhookRequest,
    trace: Trace,
    replaying: boolean,
  ): Promise<WebhookResult> {
    const name = integration.name;
    const method = req.method.toUpperCase();
    const isProbe = method === "GET" || method === "HEAD";
    if (!replaying) {
      const handshake = this.handshake(integration, method, req, bot);
      if (handshake !== undefined) {
        trace.event = "handshake";
        return { kind: "handshake", response: handshake };
      }
      if (isProbe) throw new MethodNotAllowedError(["POST"]);
      await this.verifySignature(integration, bot, req);
    }

    const params: Record<string, string> = { ...req.params };
    delete params["api_key"];
    let outcome: DispatchOutcome;
    try {
      outcome = await this.dispatch(integration, bot, {
        headers: req.headers,
        params,
        rawBody: req.rawBody,
        form: req.form,
      });
    } catch (err) {
      if (err instanceof UnsupportedWebhookEventTypeError) {
        trace.event = err.eventType;
        await this.notifyOwner(
          bot,
          `unsupported:${integration.name}:${err.eventType}`,
          unsupportedEventMessage(bot, integration, err.eventType),
          true,
        );
        return { kind: "unsupported", error: err };
      }
      if (err instanceof MissingHttpEventHeaderError) {
        await this.notifyOwner(
          bot,
          "missing-header",
          missingHeaderMessage(bot, req.path, err.header, integration),
          true,
        );
      } else if (err instanceof InvalidJsonError) {
        await this.notifyOwner(bot, "invalid-json", invalidJsonMessage(integration), true);
      } else if (err instanceof WebhookMisconfiguredError) {
        const notice = misconfiguredNotice(err.notice, bot);
        await this.notifyOwner(bot, `misconfigured:${integration.name}`, notice, true);
        if (err.answerSuccess) return { kind: "success", data: {}, messageIds: [] };
      }
      throw err;
    }
    trace.event = outcome.event;
    const data = outcome.kind === "filtered" ? {} : { ...(outcome.reply ?? {}) };
    if (outcome.kind !== "messages") {
      this.logger.debug("webhook event not posted", {
        integration: name,
        event: outcome.event,
        outcome: outcome.kind,
      });
      return { kind: "success", data, messageIds: [] };
    }
    const messageIds = await this.deliver(bot, params["stream"], outcome.messages, trace);
    return { kind: "success", data, messageIds };
  }

  /** Stage "rate limit": the bot's token bucket; over it → 429, logged, the owner told once a minute. */
  private async takeToken(bot: User, integration: AnyIntegration): Promise<void> {
    try {
      await this.extras.rateLimiter?.take(bot.id);
    } catch (err) {
      if (err instanceof RateLimitedError) {
        await this.notifyOwner(bot, "rate-limited", rateLimitedMessage(bot, integration), true);
      }
      throw err;
    }
  }

  /** Queues the delivery-log entry of a request (built and written later, off the request's path). */
  private record(
    bot: User,
    integration: string,
    req: IncomingWebhookRequest,
    trace: Trace,
    startedMs: number,
    result: WebhookResult | undefined,
    error: unknown,
    replayOf: number | null,
  ): void {
    const log = this.extras.deliveries;
    if (log === undefined || !log.enabled) return;
    const capture = captureOf(bot, integration, req, trace, startedMs, result, error, replayOf);
    // Built (redacted, serialised) where it is written: the log's writer thread for a file store.
    log.recordIncoming(capture);
  }

  /** Stage "authenticate": `api_key` (query or form), else HTTP Basic `email:api_key`. */
  private async authenticate(req: IncomingWebhookRequest): Promise<User> {
    const key = req.params["api_key"];
    if (key !== undefined) return this.users.authenticateApiKey(key);
    if (req.basicAuth !== undefined) {
      const [written, apiKey] = req.basicAuth;
      // Beanstalk's form refuses '@' in the user name: Zulip accepts the email written with %40.
      const email = written.replace(/%40/gi, "@");
      try {
        const user = await this.users.authenticateApiKey(apiKey);
        if (user.email.toLowerCase() !== email.toLowerCase()) throw new UnauthorizedError("Invalid API key");
        return user;
      } catch (err) {
        if (err instanceof UnauthorizedError) throw err;
        throw new UnauthorizedError(err instanceof JsonableError ? err.message : "Invalid API key");
      }
    }
    throw new RequestVariableMissingError("api_key");
  }

  /** Stage "handshake": the integration's answer to a set-up request, if it has one. */
  private handshake(
    integration: AnyIntegration,
    method: string,
    req: IncomingWebhookRequest,
    bot: User,
  ): HandshakeResponse | undefined {
    if (integration.handshake === undefined) return undefined;
    if (method !== "GET" && method !== "HEAD" && method !== "POST") return undefined;
    let payload: Wild | undefined;
    if (method === "POST") {
      try {
        payload = readBody(integration, {
          headers: req.headers,
          params: req.params,
          rawBody: req.rawBody,
          form: req.form,
        });
      } catch {
        payload = undefined;
      }
    }
    return integration.handshake({
      method,
      params: req.params,
      header: (h) => req.headers[h.toLowerCase()],
      bot: { id: bot.id, email: bot.email, fullName: bot.fullName },
      ...(payload !== undefined ? { payload } : {}),
    });
  }

  /** Stage "verify signature": only when the bot has a secret for this integration. */
  private async verifySignature(
    integration: AnyIntegration,
    bot: User,
    req: IncomingWebhookRequest,
  ): Promise<void> {
    if (integration.signature === undefined) return;
    const secret = await this.secretFor(bot, integration.name);
    if (secret === undefined || secret === "") return;
    verifySignature(
      integration.signature,
      secret,
      {
        rawBody: req.rawBody,
        header: (h) => req.headers[h.toLowerCase()],
        url: req.url,
        payload: () =>
          readBody(integration, {
            headers: req.headers,
            params: req.params,
            rawBody: req.rawBody,
            form: req.form,
          }),
      },
      Math.floor(this.clock.now() / 1000),
    );
  }

  /** Stages "read body" to "render", with the user directory and bot config loaded on demand. */
  private dispatch(integration: AnyIntegration, bot: User, req: WebhookRequest): Promise<DispatchOutcome> {
    return dispatchLazily(integration, req, {
      directory: async () =>
        new Map(
          (await this.users.allUsers())
            .filter((u) => u.isActive)
            .map((u) => [u.email.toLowerCase(), u.fullName]),
        ),
      botConfig: () => this.users.botConfig(bot.id),
    });
  }

  /** Stage "deliver": to the stream (name or id, decoded once more), else privately to the owner. */
  private async deliver(
    bot: User,
    rawStream: string | undefined,
    messages: WebhookMessage[],
    trace: Trace,
  ): Promise<number[]> {
    const ids = trace.messageIds;
    const urlStream = rawStream === undefined || rawStream === "" ? undefined : unquote(rawStream);
    for (const message of messages) {
      // An integration may name the stream itself (Slack's channels_map_to_topics=0).
      const stream = message.stream ?? urlStream;
      if (message.directTo !== undefined) {
        const user = await this.guessUser(message.directTo);
        if (user !== undefined) {
          ids.push(await this.send(bot, { type: "private", to: [user.id], content: message.body }));
        }
        continue;
      }
      if (stream === undefined) {
        if (bot.botOwnerId === null)
          throw new JsonableError("This API key has no owner to send a private message to; pass a stream.");
        ids.push(await this.send(bot, { type: "private", to: [bot.botOwnerId], content: message.body }));
        continue;
      }
      const to: string | number = /^\d+$/.test(stream) ? Number(stream) : stream;
      try {
        ids.push(await this.send(bot, { type: "stream", to, topic: message.topic, content: message.body }));
      } catch (err) {
        if (err instanceof StreamDoesNotExistError) {
          trace.failure = err.message;
          await this.notifyOwner(
            bot,
            `no-stream:${stream}`,
            `Your bot \`${bot.email}\` tried to send a message to channel #**${stream}**, but that channel does not exist. Click [here](#channels/new) to create it.`,
            true,
          );
          return ids;
        }
        if (err instanceof StreamIdDoesNotExistError) {
          await this.notifyOwner(
            bot,
            `no-stream-id:${stream}`,
            `Your bot \`${bot.email}\` tried to send a message to channel ID ${stream}, but there is no channel with that ID.`,
            true,
          );
        }
        throw err;
      }
    }
    return ids;
  }

  /** Zulip's guess of a user from a name: full name (any case) or start of the email, lowest id first. */
  private async guessUser(names: readonly string[]): Promise<User | undefined> {
    const users = (await this.users.allUsers()).filter((u) => u.isActive).sort((a, b) => a.id - b.id);
    for (const raw of names) {
      const name = raw.toLowerCase();
      if (name === "") continue;
      const hit = users.find(
        (u) => u.fullName.toLowerCase() === name || u.email.toLowerCase().startsWith(name),
      );
      if (hit !== undefined) return hit;
    }
    return undefined;
  }

  private async notifyOwner(bot: User, kind: string, content: string, rateLimited: boolean): Promise<void> {
    if (!bot.isBot || bot.botOwnerId === null) return;
    const key = `${bot.id}:${kind}`;
    const now = this.clock.now();
    try {
      if (rateLimited && !(await this.notices.acquire(key, now, NOTIFY_INTERVAL_MS))) return;
      const notifier = await this.users.notificationBot();
      await this.send(notifier, { type: "private", to: [bot.botOwnerId], content, client: "Internal" });
    } catch (err) {
      this.logger.warn("could not notify a bot owner", { bot_id: bot.id, kind, error: err as Error });
    }
  }
}
