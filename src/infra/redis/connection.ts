import type { Command, Redis } from "ioredis";
import type { Logger } from "../../lib/logger.js";
import { isRedisConnectionError } from "../unavailable.js";

/**
 * The Redis connections of one server process (`serve --redis URL`): one for commands and one
 * subscribed to the pub/sub channels (wake-ups, supersede, invalidations).
 *
 * Commands never wait for a lost connection (no offline queue, one retry): while Redis is away
 * they fail at once and the request is answered 503 (src/infra/unavailable.ts); a command left
 * unanswered (packets dropped, Redis frozen) fails after `commandTimeoutMs` with
 * `RedisCommandTimeoutError` (never because this process was too busy to read an answer that had
 * come: see `withDeadline`), and opening a connection gives up after `connectTimeoutMs`. ioredis
 * reconnects by itself and re-subscribes, so the process recovers without a restart.
 */
export interface RedisBackend {
  readonly client: Redis;
  readonly subscriber: Redis;
  /** Key and channel prefix shared by every process of one deployment. */
  readonly prefix: string;
  /** Whether Redis answers PING now (GET /ready). */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export interface RedisTimeouts {
  connectTimeoutMs: number;
  commandTimeoutMs: number;
}

/** A Redis command that got no answer within the command timeout. */
export class RedisCommandTimeoutError extends Error {
  constructor(command: string, timeoutMs: number) {
    super(`Redis ${command.toUpperCase()} got no answer in ${timeoutMs} ms`);
    this.name = "RedisCommandTimeoutError";
  }
}

/**
 * Fails `command` once it has had no answer for `timeoutMs`. Node runs due timers before it reads
 * sockets in each turn of its event loop, so after a stall longer than the timeout (a long
 * synchronous task, the process not scheduled on a loaded machine) a timer like ioredis's own
 * `commandTimeout` fires while Redis's prompt answer sits unread, and a healthy Redis is taken for
 * a lost one (a fan-out then resets its users' event queues). The verdict is therefore given one
 * turn later, after the sockets have been read.
 */
function withDeadline(command: Command, timeoutMs: number): void {
  let answered = false;
  const timer = setTimeout(() => {
    setImmediate(() => {
      if (!answered) command.reject(new RedisCommandTimeoutError(command.name, timeoutMs));
    });
  }, timeoutMs);
  const settle = (): void => {
    answered = true;
    clearTimeout(timer);
  };
  command.promise.then(settle, settle);
}

/** ioredis's client with `withDeadline` on every command instead of its own `commandTimeout`. */
function clientWithDeadlines(RedisClient: typeof Redis, timeoutMs: number): typeof Redis {
  return class extends RedisClient {
    override sendCommand(...args: Parameters<Redis["sendCommand"]>): unknown {
      const sent = super.sendCommand(...args);
      withDeadline(args[0], timeoutMs);
      return sent;
    }
  };
}

/** Thrown when Redis cannot be reached at start-up (the server waits and retries). */
export class RedisUnreachableError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "RedisUnreachableError";
  }
}

/**
 * Whether a start-up failure is worth waiting out: Redis could not be reached, or stopped
 * answering. Not when Redis answered with an error (a wrong password, a bad database number).
 */
export function isRedisUnreachable(err: unknown): boolean {
  if (err instanceof RedisUnreachableError) {
    const cause = err.cause as { name?: unknown } | undefined;
    return cause?.name !== "ReplyError";
  }
  return isRedisConnectionError(err);
}

function connection(
  RedisClient: typeof Redis,
  url: string,
  logger: Logger,
  role: string,
  timeouts: RedisTimeouts,
): Redis {
  const Client = clientWithDeadlines(RedisClient, timeouts.commandTimeoutMs);
  const redis = new Client(url, {
    lazyConnect: true,
    enableOfflineQueue: role === "subscriber",
    maxRetriesPerRequest: 1,
    connectTimeout: timeouts.connectTimeoutMs,
    keepAlive: 10_000,
    retryStrategy: (times) => Math.min(100 * times, 1000),
  });
  let down = false;
  redis.on("error", (err: Error) => {
    if (down) return;
    down = true;
    logger.warn("redis connection lost; reconnecting", { role, error: err.message });
  });
  redis.on("ready", () => {
    if (!down) return;
    down = false;
    logger.info("redis connection restored", { role });
  });
  return redis;
}

/** Connects both connections (fails when Redis cannot be reached at start-up). */
export async function connectRedis(
  url: string,
  logger: Logger,
  prefix = "chat:",
  timeouts: RedisTimeouts = { connectTimeoutMs: 3000, commandTimeoutMs: 2000 },
): Promise<RedisBackend> {
  // Loaded only with --redis. ioredis is CommonJS: what every loader gives as `default` is its
  // module.exports (the client class, with itself as `.Redis`); named exports of a module loaded on
  // demand are not there in the compiled build.
  const RedisClient = (await import("ioredis")).default.Redis;
  const client = connection(RedisClient, url, logger, "client", timeouts);
  const subscriber = connection(RedisClient, url, logger, "subscriber", timeouts);
  // A connection accepted and then left unanswered (packets dropped) never becomes ready by itself.
  let timer: NodeJS.Timeout | undefined;
  const unanswered = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new Error("no answer")),
      timeouts.connectTimeoutMs + timeouts.commandTimeoutMs,
    );
  });
  try {
    await Promise.race([Promise.all([client.connect(), subscriber.connect()]), unanswered]);
  } catch (err) {
    client.disconnect();
    subscriber.disconnect();
    throw new RedisUnreachableError(
      `Redis at ${redactRedisUrl(url)} cannot be reached: ${(err as Error).message}`,
      { cause: err },
    );
  } finally {
    clearTimeout(timer);
  }
  return {
    client,
    subscriber,
    prefix,
    async ping() {
      try {
        return (await client.ping()) === "PONG";
      } catch {
        return false;
      }
    },
    async close() {
      client.disconnect();
      subscriber.disconnect();
      return Promise.resolve();
    },
  };
}

/** A Redis URL without its password, for messages and logs. */
export function redactRedisUrl(url: string): string {
  return url.replace(/^(rediss?:\/\/[^:/@]*):[^@/]*@/i, "$1:***@");
}
