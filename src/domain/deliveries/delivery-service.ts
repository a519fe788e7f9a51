import { RESOLVED_TOPIC_PREFIX } from "../events/narrow.js";
import { AccessDeniedError, JsonableError, NotFoundError } from "../../errors.js";
import type { Clock } from "../../clock.js";
import type { OutgoingWebhookConfig } from "../../config.js";
import type { EgressPolicy } from "../egress/egress-policy.js";
import { egressPost } from "../egress/egress-request.js";
import type { UserService } from "../users/user-service.js";
import { isAdmin } from "../users/types.js";
import type { User } from "../users/types.js";
import type { IncomingWebhookRequest } from "../webhooks/types.js";
import type { WebhookService } from "../webhooks/webhook-service.js";
import type { DeliveryLog } from "./delivery-log.js";
import { outgoingEntry } from "./entries.js";
import { REDACTED } from "../../lib/redact.js";
import type { Delivery, Direction, Outcome } from "./types.js";

export interface DeliveryListQuery {
  direction?: Direction | undefined;
  outcome?: Outcome | undefined;
  /** Entries older than this id; absent: from the newest. */
  anchor?: number | undefined;
  num: number;
}

export interface DeliveryServiceDeps {
  log: DeliveryLog;
  users: UserService;
  /**
   * Writes a template bot's templates as an integration module's files (integrations/template/
   * export.ts, wired in src/services.ts); throws an Error saying what is wrong.
   */
  templateModule?: TemplateModuleBuilder | undefined;
  webhooks: WebhookService;
  clock: Clock;
  outgoing: OutgoingWebhookConfig;
  /** Replays go through the same egress policy as the deliveries themselves. */
  egress: EgressPolicy;
  realmUrl: () => string;
  /** What a message says now (for a dry-run replay's `posted`): its topic and Markdown, if `reader` may read it. */
  postedMessage?: (
    reader: User,
    messageId: number,
  ) => Promise<{ topic: string; content: string } | undefined>;
}

/** A dry-run replay of one incoming delivery (POST …/replay with dry_run=true). */
export interface DryRun {
  deliveryId: number;
  event: string | null;
  /** What today's code would post: every message; `topic`/`content` are the last one's. */
  messages: { topic: string; content: string }[];
  topic: string | null;
  content: string | null;
  /** The error today's code would answer instead, if any. */
  error: string | null;
  /** What was posted then (the last message of the delivery), null when nothing was or it is gone. */
  posted: { topic: string; content: string } | null;
  /** Whether today's last message differs from what was posted then. */
  changed: boolean;
}

/** A logged template delivery that becomes a fixture of an exported module. */
export interface ExportedTemplateDelivery {
  id: number;
  body: string;
  headers: Readonly<Record<string, string>>;
  expected: { topic: string; body: string } | null;
}

/** Builds an exported template module: its files by path. */
export type TemplateModuleBuilder = (
  name: string,
  botName: string,
  config: Readonly<Record<string, string>>,
  deliveries: readonly ExportedTemplateDelivery[],
) => Record<string, string>;

/** Most deliveries one bulk dry run goes over. */
export const MAX_DRY_RUN_DELIVERIES = 200;

/** Puts the current service token back where the log redacted it (outgoing replays). */
function withToken(body: string, contentType: string, token: string): string {
  if (contentType.includes("x-www-form-urlencoded")) {
    const form = new URLSearchParams(body);
    if (form.get("token") === REDACTED) form.set("token", token);
    return form.toString();
  }
  try {
    const json = JSON.parse(body) as Record<string, unknown>;
    if (json["token"] === REDACTED) json["token"] = token;
    return JSON.stringify(json);
  } catch {
    return body;
  }
}

/** A fresh delivery id for a re-sent request (a receiver that deduplicates must not drop it). */
function replayDeliveryId(body: string, contentType: string, id: string): string {
  if (contentType.includes("x-www-form-urlencoded")) {
    const form = new URLSearchParams(body);
    if (form.has("delivery_id")) form.set("delivery_id", id);
    return form.toString();
  }
  try {
    const json = JSON.parse(body) as Record<string, unknown>;
    if ("delivery_id" in json) json["delivery_id"] = id;
    return JSON.stringify(json);
  } catch {
    return body;
  }
}

/**
 * Reading a bot's delivery log and replaying entries: for the bot's owner and administrators
 * (another user: 403; an unknown bot or entry: 404).
 */
export class DeliveryService {
  constructor(private readonly deps: DeliveryServiceDeps) {}

  /** The bot, when `actor` may see its deliveries. */
  async botFor(actor: User, botId: number): Promise<User> {
    const bot = await this.deps.users.byId(botId);
    if (bot === undefined || !bot.isBot || bot.realmId !== actor.realmId)
      throw new NotFoundError("No such bot");
    if (bot.botOwnerId !== actor.id && !isAdmin(actor))
      throw new AccessDeniedError("Insufficient permission");
    return bot;
  }

  async list(
    actor: User,
    botId: number,
    q: DeliveryListQuery,
  ): Promise<{ deliveries: Delivery[]; foundOldest: boolean }> {
    await this.botFor(actor, botId);
    const rows = await this.deps.log.list({
      botId,
      direction: q.direction,
      outcome: q.outcome,
      before: q.anchor,
      limit: q.num + 1,
    });
    return { deliveries: rows.slice(0, q.num), foundOldest: rows.length <= q.num };
  }

  /** Replays an entry; the answer is the new entry (which points to the original). */
  async replay(actor: User, botId: number, deliveryId: number): Promise<Delivery> {
    const bot = await this.botFor(actor, botId);
    if (!this.deps.log.enabled) throw new JsonableError("The delivery log is turned off on this server.");
    const original = await this.deps.log.byId(botId, deliveryId);
    if (original === undefined) throw new NotFoundError("No such delivery");
    if (!bot.isActive) throw new JsonableError("This bot is deactivated.");
    if (original.bodyTruncated) {
      throw new JsonableError("This delivery's request body was cut in the log, so it cannot be replayed.");
    }
    const newId =
      original.direction === "incoming"
        ? await this.replayIncoming(bot, original)
        : await this.replayOutgoing(bot, original);
    const entry = newId === undefined ? undefined : await this.deps.log.byId(botId, newId);
    if (entry === undefined) throw new JsonableError("The replay could not be logged.");
    return entry;
  }

  /**
   * What today's integration code (with `draft`'s configuration keys, e.g. a draft template) would
   * post for a logged incoming delivery, beside what was posted then; posts and logs nothing.
   */
  async dryRun(
    actor: User,
    botId: number,
    deliveryId: number,
    draft: Readonly<Record<string, string>> = {},
  ): Promise<DryRun> {
    const bot = await this.botFor(actor, botId);
    if (!this.deps.log.enabled) throw new JsonableError("The delivery log is turned off on this server.");
    const original = await this.deps.log.byId(botId, deliveryId);
    if (original === undefined) throw new NotFoundError("No such delivery");
    if (original.direction !== "incoming")
      throw new JsonableError("Only incoming deliveries have a dry run.");
    this.checkReplayable(original);
    return this.dryRunOf(bot, original, draft);
  }

  /**
   * A dry run of the bot's last `num` incoming deliveries (newest first): which ones today's code
   * would post differently. Entries that cannot be replayed are left out.
   */
  async dryRunMany(
    actor: User,
    botId: number,
    num: number,
    draft: Readonly<Record<string, string>> = {},
  ): Promise<DryRun[]> {
    const bot = await this.botFor(actor, botId);
    if (!this.deps.log.enabled) throw new JsonableError("The delivery log is turned off on this server.");
    const entries = await this.deps.log.list({ botId, direction: "incoming", limit: num });
    const out: DryRun[] = [];
    for (const d of entries) {
      if (d.bodyTruncated || d.event === "handshake") continue;
      out.push(await this.dryRunOf(bot, d, draft));
    }
    return out;
  }

  /**
   * The bot's saved templates as an integration module's files (src/domain/webhooks/template-export.ts),
   * with fixtures from its last `num` incoming template deliveries and what the templates make of
   * them now. Only for a template bot (one whose configuration or log says so).
   */
  async exportTemplate(
    actor: User,
    botId: number,
    name: string,
    num: number,
  ): Promise<Record<string, string>> {
    const bot = await this.botFor(actor, botId);
    const build = this.deps.templateModule;
    if (build === undefined) throw new JsonableError("Exporting templates is not available on this server.");
    const config = await this.deps.users.botConfig(bot.id);
    const entries = this.deps.log.enabled
      ? await this.deps.log.list({ botId, direction: "incoming", limit: num })
      : [];
    const exported: ExportedTemplateDelivery[] = [];
    for (const d of entries) {
      if (d.integration !== "template" || d.bodyTruncated || d.event === "handshake") continue;
      const run = await this.deps.webhooks.dryRun(bot, "template", this.requestOf(d));
      if (run.error !== null) continue;
      const last = run.messages[run.messages.length - 1];
      exported.push({
        id: d.id,
        body: d.requestBody,
        headers: d.requestHeaders,
        expected: last === undefined ? null : { topic: last.topic, body: last.content },
      });
    }
    try {
      return build(name, bot.fullName, config, exported);
    } catch (err) {
      throw new JsonableError(err instanceof Error ? err.message : String(err));
    }
  }

  private checkReplayable(d: Delivery): void {
    if (d.bodyTruncated) {
      throw new JsonableError("This delivery's request body was cut in the log, so it cannot be replayed.");
    }
    if (d.event === "handshake") throw new JsonableError("A set-up handshake cannot be replayed.");
  }

  private async dryRunOf(bot: User, d: Delivery, draft: Readonly<Record<string, string>>): Promise<DryRun> {
    const result = await this.deps.webhooks.dryRun(bot, d.integration, this.requestOf(d), draft);
    const last = result.messages[result.messages.length - 1];
    const postedId = d.messageIds[d.messageIds.length - 1];
    const posted =
      postedId === undefined || this.deps.postedMessage === undefined
        ? null
        : ((await this.deps.postedMessage(bot, postedId)) ?? null);
    const changed =
      (last === undefined) !== (posted === null) ||
      (last !== undefined &&
        posted !== null &&
        (!sameTopic(last.topic, posted.topic) || last.content !== posted.content));
    return {
      deliveryId: d.id,
      event: result.event,
      messages: result.messages,
      topic: last?.topic ?? null,
      content: last?.content ?? null,
      error: result.error,
      posted,
      changed,
    };
  }

  private async replayIncoming(bot: User, d: Delivery): Promise<number | undefined> {
    if (d.event === "handshake") throw new JsonableError("A set-up handshake cannot be replayed.");
    const { deliveryId } = await this.deps.webhooks.replay(bot, d.integration, this.requestOf(d), d.id);
    return deliveryId;
  }

  /** The logged request as the pipeline takes it (redacted values left out). */
  private requestOf(d: Delivery): IncomingWebhookRequest {
    const q = d.url.indexOf("?");
    const path = q === -1 ? d.url : d.url.slice(0, q);
    const params: Record<string, string> = {};
    if (q !== -1) {
      for (const [k, v] of new URLSearchParams(d.url.slice(q + 1))) if (v !== REDACTED) params[k] = v;
    }
    const form = d.requestForm === null ? undefined : { ...d.requestForm };
    if (form !== undefined) Object.assign(params, form);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(d.requestHeaders)) if (v !== REDACTED) headers[k] = v;
    const req: IncomingWebhookRequest = {
      method: d.method,
      path,
      url: this.deps.realmUrl().replace(/\/$/, "") + d.url,
      headers,
      params,
      rawBody: Buffer.from(d.requestBody, "utf8"),
      form,
      basicAuth: undefined,
    };
    return req;
  }

  private async replayOutgoing(bot: User, d: Delivery): Promise<number> {
    const services = await this.deps.users.servicesOf(bot.id);
    const service = services.find((s) => s.baseUrl === d.url) ?? services[0];
    if (service === undefined) throw new JsonableError("This bot has no outgoing webhook service any more.");
    const contentType = d.requestHeaders["content-type"] ?? "application/json";
    const now = this.deps.clock.now();
    const original = d.requestHeaders["x-delivery-id"] ?? String(d.id);
    const id = `${original}.replay${now}`;
    const body = replayDeliveryId(withToken(d.requestBody, contentType, service.token), contentType, id);
    let status: number | null = null;
    let responseBody: string | null = null;
    let error: string | undefined;
    const outcome = await egressPost(this.deps.egress, {
      url: service.baseUrl,
      headers: { "content-type": contentType, "x-delivery-id": id },
      body,
      timeoutMs: Math.round(this.deps.outgoing.timeoutSeconds * 1000),
      maxResponseBytes: this.deps.outgoing.maxResponseBytes,
    });
    switch (outcome.kind) {
      case "response":
        status = outcome.status;
        responseBody = outcome.body.toString("utf8");
        if (status < 200 || status >= 300) error = `The service answered with HTTP ${status}`;
        break;
      case "failed":
        status = outcome.status ?? null;
        error = outcome.reason;
        break;
      case "timeout":
        error = "Timed out";
        break;
      case "connection":
        error = `Connection error: ${outcome.reason}`;
        break;
      case "exception":
        error = `${outcome.name}: ${outcome.message}`;
        break;
      case "aborted":
        error = "Aborted";
        break;
    }
    return this.deps.log.recordNow(
      outgoingEntry(
        {
          botId: bot.id,
          createdMs: now,
          integration: d.integration,
          event: d.event ?? undefined,
          url: service.baseUrl,
          headers: { "x-delivery-id": id },
          body,
          contentType,
          responseStatus: status,
          responseBody,
          outcome: error === undefined ? "delivered" : "failed",
          messageIds: [],
          attempts: 1,
          error,
          replayOf: d.id,
        },
        this.deps.log.config.maxBodyBytes,
      ),
    );
  }
}

/** The wire form of an entry (GET /bots/{id}/deliveries, replays). */
export function deliveryToWire(d: Delivery): Record<string, unknown> {
  return {
    id: d.id,
    bot_id: d.botId,
    timestamp: Math.floor(d.createdMs / 1000),
    direction: d.direction,
    integration: d.integration,
    event: d.event,
    request: {
      method: d.method,
      url: d.url,
      headers: d.requestHeaders,
      body: d.requestBody,
      ...(d.requestForm === null ? {} : { form: d.requestForm }),
      body_truncated: d.bodyTruncated,
    },
    response: { status: d.responseStatus, body: d.responseBody },
    outcome: d.outcome,
    message_ids: d.messageIds,
    attempts: d.attempts,
    error: d.error,
    replay_of: d.replayOf,
    old_credential: d.oldCredential,
  };
}

/**
 * Whether a dry run's topic is the topic posted then: also when resolve_topics has since marked
 * that topic resolved (its "✔ " prefix is the pipeline's, not the integration's output).
 */
function sameTopic(now: string, posted: string): boolean {
  return now === posted || RESOLVED_TOPIC_PREFIX + now === posted;
}
