/**
 * Runs one bot as an event-queue client, as Zulip's `zulip-run-bot` does: no outgoing webhook and
 * no bot server, the bot registers an event queue with its own key and long-polls `GET /events`.
 * A queue the server forgot (`BAD_EVENT_QUEUE_ID`: expired, or the server restarted) is registered
 * again; an unreachable chat server is retried with backoff.
 */
import type { Logger } from "../../src/lib/logger.js";
import type { Bot, BotConfigInfo, BotIdentity, BotMessage, RetryPolicy, Sleep } from "../kit/index.js";
import {
  BotQuitError,
  ChatApiClient,
  ChatApiError,
  RestBotHandler,
  TokenBucket,
  backoffMs,
  dispatchBotMessage,
  initializeBot,
  isTransientChatApiError,
  realSleep,
} from "../kit/index.js";
import type { ChatApiCredentials } from "../kit/index.js";

export interface RunBotOptions {
  bot: Bot;
  credentials: ChatApiCredentials;
  /** The bot's section of the bot config file. */
  config?: BotConfigInfo;
  logger: Logger;
  /** Stops the loop (the current long poll is abandoned). */
  signal?: AbortSignal;
  /** Backoff while the chat server cannot be reached (default: 0.5 s doubling to 30 s, forever). */
  retry?: RetryPolicy;
  pacing?: { capacity: number; refillPerSecond: number };
  sleep?: Sleep;
}

/** How the loop ended. */
export type RunBotOutcome = { kind: "stopped" } | { kind: "quit"; reason: string | undefined };

const RECONNECT: RetryPolicy = { maxRetries: Number.POSITIVE_INFINITY, baseDelayMs: 500, maxDelayMs: 30_000 };

interface MessageEvent {
  type: "message";
  id: number;
  message: BotMessage;
  flags?: string[];
}

function isMessageEvent(event: unknown): event is MessageEvent {
  const e = event as Partial<MessageEvent> | null;
  return typeof e === "object" && e !== null && e.type === "message" && typeof e.message === "object";
}

/** Runs the bot until `signal` aborts or the bot quits. */
export async function runBotOnEvents(options: RunBotOptions): Promise<RunBotOutcome> {
  const { bot, logger, signal } = options;
  const sleep = options.sleep ?? realSleep;
  const policy = options.retry ?? RECONNECT;
  // Long polls last up to the server's heartbeat (about 50 s): give each request more than that.
  const client = new ChatApiClient(options.credentials, {
    userAgent: `ZulipRunBot/0.1 (${bot.name})`,
    timeoutMs: 90_000,
    retry: { maxRetries: 0, baseDelayMs: 0, maxDelayMs: 0 },
  });

  /** Calls the API, waiting out transient failures (unreachable, 5xx, 429) for as long as the policy allows. */
  async function patiently<T>(what: string, call: () => Promise<T>): Promise<T> {
    for (let retry = 1; ; retry++) {
      try {
        return await call();
      } catch (err) {
        if (!isTransientChatApiError(err) || retry > policy.maxRetries || signal?.aborted) throw err;
        const delayMs = err.retryAfterMs ?? backoffMs(policy, retry);
        logger.warn("chat server not available: retrying", {
          bot: bot.name,
          during: what,
          reason: err.message,
          retry_in_ms: delayMs,
        });
        await sleep(delayMs);
      }
    }
  }

  const me = await patiently("start-up", () => client.call("GET", "users/me"));
  const identity: BotIdentity = {
    email: typeof me.email === "string" ? me.email : options.credentials.email,
    fullName: typeof me.full_name === "string" ? me.full_name : "",
    mention: `@**${typeof me.full_name === "string" ? me.full_name : ""}**`,
    ...(typeof me.user_id === "number" ? { userId: me.user_id } : {}),
  };
  const handler = new RestBotHandler(client, identity, options.config ?? {}, {
    pacing: new TokenBucket({ ...options.pacing }),
  });
  await initializeBot(bot, handler);

  const register = async (): Promise<{ queueId: string; lastEventId: number }> => {
    const res = await patiently("register", () =>
      client.call("POST", "register", { event_types: ["message"], apply_markdown: false }),
    );
    const queueId = String(res.queue_id);
    logger.info("event queue registered", { bot: bot.name, queue_id: queueId });
    return { queueId, lastEventId: typeof res.last_event_id === "number" ? res.last_event_id : -1 };
  };

  let queue = await register();
  logger.info(`running ${bot.name} as ${identity.email} on ${options.credentials.site}`, { bot: bot.name });
  while (!signal?.aborted) {
    let events: unknown[];
    try {
      const res = await patiently("GET /events", () =>
        client.call(
          "GET",
          "events",
          { queue_id: queue.queueId, last_event_id: queue.lastEventId },
          signal === undefined ? {} : { signal },
        ),
      );
      events = Array.isArray(res.events) ? (res.events as unknown[]) : [];
    } catch (err) {
      if (signal?.aborted) break;
      if (err instanceof ChatApiError && err.code === "BAD_EVENT_QUEUE_ID") {
        logger.warn("event queue expired (BAD_EVENT_QUEUE_ID): registering a new one", {
          bot: bot.name,
          queue_id: queue.queueId,
        });
        queue = await register();
        continue;
      }
      throw err;
    }
    for (const event of events) {
      const id = (event as { id?: unknown }).id;
      if (typeof id === "number" && id > queue.lastEventId) queue.lastEventId = id;
      if (!isMessageEvent(event)) continue;
      const outcome = await handleMessage(event.message);
      if (outcome !== undefined) return outcome;
    }
  }
  return { kind: "stopped" };

  async function handleMessage(message: BotMessage): Promise<RunBotOutcome | undefined> {
    const own =
      message.sender_email.toLowerCase() === identity.email.toLowerCase() ||
      (identity.userId !== undefined && message.sender_id === identity.userId);
    if (own) return undefined;
    const trigger = message.type === "private" ? "direct_message" : "mention";
    try {
      await dispatchBotMessage(bot, handler, message, trigger);
    } catch (err) {
      if (err instanceof BotQuitError) {
        logger.info("bot quit", { bot: bot.name, reason: err.reason ?? "" });
        return { kind: "quit", reason: err.reason };
      }
      logger.error("bot failed on a message", { bot: bot.name, message_id: message.id, error: err as Error });
    }
    return undefined;
  }
}
