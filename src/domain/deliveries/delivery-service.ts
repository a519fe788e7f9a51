import { AccessDeniedError, JsonableError, NotFoundError } from "../../errors.js";
import type { Clock } from "../../clock.js";
import type { OutgoingWebhookConfig } from "../../config.js";
import type { UserService } from "../users/user-service.js";
import { isAdmin } from "../users/types.js";
import type { User } from "../users/types.js";
import type { IncomingWebhookRequest, WebhookService } from "../webhooks/webhook-service.js";
import type { DeliveryLog } from "./delivery-log.js";
import { outgoingEntry } from "./entries.js";
import { REDACTED } from "./redact.js";
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
  webhooks: WebhookService;
  clock: Clock;
  outgoing: OutgoingWebhookConfig;
  realmUrl: () => string;
}

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

  private async replayIncoming(bot: User, d: Delivery): Promise<number | undefined> {
    if (d.event === "handshake") throw new JsonableError("A set-up handshake cannot be replayed.");
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
    const { deliveryId } = await this.deps.webhooks.replay(bot, d.integration, req, d.id);
    return deliveryId;
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
    try {
      const response = await fetch(service.baseUrl, {
        method: "POST",
        headers: { "content-type": contentType, "x-delivery-id": id },
        body,
        signal: AbortSignal.timeout(Math.round(this.deps.outgoing.timeoutSeconds * 1000)),
      });
      status = response.status;
      responseBody = await response.text();
      if (status < 200 || status >= 300) error = `The service answered with HTTP ${status}`;
    } catch (err) {
      error = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
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
  };
}
