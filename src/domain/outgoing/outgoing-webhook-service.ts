import http from "node:http";
import https from "node:https";
import { propagationHeaders } from "../../lib/logger.js";
import { SpanKind, withSpan } from "../../lib/tracing.js";
import { dispatchBotMessage, initializeBot } from "../../../bots/kit/index.js";
import type { Clock } from "../../clock.js";
import type { OutgoingWebhookConfig } from "../../config.js";
import { JsonableError, StreamDoesNotExistError, StreamIdDoesNotExistError } from "../../errors.js";
import type { Logger } from "../../lib/logger.js";
import type { OutgoingRepo } from "../../store/outgoing-repo.js";
import type { OutgoingEndpointsRepo } from "../../store/outgoing-endpoints-repo.js";
import type { OutgoingJob } from "../../store/outgoing-repo.js";
import type { MessageService } from "../messages/message-service.js";
import type { SentMessage } from "../messages/types.js";
import type { UserService } from "../users/user-service.js";
import { BotType } from "../users/types.js";
import type { BotService, User } from "../users/types.js";
import type { BotRegistry } from "./bot-registry.js";
import type { BotStorageService } from "./bot-storage-service.js";
import { EmbeddedBotHandler } from "./embedded-handler.js";
import { nearMessageUrl } from "./message-url.js";
import {
  Interface,
  botViewOfMessage,
  conversationOf,
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
import type { EgressPolicy } from "../egress/egress-policy.js";
import { egressPost } from "../egress/egress-request.js";
import { DELIVERY_ID_HEADER, RETRYABLE_STATUSES, deliveryId } from "./attempt.js";
import type { Attempt } from "./attempt.js";
import { DeliveryStates, GONE_STATUS } from "./delivery-states.js";
import { retryAfterMs, scheduledDelay } from "./retry-schedule.js";
import type { SigningSecretService } from "./signing-secrets.js";

import { serviceBotTriggers } from "./triggers.js";

export interface OutgoingWebhookDeps {
  /** The durable jobs. */
  jobs: OutgoingRepo;
  /** Endpoint states (failures, circuit, disabled). */
  endpoints: OutgoingEndpointsRepo;
  users: UserService;
  messages: MessageService;
  botStorage: BotStorageService;
  /** The bundled bots embedded bots run. */
  bots: BotRegistry;
  clock: Clock;
  logger: Logger;
  config: OutgoingWebhookConfig;
  /** Which targets requests may reach (src/domain/egress). */
  egress: EgressPolicy;
  /** The realm's URL (owner notices' links, Slack's team_domain). */
  realmUrl: () => string;
  zulipVersion: string;
  zulipFeatureLevel: number;
  /** Signs every request with the bot's Standard Webhooks secrets (src/domain/outgoing/signing-secrets.ts). */
  signing?: SigningSecretService;
  /**
   * The token a service's webhooks carry now: an old one during a rotation's overlap
   * (src/domain/users/credential-rotation.ts). Absent: the service's current token.
   */
  tokens?: { tokenFor(service: BotService): Promise<{ token: string; old: boolean }> };
  /** Told of every HTTP attempt (the delivery log, src/domain/deliveries/outgoing-log.ts). */
  onAttempt?: (a: {
    job: OutgoingJob;
    bot: User;
    service: BotService;
    payload: JobPayload;
    attempt: Attempt;
    /** Whether another attempt follows (otherwise the delivery ends: delivered, failed or dead). */
    willRetry: boolean;
    /** The request carried an old token, during a rotation's overlap. */
    oldToken?: boolean;
    /** The request was signed with an old signing secret too, during a rotation's overlap. */
    oldSigningSecret?: boolean;
  }) => void;
  /** Jitter's randomness (tests may fix it); default Math.random. */
  random?: () => number;
}

const BATCH = 100;
/** Why a job whose last attempt was claimed but never finished ends failed. */
const INTERRUPTED =
  "The last attempt of this delivery never finished (the server stopped during it), so it is not tried again.";

/**
 * Outgoing webhooks (bot_type 3) and embedded bots (bot_type 4), as Zulip runs them
 * (zerver/worker/outgoing_webhooks.py, zerver/lib/outgoing_webhook.py, embedded_bots.py).
 *
 * Durable: when a message triggers a bot, one job per bot service is written to
 * `outgoing_webhook_jobs` right after the message commits (inside `messages.onSent`, before the
 * sender gets its answer), then delivered at once. A job is deleted once delivered; timeouts and
 * connection errors (and 429/503 answers, honouring Retry-After) are retried on the configured
 * schedule with jitter (`retryScheduleMs`) up to `maxAttempts`/`maxAgeMs`, then the bot posts
 * "Failure! Bot is unavailable" and the job is parked as dead (replayable; the owner gets one
 * summary per window). Endpoint circuits, 410 and disabling: `DeliveryStates`.
 * A job left by a stopped process (pending, or claimed when it died) is resumed by the worker.
 *
 * The worker: `kick` on every new job (no polling delay on the hot path), plus a timer every
 * `pollIntervalMs` for retries; `tick()` runs every due job now (tests drive it with a ManualClock).
 */
export class OutgoingWebhookService {
  private readonly repo: OutgoingRepo;
  /** Endpoint circuits, disabling, dead letters and the owner's summaries. */
  readonly states: DeliveryStates;
  private readonly agents = {
    http: new http.Agent({ keepAlive: true }),
    https: new https.Agent({ keepAlive: true }),
  };
  private readonly inFlight = new Map<number, Promise<void>>();
  /** The last attempt launched per service and conversation (see `launch`). */
  private readonly conversations = new Map<string, Promise<void>>();
  private readonly aborts = new Set<AbortController>();
  private unsubscribe: (() => void) | undefined;
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<number> | undefined;
  private closing = false;

  constructor(private readonly deps: OutgoingWebhookDeps) {
    this.repo = deps.jobs;
    this.states = new DeliveryStates({
      endpoints: deps.endpoints,
      jobs: deps.jobs,
      clock: deps.clock,
      config: deps.config,
      byId: (id) => deps.users.byId(id),
      servicesOf: (botId) => deps.users.servicesOf(botId),
      notifyOwner: (bot, content) => this.messageOwner(bot, content),
      messageUrl: (message) => this.messageUrl(message),
    });
  }

  /** Replays every dead delivery of a bot (pending again, due now) and starts them; answers how many. */
  async replayDead(botId: number): Promise<number> {
    const jobs = await this.states.replayDead(botId);
    if (jobs.length > 0) this.pollLogged();
    return jobs.length;
  }

  /** Re-enables a bot's endpoints (failures and circuits reset) and starts what waits for them. */
  async enableEndpoints(botId: number): Promise<void> {
    await this.states.enable(botId);
    this.pollLogged();
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

  /** Jobs grouped by status and attempts made (the metrics). */
  jobCounts(): Promise<{ status: string; attempts: number; count: number }[]> {
    return this.repo.jobCounts();
  }

  private async runDue(): Promise<number> {
    if (this.closing) return 0;
    const { maxAttempts, circuitBreakerThreshold } = this.deps.config;
    // Jobs of disabled endpoints are parked, not sent; owners get their summaries of dead jobs.
    await this.states.parkDisabled();
    await this.states.notifyDead();
    // A due job with no attempt left was claimed for its last attempt by a process that never
    // finished it (killed, or crashed by that very delivery): it ends failed, never claimed again.
    for (const job of await this.repo.failExhausted(this.deps.clock.now(), maxAttempts, INTERRUPTED)) {
      await this.abandon(job);
    }
    // One statement claims a batch (FOR UPDATE SKIP LOCKED on PostgreSQL): processes scanning at
    // the same moment take disjoint jobs, and each claimed job already has its attempt counted.
    // An endpoint whose circuit is open gets one probe at a time; the other jobs claimed skip it.
    const claimed = [
      ...(await this.states.claimProbes(this.leaseUntil())),
      ...(await this.repo.claimDue(
        this.deps.clock.now(),
        this.leaseUntil(),
        BATCH,
        maxAttempts,
        circuitBreakerThreshold,
      )),
    ];
    let started = 0;
    for (const job of claimed) {
      if (this.inFlight.has(job.id)) continue;
      this.launch(job);
      started++;
    }
    return started;
  }

  /** A job `failExhausted` ended: the conversation and the owner are told, as for a last failure. */
  private async abandon(job: OutgoingJob): Promise<void> {
    this.deps.logger.warn("outgoing webhook job abandoned: its last attempt never finished", {
      jobId: job.id,
      attempts: job.attempts,
    });
    const bot = await this.deps.users.byId(job.botId);
    if (bot === undefined || !bot.isActive) return;
    const service = (await this.deps.users.servicesOf(bot.id)).find((s) => s.id === job.serviceId);
    const payload = JSON.parse(job.payload) as JobPayload;
    if (service !== undefined && bot.botType !== BotType.EMBEDDED) {
      this.deps.onAttempt?.({
        job,
        bot,
        service,
        payload,
        attempt: { kind: "failed", reason: INTERRUPTED },
        willRetry: false,
      });
    }
    await this.failWithMessage(bot, payload.message, BOT_UNAVAILABLE);
    await this.notifyOwner(bot, payload.message, { failureMessage: INTERRUPTED });
  }

  private leaseUntil(): number {
    const { timeoutSeconds, leaseGraceMs } = this.deps.config;
    return this.deps.clock.now() + timeoutSeconds * 1000 + leaseGraceMs;
  }

  /** The onSent listener: writes the jobs (durably, before returning) and starts them at once. */
  private async onMessage(message: SentMessage): Promise<void> {
    if (this.closing) return;
    const directTrigger = this.deps.zulipFeatureLevel >= 201 ? "direct_message" : "private_message";
    const triggers = await serviceBotTriggers(message, (id) => this.deps.users.byId(id), directTrigger);
    if (triggers.length === 0) return;
    const view = botViewOfMessage(message);
    const jobs: OutgoingJob[] = [];
    let held = false;
    for (const { bot, trigger } of triggers) {
      const payload = JSON.stringify({ trigger, message: view } satisfies JobPayload);
      for (const service of await this.deps.users.servicesOf(bot.id)) {
        // Written already claimed for its first attempt, which starts right away; unless its
        // endpoint is disabled or its circuit open: then it is left to the worker (parked or
        // waiting for the circuit's probe).
        const wait = bot.botType !== BotType.EMBEDDED && (await this.states.isHeld(service.id));
        held ||= wait;
        const job = await this.repo.insert(
          { botId: bot.id, serviceId: service.id, messageId: message.id, payload },
          this.deps.clock.now(),
          wait ? undefined : this.leaseUntil(),
        );
        if (!wait) jobs.push(job);
      }
    }
    for (const job of jobs) this.launch(job);
    if (held) this.pollLogged();
  }

  /**
   * Starts a claimed job's attempt once the attempts launched before it for the same service and
   * conversation have ended, so a bot is sent one conversation's messages in the order they were
   * sent (launch order is send order: the jobs are written before the send returns). Without this,
   * a later message's attempt could reach the bot first when its look-ups happened to finish first.
   */
  private launch(job: OutgoingJob): void {
    const key = `${job.serviceId} ${conversationOf((JSON.parse(job.payload) as JobPayload).message)}`;
    const before = this.conversations.get(key);
    const attempt = before === undefined ? this.run(job) : before.then(() => this.run(job));
    const run = attempt
      .catch((err: unknown) => {
        this.deps.logger.error("outgoing webhook job crashed", { jobId: job.id, error: err as Error });
        return this.repo.fail(job.id, this.deps.clock.now(), String(err)).catch(() => undefined);
      })
      .finally(() => {
        this.inFlight.delete(job.id);
        if (this.conversations.get(key) === run) this.conversations.delete(key);
      });
    this.conversations.set(key, run);
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
    const definition = this.deps.bots.find(service.name);
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

  private async runWebhook(job: OutgoingJob, bot: User, current: BotService, p: JobPayload): Promise<void> {
    // During a token rotation's overlap the request carries the old token (the receiver has it).
    const sending = await this.deps.tokens?.tokenFor(current);
    const service = sending === undefined ? current : { ...current, token: sending.token };
    const slack = service.interface === Interface.SLACK;
    if (slack && p.message.type !== "stream") {
      await this.failWithMessage(bot, p.message, SLACK_NO_DMS);
      await this.repo.complete(job.id);
      return;
    }
    // The same id on every attempt of this job, across retries and restarts (at-least-once
    // delivery: a receiver deduplicates on it; docs/reliability.md).
    const id = deliveryId(job);
    const signedWith = { old: false };
    const attempt = slack
      ? await this.post(
          service.baseUrl,
          new URLSearchParams({
            ...slackRequestForm(p, bot, service, this.realmHost()),
            delivery_id: id,
          }).toString(),
          "application/x-www-form-urlencoded",
          id,
          bot.id,
          signedWith,
        )
      : await this.post(
          service.baseUrl,
          JSON.stringify({ ...genericRequestBody(p, bot, service), delivery_id: id }),
          "application/json",
          id,
          bot.id,
          signedWith,
        );
    const retryAt = this.nextAttemptAt(job, attempt);
    this.deps.onAttempt?.({
      job,
      bot,
      service,
      payload: p,
      attempt,
      willRetry: retryAt !== undefined,
      oldToken: sending?.old === true,
      oldSigningSecret: signedWith.old,
    });
    const command = p.message.content;
    switch (attempt.kind) {
      case "aborted":
        await this.repo.release(job.id, this.deps.clock.now());
        return;
      case "response":
        if (attempt.status === GONE_STATUS) {
          // Gone for good: the endpoint is disabled at once (its owner told), the delivery parked.
          await this.states.gone(bot, service);
          await this.park(job, bot, p, thirdPartyResponded(attempt.status));
          return;
        }
        if (attempt.status >= 500)
          await this.states.failed(bot, service, thirdPartyResponded(attempt.status));
        else if (attempt.status !== 429 && (await this.states.succeeded(service.id))) this.pollLogged();
        if (RETRYABLE_STATUSES.has(attempt.status)) {
          // The receiver is busy (the bot server's full queue answers 503): deliver later, not a failure.
          this.deps.logger.info(
            `Trigger event ${command} on ${service.name} answered ${attempt.status}. Retrying`,
          );
          await this.retryOrPark(job, bot, p, thirdPartyResponded(attempt.status), retryAt);
          return;
        }
        await this.handleResponse(bot, service, p, attempt.status, attempt.body);
        await this.repo.complete(job.id);
        return;
      case "timeout":
        this.deps.logger.info(`Trigger event ${command} on ${service.name} timed out. Retrying`);
        await this.states.failed(bot, service, timedOut(this.deps.config.timeoutSeconds));
        await this.retryOrPark(job, bot, p, timedOut(this.deps.config.timeoutSeconds), retryAt);
        return;
      case "connection":
        this.deps.logger.info(
          `Trigger event ${command} on ${service.name} resulted in a connection error. Retrying`,
          { reason: attempt.reason },
        );
        await this.states.failed(bot, service, CONNECTION_ERROR);
        await this.retryOrPark(job, bot, p, CONNECTION_ERROR, retryAt);
        return;
      case "failed":
        // Refused by this server (a denied target, a redirect, an answer over the size limit):
        // not retried, since the same request would end the same way.
        this.deps.logger.warn("Outhook trigger failed", { bot: bot.email, error: attempt.reason });
        await this.failWithMessage(bot, p.message, attempt.reason);
        await this.notifyOwner(bot, p.message, { failureMessage: attempt.reason });
        await this.repo.fail(job.id, this.deps.clock.now(), attempt.reason);
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
    body: string,
    contentType: string,
    id: string,
    botId: number,
    /** Told whether an old signing secret (in a rotation's overlap) signed the request too. */
    signedWith: { old: boolean },
  ): Promise<Attempt> {
    // Standard Webhooks headers (webhook-id is the delivery id); the body keeps Zulip's `token`.
    const signed = await this.deps.signing?.headers(botId, id, body);
    // One signature per valid secret: more than one means an old secret signs too.
    signedWith.old = signed?.["webhook-signature"].includes(" ") === true;
    const controller = new AbortController();
    this.aborts.add(controller);
    try {
      const outcome = await withSpan("outgoing webhook POST", { kind: SpanKind.CLIENT }, () =>
        egressPost(this.deps.egress, {
          url,
          headers: {
            "content-type": contentType,
            "user-agent": `ZulipOutgoingWebhook/${this.deps.zulipVersion}`,
            [DELIVERY_ID_HEADER]: id,
            ...signed,
            ...propagationHeaders(), // the triggering request's ids
          },
          body,
          timeoutMs: Math.round(this.deps.config.timeoutSeconds * 1000),
          maxResponseBytes: this.deps.config.maxResponseBytes,
          signal: controller.signal,
          agents: this.agents,
        }),
      );
      if (outcome.kind === "aborted" || this.closing) return { kind: "aborted" };
      if (outcome.kind !== "response") return outcome;
      const wait = RETRYABLE_STATUSES.has(outcome.status)
        ? retryAfterMs(
            outcome.headers["retry-after"],
            this.deps.clock.now(),
            this.deps.config.retryAfterMaxMs,
          )
        : undefined;
      return wait === undefined
        ? { kind: "response", status: outcome.status, body: outcome.body }
        : { kind: "response", status: outcome.status, body: outcome.body, retryAfterSeconds: wait / 1000 };
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

  /**
   * When the job's next attempt is due after this one, or undefined when this was its last (or the
   * outcome is not retried: only timeouts, connection errors, 429 and 503 are). The delay is the
   * schedule's (with jitter), or the answer's `Retry-After` (capped) on 429/503.
   */
  private nextAttemptAt(job: OutgoingJob, attempt: Attempt): number | undefined {
    const retried =
      attempt.kind === "timeout" ||
      attempt.kind === "connection" ||
      (attempt.kind === "response" && RETRYABLE_STATUSES.has(attempt.status));
    if (!retried) return undefined;
    const { maxAttempts, retryScheduleMs, retryJitter, maxAgeMs } = this.deps.config;
    const now = this.deps.clock.now();
    const retryAfter = attempt.kind === "response" ? attempt.retryAfterSeconds : undefined;
    const delay =
      retryAfter === undefined
        ? scheduledDelay(job.attempts, retryScheduleMs, retryJitter, this.deps.random)
        : Math.round(retryAfter * 1000);
    const at = now + delay;
    return job.attempts < maxAttempts && at - job.createdAtMs <= maxAgeMs ? at : undefined;
  }

  /** Schedules the next attempt, or parks the delivery as dead after its last. */
  private async retryOrPark(
    job: OutgoingJob,
    bot: User,
    p: JobPayload,
    failure: string,
    retryAt: number | undefined,
  ): Promise<void> {
    if (retryAt !== undefined) {
      await this.repo.retryAt(job.id, retryAt, failure);
      return;
    }
    this.deps.logger.warn(`Maximum retries exceeded for trigger:${bot.email} event:${p.message.content}`);
    await this.park(job, bot, p, failure);
  }

  /**
   * The delivery is dead: "Failure! Bot is unavailable" in the conversation (as Zulip), the job
   * kept for replay; the owner hears of it in one summary per window (`DeliveryStates.notifyDead`).
   */
  private async park(job: OutgoingJob, bot: User, p: JobPayload, failure: string): Promise<void> {
    await this.failWithMessage(bot, p.message, BOT_UNAVAILABLE);
    await this.repo.park(job.id, this.deps.clock.now(), failure);
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
    await this.messageOwner(bot, ownerNotice(this.messageUrl(message), bot.fullName, details));
  }

  /** A DM from the bot to its owner (none when it has no active owner). */
  private async messageOwner(bot: User, content: string): Promise<void> {
    if (bot.botOwnerId === null) return;
    const owner = await this.deps.users.byId(bot.botOwnerId);
    if (owner === undefined || !owner.isActive) return;
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
