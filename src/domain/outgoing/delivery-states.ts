/**
 * What a delivery's failures do to its endpoint (the bot service's URL) and to the delivery:
 * the circuit breaker, disabling (410 Gone at once; failing for days), dead letters, the owner's
 * one summary per window, and the owner's replay and re-enable. State lives in the database
 * (`outgoing_endpoints`, dead jobs), so it survives restarts and is shared between processes.
 */
import type { Clock } from "../../clock.js";
import type { OutgoingWebhookConfig } from "../../config.js";
import type { OutgoingEndpointsRepo } from "../../store/outgoing-endpoints-repo.js";
import type { EndpointState } from "../../store/outgoing-endpoints-repo.js";
import type { OutgoingRepo } from "../../store/outgoing-repo.js";
import type { OutgoingJob } from "../../store/outgoing-repo.js";
import type { BotService, User } from "../users/types.js";
import type { BotViewMessage, JobPayload } from "./payload.js";
import {
  ENDPOINT_GONE,
  deadSummaryNotice,
  endpointDisabled,
  endpointDisabledNotice,
  endpointFailingFor,
} from "./texts.js";

/** The answer that means the endpoint is gone for good: it is disabled at once. */
export const GONE_STATUS = 410;

export interface DeliveryStatesDeps {
  /** Endpoint states (failures, circuit, disabled). */
  endpoints: OutgoingEndpointsRepo;
  /** The durable jobs. */
  jobs: OutgoingRepo;
  clock: Clock;
  config: OutgoingWebhookConfig;
  byId: (id: number) => Promise<User | undefined>;
  servicesOf: (botId: number) => Promise<BotService[]>;
  /** A private message from the bot to its owner (nothing when it has none). */
  notifyOwner: (bot: User, content: string) => Promise<void>;
  messageUrl: (message: BotViewMessage) => string;
}

export class DeliveryStates {
  readonly endpoints: OutgoingEndpointsRepo;
  private readonly jobs: OutgoingRepo;

  constructor(private readonly deps: DeliveryStatesDeps) {
    this.endpoints = deps.endpoints;
    this.jobs = deps.jobs;
  }

  /** True when a new job for this service should wait for the worker instead of being sent now. */
  async isHeld(serviceId: number): Promise<boolean> {
    const state = await this.endpoints.byService(serviceId);
    return (
      state !== undefined &&
      (state.disabledAtMs !== null || state.consecutiveFailures >= this.deps.config.circuitBreakerThreshold)
    );
  }

  /**
   * An attempt the endpoint answered (not with 5xx, 429 or 410): the failures are forgotten and
   * the circuit closes. True when it had failures (jobs held by its circuit may go now).
   */
  succeeded(serviceId: number): Promise<boolean> {
    return this.endpoints.recordSuccess(serviceId);
  }

  /**
   * A failed attempt (timeout, connection error, 5xx): counted; the circuit opens at the threshold
   * (the next probe one interval later); failing for `disableAfterMs` disables the endpoint.
   */
  async failed(bot: User, service: BotService, error: string): Promise<void> {
    const { circuitBreakerThreshold, circuitProbeIntervalMs, disableAfterMs } = this.deps.config;
    const now = this.deps.clock.now();
    const state = await this.endpoints.recordFailure(
      service.id,
      bot.id,
      now,
      error,
      circuitBreakerThreshold,
      now + circuitProbeIntervalMs,
    );
    if (state.failingSinceMs !== null && now - state.failingSinceMs >= disableAfterMs) {
      await this.disable(bot, service, endpointFailingFor(disableAfterMs, error));
    }
  }

  /** The endpoint answered 410 Gone: disabled at once. */
  async gone(bot: User, service: BotService): Promise<void> {
    await this.disable(bot, service, ENDPOINT_GONE);
  }

  private async disable(bot: User, service: BotService, reason: string): Promise<void> {
    if (await this.endpoints.disable(service.id, bot.id, this.deps.clock.now(), reason)) {
      await this.deps.notifyOwner(bot, endpointDisabledNotice(bot.fullName, service.baseUrl, reason));
    }
  }

  /** The error a job parked because its endpoint is disabled carries. */
  async disabledError(serviceId: number): Promise<string> {
    const state = await this.endpoints.byService(serviceId);
    return endpointDisabled(state?.disabledReason ?? "disabled");
  }

  /** Parks the due jobs of disabled endpoints as dead (they are not sent). */
  async parkDisabled(): Promise<void> {
    const now = this.deps.clock.now();
    for (const serviceId of await this.jobs.disabledServicesWithDueJobs(now)) {
      await this.jobs.parkDueOfService(serviceId, now, await this.disabledError(serviceId));
    }
  }

  /**
   * Open circuits whose probe is due: each is taken (one process, one attempt) and one due job of
   * it claimed; a circuit with nothing due gives its probe back.
   */
  async claimProbes(leaseUntilMs: number): Promise<OutgoingJob[]> {
    const { circuitBreakerThreshold, maxAttempts } = this.deps.config;
    const now = this.deps.clock.now();
    const probes: OutgoingJob[] = [];
    for (const state of await this.endpoints.probesDue(now, circuitBreakerThreshold)) {
      if (!(await this.endpoints.takeProbe(state.serviceId, now, leaseUntilMs, circuitBreakerThreshold)))
        continue;
      const [job] = await this.jobs.claimDue(now, leaseUntilMs, 1, maxAttempts, 0, state.serviceId);
      if (job === undefined) await this.endpoints.releaseProbe(state.serviceId, now);
      else probes.push(job);
    }
    return probes;
  }

  /**
   * Sends each bot's owner one summary of the deliveries that died, once the oldest of them is
   * `deadNoticeWindowMs` old (so the deaths of one outage arrive in one message).
   */
  async notifyDead(): Promise<void> {
    const now = this.deps.clock.now();
    for (const botId of await this.jobs.botsWithDeadToNotify(now - this.deps.config.deadNoticeWindowMs)) {
      const dead = await this.jobs.takeDeadToNotify(botId, now);
      const bot = await this.deps.byId(botId);
      if (dead.length === 0 || bot === undefined || !bot.isActive) continue;
      const items = dead.map((job) => ({
        messageUrl: this.deps.messageUrl((JSON.parse(job.payload) as JobPayload).message),
        error: job.lastError ?? "Unknown error",
      }));
      await this.deps.notifyOwner(bot, deadSummaryNotice(bot.fullName, items));
    }
  }

  /** A bot's dead jobs and its endpoints' states. */
  async ofBot(botId: number): Promise<{ dead: OutgoingJob[]; endpoints: EndpointState[] }> {
    return { dead: await this.jobs.deadOfBot(botId), endpoints: await this.endpoints.ofBot(botId) };
  }

  /** Every dead job of the bot pending again, due now. */
  replayDead(botId: number): Promise<OutgoingJob[]> {
    return this.jobs.replayDead(botId, this.deps.clock.now());
  }

  /** The bot's endpoints re-enabled, their failure counts and circuits reset. */
  async enable(botId: number): Promise<void> {
    await this.endpoints.enableBot(botId);
  }
}
