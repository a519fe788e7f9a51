import { memoryOnceEvery } from "../../infra/once-every.js";
import type { OnceEvery } from "../../infra/once-every.js";
import {
  InvalidJsonError,
  JsonableError,
  MethodNotAllowedError,
  MissingHttpEventHeaderError,
  InvalidWebhookSignatureError,
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
import type { Logger } from "../../lib/logger.js";
import type {
  AnyIntegration,
  HandshakeResponse,
  WebhookMessage,
} from "../../../integrations/kit/define-integration.js";
import type { Wild } from "../../../integrations/kit/wild.js";
import type { UserService } from "../users/user-service.js";
import type { User } from "../users/types.js";
import { misconfiguredNotice } from "./misconfigured.js";
import { UserDirectories } from "./user-directories.js";
import { deliveryIdOf, verifySignature } from "../../../integrations/kit/signatures.js";
import type { SignedRequest } from "../../../integrations/kit/define-integration.js";
import { wildcardPatternsProblem } from "../../../integrations/kit/wildcard.js";
import {
  dispatchWebhookAsync,
  lifecycleOptions,
  readBody,
  unquote,
  type DispatchOutcome,
  type JsonFetcher,
  type TemplateRenderer,
  type WebhookRequest,
} from "../../../integrations/kit/stages.js";
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
import type { IncomingWebhookRequest, WebhookResult } from "./types.js";
import type { DeliveryClaim, SeenDeliveries } from "./seen-deliveries.js";
import { RESOLVED_TOPIC_PREFIX } from "../events/narrow.js";
import { TopicLifecycle, resolvableTopic } from "./topic-lifecycle.js";
import type { TopicMover } from "./topic-lifecycle.js";

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
/** An integration loaded from outside the repository (`--integrations-path`), with its folder. */
export interface LoadedIntegration {
  integration: AnyIntegration;
  /** Where its doc.md and fixtures are. */
  folder: string;
}

export function registryOf(integrations: readonly AnyIntegration[]): IntegrationRegistry {
  const byName = new Map(integrations.map((i) => [i.name, i]));
  return { get: (name) => byName.get(name), list: () => [...byName.values()] };
}

/** At most one owner notification of each kind per bot per minute (Zulip's BOT_OWNER_STREAM_ALERT_WAITPERIOD). */
const NOTIFY_INTERVAL_MS = 60_000;

/** What the stages found out, for the delivery log, even when a later stage throws. */
interface Trace {
  event: string | undefined;
  messageIds: number[];
  /** Why a message was not posted although the request was answered with success. */
  failure?: string | undefined;
  /** Why nothing was posted, deliberately (a repeated delivery). */
  ignored?: string | undefined;
  /** The bot's secret the signature was verified with: redacted wherever it appears in the log. */
  secret?: string | undefined;
  /** The bot's old API key the request authenticated with, during a rotation's overlap (logged as such, redacted). */
  oldKey?: string | undefined;
}

/** What a dry-run replay finds: the messages today's code would post, or the error it would answer. */
export interface DryRunResult {
  event: string | null;
  messages: { topic: string; content: string }[];
  error: string | null;
}

/** Optional parts of the pipeline (src/services.ts wires them). */
export interface WebhookExtras {
  /** The delivery log (src/domain/deliveries). */
  deliveries?: DeliveryLog | undefined;
  /** Per-bot token buckets (`--webhook-rate-limit`, config_data `webhook_rate_limit`). */
  rateLimiter?: WebhookRateLimiter | undefined;
  /** The once-a-minute gate of owner notifications (shared by every process with `--redis`). */
  onceEvery?: OnceEvery | undefined;
  /** Delivery ids of signed requests already received: a repeat posts nothing. */
  seenDeliveries?: SeenDeliveries | undefined;
  /** The template integration's renderer, for modules that declare `needs: ["templates"]`. */
  templates?: TemplateRenderer | undefined;
  /** Topics found and renamed for `resolve_topics=true` (a ticket's life in one topic). */
  topics?: TopicMover | undefined;
  /**
   * GETs of a service's API for integrations that declare `needs: ["http"]` (`ctx.fetchJson`;
   * `egressJsonFetcher` in service-api.ts): rejects with ServiceApiError. Absent: their calls fail.
   */
  fetchJson?: JsonFetcher | undefined;
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
  /** resolve_topics and edit_status_messages: a ticket's life in one topic. */
  private readonly lifecycle: TopicLifecycle;
  /** Users by email and by external account, for integrations that declare those needs. */
  private readonly directories: UserDirectories;

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
    this.lifecycle = new TopicLifecycle(extras.topics, clock, logger);
    this.directories = new UserDirectories(users);
  }

  list(): readonly AnyIntegration[] {
    return this.registry.list();
  }

  get(name: string): AnyIntegration | undefined {
    return this.registry.get(name);
  }

  /**
   * What is wrong with `only_events` / `exclude_events` patterns (too many, too long, malformed),
   * or undefined: checked before any integration runs.
   */
  eventFiltersProblem(argName: string, patterns: readonly string[]): string | undefined {
    return wildcardPatternsProblem(argName, patterns);
  }

  async handle(name: string, req: IncomingWebhookRequest): Promise<WebhookResult> {
    const integration = this.registry.get(name);
    if (integration === undefined) throw new NotFoundError(`Unknown integration '${name}'`);
    const method = req.method.toUpperCase();
    const isProbe = method === "GET" || method === "HEAD";
    if (isProbe && integration.handshake === undefined) throw new MethodNotAllowedError(["POST"]);

    const { user: bot, oldKey } = await this.authenticate(req);
    const trace: Trace = { event: undefined, messageIds: [], ...(oldKey === undefined ? {} : { oldKey }) };
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

  /**
   * What today's integration code would post for a logged request, posting nothing and logging
   * nothing (a dry-run replay): the messages, or why there are none. `configOverride` replaces
   * keys of the bot's configuration (a draft template's `template_topic` / `template_body`).
   */
  async dryRun(
    bot: User,
    name: string,
    req: IncomingWebhookRequest,
    configOverride: Readonly<Record<string, string>> = {},
  ): Promise<DryRunResult> {
    const integration = this.registry.get(name);
    if (integration === undefined) throw new NotFoundError(`Unknown integration '${name}'`);
    const params: Record<string, string> = { ...req.params };
    delete params["api_key"];
    try {
      const outcome = await this.dispatch(
        integration,
        bot,
        { headers: req.headers, params, rawBody: req.rawBody, form: req.form },
        configOverride,
      );
      return {
        event: outcome.event,
        messages:
          outcome.kind === "messages"
            ? outcome.messages.map((m) => ({ topic: m.topic, content: m.body }))
            : [],
        error: null,
      };
    } catch (err) {
      if (!(err instanceof JsonableError)) throw err;
      const event = err instanceof UnsupportedWebhookEventTypeError ? err.eventType : null;
      return { event, messages: [], error: err.message };
    }
  }

  /** Stages after authentication (`replaying`: no handshake, no signature check). */
  private async run(
    integration: AnyIntegration,
    bot: User,
    req: IncomingWebhookRequest,
    trace: Trace,
    replaying: boolean,
  ): Promise<WebhookResult> {
    const method = req.method.toUpperCase();
    const isProbe = method === "GET" || method === "HEAD";
    if (!replaying) {
      const handshake = this.handshake(integration, method, req, bot);
      if (handshake !== undefined) {
        trace.event = "handshake";
        return { kind: "handshake", response: handshake };
      }
      if (isProbe) throw new MethodNotAllowedError(["POST"]);
      const signed = await this.verifySignature(integration, bot, req, trace);
      if (signed !== undefined) {
        const claim = await this.claimDelivery(integration, bot, signed, trace);
        if (claim === "repeat") return { kind: "success", data: {}, messageIds: [] };
        if (claim !== undefined) {
          try {
            return await this.process(integration, bot, req, trace);
          } catch (err) {
            await claim.release(); // not processed: the sender's retry must go through
            throw err;
          }
        }
      }
    }
    return this.process(integration, bot, req, trace);
  }

  /**
   * Stage "de-duplicate" of a signed request: claims its delivery id, or "repeat" when it was
   * received within the window (logged with why nothing was posted); undefined when the request
   * has no id or the server keeps none.
   */
  private async claimDelivery(
    integration: AnyIntegration,
    bot: User,
    signed: SignedRequest,
    trace: Trace,
  ): Promise<DeliveryClaim | "repeat" | undefined> {
    const seen = this.extras.seenDeliveries;
    if (seen === undefined) return undefined;
    const deliveryId = deliveryIdOf(integration, signed);
    if (deliveryId === undefined) return undefined;
    const claim = await seen.claim({ botId: bot.id, integration: integration.name, deliveryId });
    if (claim !== undefined) return claim;
    trace.event = "duplicate";
    trace.ignored = `Delivery ${deliveryId} was already received: a repeat is answered with success and posts nothing.`;
    this.logger.info("webhook delivery repeated; not posted again", {
      integration: integration.name,
      bot: bot.id,
      deliveryId,
    });
    return "repeat";
  }

  /** Stages "read body" to "deliver". */
  private async process(
    integration: AnyIntegration,
    bot: User,
    req: IncomingWebhookRequest,
    trace: Trace,
  ): Promise<WebhookResult> {
    const name = integration.name;
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
    const lifecycle = lifecycleOptions(integration, params);
    // Zulip names a webhook's messages' client after its view: `ZulipGitHubWebhook`, `ZulipHelloWorldWebhook`.
    const client = `Zulip${integration.displayName.replace(/\s+/g, "")}Webhook`;
    const messageIds = await this.deliver(bot, params["stream"], outcome.messages, trace, client, lifecycle);
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

  /**
   * Stage "authenticate": `api_key` (query or form), else `Authorization: Bearer <key>` or the secret
   * path segment, else HTTP Basic `email:api_key`. A bot's old key, during a rotation's overlap,
   * authenticates too: it is returned as `oldKey` (the log marks the request).
   */
  private async authenticate(req: IncomingWebhookRequest): Promise<{ user: User; oldKey?: string }> {
    const key = req.params["api_key"] ?? req.key?.key;
    if (key !== undefined) return this.authenticateKey(key);
    if (req.basicAuth !== undefined) {
      const [written, apiKey] = req.basicAuth;
      // Beanstalk's form refuses '@' in the user name: Zulip accepts the email written with %40.
      const email = written.replace(/%40/gi, "@");
      try {
        const found = await this.authenticateKey(apiKey);
        if (found.user.email.toLowerCase() !== email.toLowerCase())
          throw new UnauthorizedError("Invalid API key");
        return found;
      } catch (err) {
        if (err instanceof UnauthorizedError) throw err;
        throw new UnauthorizedError(err instanceof JsonableError ? err.message : "Invalid API key");
      }
    }
    throw new RequestVariableMissingError("api_key");
  }

  private async authenticateKey(key: string): Promise<{ user: User; oldKey?: string }> {
    const { user, oldKey } = await this.users.authenticateApiKeyCredential(key);
    return oldKey ? { user, oldKey: key.trim() } : { user };
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

  /**
   * Stage "verify signature": only when the bot has a secret for this integration. Returns the
   * request as verified, or undefined when it was not signed.
   */
  private async verifySignature(
    integration: AnyIntegration,
    bot: User,
    req: IncomingWebhookRequest,
    trace: Trace,
  ): Promise<SignedRequest | undefined> {
    if (integration.signature === undefined) return undefined;
    const secret = await this.secretFor(bot, integration.name);
    if (secret === undefined || secret === "") {
      if (integration.signature.kind === "standard-webhooks") {
        throw new InvalidWebhookSignatureError(
          `The bot has no signing secret: set ${integration.name}_secret (whsec_…) in its configuration.`,
        );
      }
      return undefined;
    }
    trace.secret = secret;
    let payload: Wild | undefined;
    const signed: SignedRequest = {
      rawBody: req.rawBody,
      header: (h) => req.headers[h.toLowerCase()],
      url: req.url,
      payload: () =>
        (payload ??= readBody(integration, {
          headers: req.headers,
          params: req.params,
          rawBody: req.rawBody,
          form: req.form,
        })),
    };
    verifySignature(integration.signature, secret, signed, Math.floor(this.clock.now() / 1000));
    return signed;
  }

  /** Stages "read body" to "render", after loading what the integration declares in `needs`. */
  private async dispatch(
    integration: AnyIntegration,
    bot: User,
    req: WebhookRequest,
    configOverride: Readonly<Record<string, string>> = {},
  ): Promise<DispatchOutcome> {
    const needs = integration.needs ?? [];
    let userFullName: WebhookRequest["userFullName"];
    if (needs.includes("directory")) userFullName = await this.directories.fullNameByEmail();
    let botConfig: WebhookRequest["botConfig"];
    if (needs.includes("botConfig")) {
      const config = { ...(await this.users.botConfig(bot.id)), ...configOverride };
      botConfig = () => config;
    }
    let usersByExternalAccount: WebhookRequest["usersByExternalAccount"];
    if (needs.includes("externalAccounts")) {
      usersByExternalAccount = await this.directories.namesByExternalAccount();
    }
    const renderTemplates = needs.includes("templates") ? this.extras.templates : undefined;
    const fetchJson = needs.includes("http") ? this.loggedFetcher(integration, bot) : undefined;
    return dispatchWebhookAsync(integration, {
      ...req,
      userFullName,
      botConfig,
      usersByExternalAccount,
      renderTemplates,
      fetchJson,
    });
  }

  /**
   * The `fetchJson` port, each failure logged (the integration falls back to what the payload
   * says, so the operator's log is where a wrong token or an unreachable API shows).
   */
  private loggedFetcher(integration: AnyIntegration, bot: User): JsonFetcher | undefined {
    const port = this.extras.fetchJson;
    if (port === undefined) return undefined;
    return async (url, headers) => {
      try {
        return await port(url, headers);
      } catch (err) {
        this.logger.warn("webhook: a lookup in the service's API failed", {
          integration: integration.name,
          bot: bot.id,
          error: err instanceof Error ? err.message : String(err),
        });
        throw err;
      }
    };
  }

  /** Stage "deliver": to the stream (name or id, decoded once more), else privately to the owner. */
  private async deliver(
    bot: User,
    rawStream: string | undefined,
    messages: WebhookMessage[],
    trace: Trace,
    client: string,
    lifecycle: { resolveTopics: boolean; editStatusMessages: boolean } = {
      resolveTopics: false,
      editStatusMessages: false,
    },
  ): Promise<number[]> {
    const { resolveTopics, editStatusMessages } = lifecycle;
    const ids = trace.messageIds;
    const urlStream = rawStream === undefined || rawStream === "" ? undefined : unquote(rawStream);
    for (const message of messages) {
      // An integration may name the stream itself (Slack's channels_map_to_topics=0).
      const stream = message.stream ?? urlStream;
      if (message.directTo !== undefined) {
        const user = (await this.directories.guessUser())(message.directTo);
        if (user !== undefined) {
          ids.push(await this.send(bot, { type: "private", to: [user.id], content: message.body, client }));
        }
        continue;
      }
      if (stream === undefined) {
        if (bot.botOwnerId === null)
          throw new JsonableError("This API key has no owner to send a private message to; pass a stream.");
        ids.push(
          await this.send(bot, { type: "private", to: [bot.botOwnerId], content: message.body, client }),
        );
        continue;
      }
      const to: string | number = /^\d+$/.test(stream) ? Number(stream) : stream;
      try {
        const topic = resolveTopics
          ? await this.lifecycle.topicFor(bot, to, { ...message, topic: resolvableTopic(message.topic) })
          : message.topic;
        const status = editStatusMessages && message.statusOnly === true;
        const object = message.statusOf ?? "";
        const edited = status
          ? await this.lifecycle.editStatus(bot, to, topic, object, message.body)
          : undefined;
        const id =
          edited ?? (await this.send(bot, { type: "stream", to, topic, content: message.body, client }));
        ids.push(id);
        if (status && edited === undefined) await this.lifecycle.remember(bot, id, object);
        if (resolveTopics && message.resolves === true && !topic.startsWith(RESOLVED_TOPIC_PREFIX)) {
          await this.lifecycle.rename(bot, id, RESOLVED_TOPIC_PREFIX + topic);
        }
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
