/**
 * The bots a bot server serves right now, their queues and their metrics. Webhooks are accepted
 * into the bot's queue and answered at once; the queue's workers run the bot. A reload swaps the
 * set of bots: messages already queued finish with the bot (and key) they were accepted for.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { Logger } from "../../src/lib/logger.js";
import type { Bot, BotHandler, BotMessage } from "../kit/index.js";
import { BotQuitError, conversationKey, dispatchBotMessage } from "../kit/index.js";
import type { BotServerMetrics } from "./metrics.js";
import { WorkQueue } from "./work-queue.js";

/** A configured bot ready to take messages. */
export interface RunningBot {
  /** The config section name. */
  name: string;
  bot: Bot;
  handler: BotHandler;
  /** The bot's email: outgoing webhooks are matched on it. */
  email: string;
  /** The outgoing-webhook token of the bot's service. */
  token: string;
  /** Standard Webhooks secrets the webhooks are signed with (several during a rotation); none: not checked. */
  signingSecrets?: readonly string[];
  /** Refuse webhooks without a valid, fresh signature. */
  requireSignature?: boolean;
  /** What identifies this bot's configuration (credentials, token, module): a change means a reload restarts it. */
  fingerprint?: string;
}

/** An accepted webhook: the message and how to run it. */
export interface Delivery {
  message: BotMessage;
  trigger: string;
  botFullName: string | undefined;
}

export interface BotHostOptions {
  logger: Logger;
  metrics: BotServerMetrics;
  /** Per-bot queue size (default 1000). */
  queueCapacity?: number;
  /** Conversations one bot works on at once (default 4). */
  concurrency?: number;
}

export class BotHost {
  private bots: readonly RunningBot[];
  private readonly queues = new Map<string, WorkQueue>();

  constructor(
    bots: readonly RunningBot[],
    private readonly options: BotHostOptions,
  ) {
    this.bots = bots;
    options.metrics.bots.set(bots.length);
  }

  get metrics(): BotServerMetrics {
    return this.options.metrics;
  }

  /** A guess of when a full queue has room again, for the 503's Retry-After (1–60 s). */
  retryAfterSeconds(name: string): number {
    return Math.min(60, Math.max(1, Math.ceil(this.depth(name) / 20)));
  }

  /** The bots served now. */
  list(): readonly RunningBot[] {
    return this.bots;
  }

  byEmail(email: string): RunningBot | undefined {
    const wanted = email.toLowerCase();
    return this.bots.find((b) => b.email.toLowerCase() === wanted);
  }

  /** Replaces the served bots (a reload); queued messages of every bot still run. */
  replace(bots: readonly RunningBot[]): void {
    this.bots = bots;
    this.options.metrics.bots.set(bots.length);
  }

  /** Messages waiting or running for a bot. */
  depth(name: string): number {
    return this.queues.get(name)?.depth ?? 0;
  }

  /** The bot's queue capacity (for the 503's Retry-After estimate). */
  get queueCapacity(): number {
    return this.options.queueCapacity ?? 1000;
  }

  /**
   * Whether the message was sent by the bot itself: a reply loop. It is not run, and the log says so.
   */
  isReplyLoop(running: RunningBot, message: BotMessage): boolean {
    const own =
      (typeof message.sender_email === "string" &&
        message.sender_email.toLowerCase() === running.email.toLowerCase()) ||
      (running.handler.identity.userId !== undefined &&
        message.sender_id === running.handler.identity.userId);
    if (own) {
      this.options.logger.warn("reply loop stopped: the bot was triggered by its own message", {
        bot: running.name,
        message_id: message.id,
      });
    }
    return own;
  }

  /** Queues a delivery for the bot; false when its queue is full. */
  accept(running: RunningBot, delivery: Delivery): boolean {
    const queue = this.queueOf(running.name);
    const ok = queue.offer({
      key: conversationKey(delivery.message),
      order: typeof delivery.message.id === "number" ? delivery.message.id : 0,
      run: AsyncLocalStorage.bind(() => this.run(running, delivery)), // in the webhook's request context
    });
    this.options.metrics.queueDepth.set({ bot: running.name }, queue.depth);
    return ok;
  }

  /** Resolves when every queue is empty (tests, graceful shutdown). */
  async idle(): Promise<void> {
    await Promise.all([...this.queues.values()].map((q) => q.idle()));
  }

  private queueOf(name: string): WorkQueue {
    let queue = this.queues.get(name);
    if (queue === undefined) {
      queue = new WorkQueue({
        capacity: this.queueCapacity,
        concurrency: this.options.concurrency ?? 4,
        onError: (err) => this.options.logger.error("bot queue failure", { bot: name, error: err }),
        // Take the next message of a conversation only when the bot may send: out-of-order
        // deliveries that arrived meanwhile are then sorted by message id.
        beforeNext: async () => {
          const running = this.bots.find((b) => b.name === name);
          const pacing = (running?.handler as { pacing?: { ready(): Promise<void> } } | undefined)?.pacing;
          await pacing?.ready();
        },
      });
      this.queues.set(name, queue);
    }
    return queue;
  }

  private async run(running: RunningBot, delivery: Delivery): Promise<void> {
    const { logger, metrics } = this.options;
    const stopTimer = metrics.handlerDuration.startTimer({ bot: running.name });
    const messageId = delivery.message.id;
    try {
      const outcome = await dispatchBotMessage(
        running.bot,
        running.handler,
        delivery.message,
        delivery.trigger,
        delivery.botFullName,
      );
      if (outcome === "handled") {
        metrics.handled.inc({ bot: running.name, outcome: "handled" });
        logger.info("message handled", { bot: running.name, message_id: messageId });
      } else {
        metrics.handled.inc({ bot: running.name, outcome: "skipped" });
        logger.info("message not handled", { bot: running.name, message_id: messageId, reason: outcome });
      }
    } catch (err) {
      if (err instanceof BotQuitError) {
        metrics.handled.inc({ bot: running.name, outcome: "quit" });
        logger.warn("bot quit: no longer served", { bot: running.name, reason: err.reason ?? "" });
        this.replace(this.bots.filter((b) => b !== running));
        return;
      }
      metrics.handled.inc({ bot: running.name, outcome: "failed" });
      logger.error("bot failed on a message", {
        bot: running.name,
        message_id: messageId,
        error: err as Error,
      });
    } finally {
      stopTimer();
      metrics.queueDepth.set({ bot: running.name }, Math.max(0, this.depth(running.name) - 1));
    }
  }
}
