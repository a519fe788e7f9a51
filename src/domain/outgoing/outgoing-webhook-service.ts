import http from "node:http";
import https from "node:https";
import got from "got";
import type { Got } from "got";
import { findBot } from "../../../bots/index.js";
import { dispatchBotMessage, initializeBot } from "../../../bots/kit/index.js";
import type { Clock } from "../../clock.js";
import type { OutgoingWebhookConfig } from "../../config.js";
import { JsonableError, StreamDoesNotExistError, StreamIdDoesNotExistError } from "../../errors.js";
import type { Logger } from "../../logger.js";
import type { Db } from "../../store/db.js";
import { OutgoingRepo } from "../../store/outgoing-repo.js";
import type { OutgoingJob } from "../../store/outgoing-repo.js";
import type { MessageService } from "../messages/message-service.js";
import type { SentMessage } from "../messages/types.js";
import type { UserService } from "../users/user-service.js";
import { BotType } from "../users/types.js";
import type { BotService, User } from "../users/types.js";
import type { BotStorageService } from "./bot-storage-service.js";
import { EmbeddedBotHandler } from "./embedded-handler.js";
import { nearMessageUrl } from "./message-url.js";
import {
  Interface,
  botViewOfMessage,
  genericRequestBody,
  parseWebhookResponse,
  slackRequestForm,
} from "./payload.js";
import type { BotViewMessage, JobPayload } from "./payload.js";
import {
  BOT_UNAVAILABLE,
  CONNECTION_ERROR,
  FAILURE_PREFIX,
  SLACK_NO_DMS,
  exceptionOccurred,
  ownerNotice,
  responseError,
  thirdPartyResponded,
  timedOut,
} from "./texts.js";
import type { OwnerNoticeDetails } from "./texts.js";
import { CONNECTION_CODES, DELIVERY_ID_HEADER, RETRYABLE_STATUSES, deliveryId } from "./attempt.js";
import type { Attempt } from "./attempt.js";

export { DELIVERY_ID_HEADER, deliveryId } from "./attempt.js";
import { serviceBotTriggers } from "./triggers.js";

export interface OutgoingWebhookDeps {
  db: Db;
  users: UserService;
  messages: MessageService;
  botStorage: BotStorageService;
  clock: Clock;
  logger: Logger;
  config: OutgoingWebhookConfig;
  /** The realm's URL (owner notices' links, Slack's team_domain). */
  realmUrl: () => string;
  zulipVersion: string;
  zulipFeatureLevel: number;
  /** Told of every HTTP attempt (the delivery log, src/domain/deliveries/outgoing-log.ts). */
  onAttempt?: (a: {
    job: OutgoingJob;
    bot: User;
    service: BotService;
    payload: JobPayload;
    attempt: Attempt;
  }) => void;
}

/** Extra time a claimed job stays invisible after its request timeout (then it is due again). */
const LEASE_GRACE_MS = 30_000;
const BATCH = 100;

/**
 * Outgoing webhooks (bot_type 3) and embedded bots (bot_type 4), as Zulip runs them
 * (zerver/worker/outgoing_webhooks.py, zerver/lib/outgoing_webhook.py, embedded_bots.py).
 *
 * Durable: when a message triggers a bot, one job per bot service is written to
 * `outgoing_webhook_jobs` right after the message commits (inside `messages.onSent`, before the
 * sender gets its answer), then delivered at once. A job is deleted once delivered; timeouts and
 * connection errors (and 429/503 answers, honouring Retry-After) are retried with exponential backoff (`retryDelayMs` · 2^(n−1), capped) up to
 * `maxAttempts`/`maxAgeMs`, then the bot posts "Failure! Bot is unavailable" and tells its owner.
 * A job left by a stopped process (pending, or claimed when it died) is resumed by the worker.
 *
 * The worker: `kick` on every new job (no polling delay on the hot path), plus a timer every
 * `pollIntervalMs` for retries; `tick()` runs every due job now (tests drive it with a ManualClock).
 */
export class OutgoingWebhookService {
  private readonly repo: OutgoingRepo;
  private readonly http: Got;
  private readonly agents = {
    http: new http.Agent({ keepAlive: true }),
    https: new https.Agent({ keepAlive: true }),
  };
  private readonly inFlight = new Map<number, Promise<void>>();
  private readonly aborts = new Set<AbortController>();
  private unsubscribe: (() => void) | undefined;
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<number> | undefined;
  private closing = false;

  constructor(private readonly deps: OutgoingWebhookDeps) {
    this.repo = new OutgoingRepo(deps.db);
    this.http = got.extend({
      agent: this.agents,
      retry: { limit: 0 },
      throwHttpErrors: false,
      timeout: { request: Math.round(deps.config.timeoutSeconds * 1000) },
      headers: { "user-agent": `ZulipOutgoingWebhook/${deps.zulipVersion}` },
    });
  }

  /** Listens for new messages and starts the worker (which first resumes jobs left from before). */
  start(): void {
    this.unsubscribe = this.deps.messages.onSent((message) => this.onMessage(message));
    const interval = this.deps.config.pollIntervalMs;
    if (interval > 0) {
      this.timer = setInterval(() => {
        this.pollLogged();
      }, interval);
      this.timer.unref();
    }
    this.pollLogged();
  }

  /** Stops listening and the timer, interrupts requests in flight (their jobs stay pending). */
  async close(): Promise<void> {
    this.closing = true;
    this.unsubscribe?.();
    if (this.timer !== undefined) clearInterval(this.timer);
    for (const controller of this.aborts) controller.abort();
    await this.ticking?.catch(() => undefined);
    await Promise.allSettled([...this.inFlight.values()]);
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  /** Runs every job due now and waits for them (and for any other delivery in flight). */
  async tick(): Promise<number> {
    const count = await this.poll();
    await this.idle();
    return count;
  }

  private pollLogged(): void {
    this.poll().catch((err: unknown) => {
      this.deps.logger.error("outgoing webhook worker: scanning for due jobs failed", {
        error: err as Error,
      });
    });
  }

  /** Starts every job due now (one scan at a time); does not wait for the deliveries. */
  private poll(): Promise<number> {
    if (this.closing) return Promise.resolve(0);
    this.ticking ??= this.runDue().finally(() => {
      this.ticking = undefined;
    });
    return this.ticking;
  }

  /** Resolves when no delivery is in flight. */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight.values()]);
  }

  /** Every job row (tests, diagnostics). */
  jobs(): Promise<OutgoingJob[]> {
    return this.repo.all();
  }

  private async runDue(): Promise<number> {
    if (this.closing) return 0;
    // One statement claims a batch (FOR UPDATE SKIP LOCKED on PostgreSQL): processes scanning at
    // the same moment take disjoint jobs, and each claimed job already has its attempt counted.
    const claimed = await this.repo.claimDue(this.deps.clock.now(), this.leaseUntil(), BATCH);
    let started = 0;
    for (const job of claimed) {
      if (this.inFlight.has(job.id)) continue;
      this.launch(job);
      started++;
    }
    return started;
  }

  private leaseUntil(): number {
    return this.deps.clock.now() + this.deps.config.timeoutSeconds * 1000 + LEASE_GRACE_MS;
  }

  /** The onSent listener: writes the jobs (durably, before returning) and starts them at once. */
  private async onMessage(message: SentMessage): Promise<void> {
    if (this.closing) return;
    const directTrigger = this.deps.zulipFeatureLevel >= 201 ? "direct_message" : "private_message";
    const triggers = await serviceBotTriggers(message, (id) => this.deps.users.byId(id), directTrigger);
    if (triggers.length === 0) return;
    const view = botViewOfMessage(message);
    const jobs: OutgoingJob[] = [];
    for (const { bot, trigger } of triggers) {
      const payload = JSON.stringify({ trigger, message: view } satisfies JobPayload);
      for (const service of await this.deps.users.servicesOf(bot.id)) {
        // Written already claimed for its first attempt, which starts right away.
        jobs.push(
          await this.repo.insert(
            { botId: bot.id, serviceId: service.id, messageId: message.id, payload },
            this.deps.clock.now(),
            this.leaseUntil(),
          ),
        );
      }
    }
    for (const job of jobs) this.launch(job);
  }

  private launch(job: OutgoingJob): void {
    const run = this.run(job)
      .catch((err: unknown) => {
        this.deps.logger.error("outgoing webhook job crashed", { jobId: job.id, error: err as Error });
        return this.repo.fail(job.id, this.deps.clock.now(), String(err)).catch(() => undefined);
      })
      .finally(() => {
        this.inFlight.delete(job.id);
      });
    this.inFlight.set(job.id, run);
  }

  /** One attempt of a claimed job (`job.attempts` counts it). */
  private async run(job: OutgoingJob): Promise<void> {
    const payload = JSON.parse(job.payload) as JobPayload;
    const bot = await this.deps.users.byId(job.botId);
    const service = bot && (await this.deps.users.servicesOf(bot.id)).find((s) => s.id === job.serviceId);
    if (bot === undefined || !bot.isActive || service === undefined) {
      // The bot was deactivated or lost its service meanwhile: nothing to deliver to.
      await this.repo.complete(job.id);
      return;
    }
    if (bot.botType === BotType.EMBEDDED) {
      await this.runEmbedded(job, bot, service, payload);
      return;
    }
    await this.runWebhook(job, bot, service, payload);
  }

  private async runEmbedded(job: OutgoingJob, bot: User, service: BotService, p: JobPayload): Promise<void> {
    const definition = findBot(service.name);
    if (definition === undefined) {
      await this.repo.fail(job.id, this.deps.clock.now(), `No embedded bot named '${service.name}'`);
      this.deps.logger.error("embedded bot not found", { bot: bot.email, service: service.name });
      return;
    }
    const config = await this.deps.users.botConfig(bot.id);
    const handler = new EmbeddedBotHandler(bot, config, this.deps.messages, this.deps.botStorage);
    try {
      // Zulip calls initialize() for every message.
      await initializeBot(definition, handler);
      await dispatchBotMessage(definition, handler, p.message, p.trigger, bot.fullName);
    } catch (err) {
      this.deps.logger.warn("embedded bot failed", {
        bot: bot.email,
        messageId: job.messageId,
        error: err as Error,
      });
      await this.repo.fail(job.id, this.deps.clock.now(), err instanceof Error ? err.message : String(err));
      return;
    }
    await this.repo.complete(job.id);
  }

  private async runWebhook(job: OutgoingJob, bot: User, service: BotService, p: JobPayload): Promise<void> {
    const slack = service.interface === Interface.SLACK;
    if (slack && p.message.type !== "stream") {
      await this.failWithMessage(bot, p.message, SLACK_NO_DMS);
      await this.repo.complete(job.id);
      return;
    }
    // The same id on every attempt of this job, across retries and restarts (at-least-once
    // delivery: a receiver deduplicates on it; docs/reliability.md).
    const id = deliveryId(job);
    const attempt = await this.post(
      service.baseUrl,
      slack
        ? { form: { ...slackRequestForm(p, bot, service, this.realmHost()), delivery_id: id } }
        : { json: { ...genericRequestBody(p, bot, service), delivery_id: id } },
      id,
    );
    this.deps.onAttempt?.({ job, bot, service, payload: p, attempt });
    const command = p.message.content;
    switch (attempt.kind) {
      case "aborted":
        await this.repo.release(job.id, this.deps.clock.now());
        return;
      case "response":
        if (RETRYABLE_STATUSES.has(attempt.status)) {
          // The receiver is busy (the bot server's full queue answers 503): deliver later, not a failure.
          this.deps.logger.info(
            `Trigger event ${command} on ${service.name} answered ${attempt.status}. Retrying`,
          );
          await this.retryOrGiveUp(
            job,
            bot,
            p,
            thirdPartyResponded(attempt.status),
            (attempt.retryAfterSeconds ?? 0) * 1000,
          );
          return;
        }
        await this.handleResponse(bot, service, p, attempt.status, attempt.body);
        await this.repo.complete(job.id);
        return;
      case "timeout":
        this.deps.logger.info(`Trigger event ${command} on ${service.name} timed out. Retrying`);
        await this.retryOrGiveUp(job, bot, p, timedOut(this.deps.config.timeoutSeconds));
        return;
      case "connection":
        this.deps.logger.info(
          `Trigger event ${command} on ${service.name} resulted in a connection error. Retrying`,
          { reason: attempt.reason },
        );
        await this.retryOrGiveUp(job, bot, p, CONNECTION_ERROR);
        return;
      case "exception":
        this.deps.logger.error("Outhook trigger failed", {
          bot: bot.email,
          error: `${attempt.name}: ${attempt.message}`,
        });
        await this.failWithMessage(bot, p.message, exceptionOccurred(attempt.name, command));
        await this.notifyOwner(bot, p.message, {
          exception: { name: attempt.name, message: attempt.message },
        });
        await this.repo.fail(job.id, this.deps.clock.now(), `${attempt.name}: ${attempt.message}`);
        return;
    }
  }

  private async post(
    url: string,
    body: { json: Record<string, unknown> } | { form: Record<string, string> },
    id: string,
  ): Promise<Attempt> {
    const controller = new AbortController();
    this.aborts.add(controller);
    try {
      const response = await this.http.post(url, {
        ...body,
        headers: { [DELIVERY_ID_HEADER]: id },
        signal: controller.signal,
      });
      const retryAfter = Number(response.headers["retry-after"]);
      return Number.isFinite(retryAfter) && retryAfter > 0
        ? {
            kind: "response",
            status: response.statusCode,
            body: response.rawBody,
            retryAfterSeconds: retryAfter,
          }
        : { kind: "response", status: response.statusCode, body: response.rawBody };
    } catch (err) {
      if (this.closing) return { kind: "aborted" };
      const e = err as Error & { code?: string };
      if (e.name === "TimeoutError") return { kind: "timeout" };
      if ((e.code !== undefined && CONNECTION_CODES.has(e.code)) || e.name === "ReadError") {
        return { kind: "connection", reason: e.message };
      }
      return { kind: "exception", name: e.name, message: e.message };
    } finally {
      this.aborts.delete(controller);
    }
  }

  /** Zulip's do_rest_call once a response arrived. */
  private async handleResponse(
    bot: User,
    service: BotService,
    p: JobPayload,
    status: number,
    body: Buffer,
  ): Promise<void> {
    if (status < 200 || status >= 300) {
      const url = this.messageUrl(p.message);
      this.deps.logger.warn(
        `Message ${url} triggered an outgoing webhook, returning status code ${status}.\n Content of response (in quotes): "${body.toString("utf8")}"`,
      );
      await this.failWithMessage(bot, p.message, thirdPartyResponded(status));
      await this.notifyOwner(bot, p.message, { statusCode: status, responseContent: body });
      return;
    }
    const text = body.toString("utf8");
    try {
      const reply = parseWebhookResponse(service.interface, text);
      if (reply !== null) await this.sendAsBot(bot, p.message, reply.content, "OutgoingWebhookResponse");
    } catch (err) {
      if (!(err instanceof JsonableError)) throw err;
      this.deps.logger.info("Outhook trigger failed", { bot: bot.email, error: err.message });
      await this.failWithMessage(bot, p.message, err.message);
      await this.notifyOwner(bot, p.message, {
        responseContent: text,
        failureMessage: responseError(err.message),
      });
    }
  }

  private async retryOrGiveUp(
    job: OutgoingJob,
    bot: User,
    p: JobPayload,
    failure: string,
    minDelayMs = 0,
  ): Promise<void> {
    const { maxAttempts, retryDelayMs, retryMaxDelayMs, maxAgeMs } = this.deps.config;
    const now = this.deps.clock.now();
    const backoff = Math.min(retryDelayMs * 2 ** (job.attempts - 1), retryMaxDelayMs);
    const delay = Math.max(backoff, Math.min(minDelayMs, retryMaxDelayMs));
    if (job.attempts < maxAttempts && now + delay - job.createdAtMs <= maxAgeMs) {
      await this.repo.retryAt(job.id, now + delay, failure);
      return;
    }
    await this.failWithMessage(bot, p.message, BOT_UNAVAILABLE);
    await this.notifyOwner(bot, p.message, { failureMessage: failure });
    this.deps.logger.warn(`Maximum retries exceeded for trigger:${bot.email} event:${p.message.content}`);
    await this.repo.fail(job.id, now, failure);
  }

  /** The bot posts into the conversation (same stream and topic, or the same DM group). */
  private async sendAsBot(
    bot: User,
    message: BotViewMessage,
    content: string,
    client: string,
  ): Promise<void> {
    if (message.type === "stream") {
      await this.deps.messages.send(bot, {
        type: "stream",
        to:
          message.stream_id ??
          (typeof message.display_recipient === "string" ? message.display_recipient : ""),
        topic: message.subject,
        content,
        client,
      });
      return;
    }
    const recipients = Array.isArray(message.display_recipient) ? message.display_recipient : [];
    await this.deps.messages.send(bot, {
      type: "private",
      to: recipients.map((r) => r.email),
      content,
      client,
    });
  }

  /** Zulip's fail_with_message: "Failure! …" in the conversation (dropped if the stream is gone). */
  private async failWithMessage(bot: User, message: BotViewMessage, failure: string): Promise<void> {
    try {
      await this.sendAsBot(bot, message, FAILURE_PREFIX + failure, "OutgoingWebhookResponse");
    } catch (err) {
      if (err instanceof StreamDoesNotExistError || err instanceof StreamIdDoesNotExistError) return;
      this.deps.logger.warn("could not post an outgoing webhook failure", {
        bot: bot.email,
        error: err as Error,
      });
    }
  }

  /** Zulip's notify_bot_owner: a DM from the bot to its owner. */
  private async notifyOwner(bot: User, message: BotViewMessage, details: OwnerNoticeDetails): Promise<void> {
    if (bot.botOwnerId === null) return;
    const owner = await this.deps.users.byId(bot.botOwnerId);
    if (owner === undefined || !owner.isActive) return;
    const content = ownerNotice(this.messageUrl(message), bot.fullName, details);
    try {
      await this.deps.messages.send(bot, {
        type: "private",
        to: [owner.email],
        content,
        client: "OutgoingWebhookResponse",
      });
    } catch (err) {
      this.deps.logger.warn("could not notify a bot owner", { bot: bot.email, error: err as Error });
    }
  }

  private messageUrl(message: BotViewMessage): string {
    return nearMessageUrl(this.deps.realmUrl(), message);
  }

  private realmHost(): string {
    try {
      return new URL(this.deps.realmUrl()).host;
    } catch {
      return this.deps.realmUrl();
    }
  }
}
