/**
 * Pacing and retries of a bot's chat-API calls. Zulip's bot library stops a bot that sends more than
 * 20 messages in 5 seconds; here a bot is paced instead (a token bucket that waits for a token), so a
 * burst of mentions is answered slowly rather than partly refused.
 */
import { setTimeout as delay } from "node:timers/promises";

/** Waits `ms` milliseconds (injectable so tests need not wait). */
export type Sleep = (ms: number) => Promise<void>;

export const realSleep: Sleep = (ms) => delay(Math.max(0, ms)).then(() => undefined);

export interface TokenBucketOptions {
  /** Largest burst sent without waiting (default 20, Zulip's limit). */
  capacity?: number;
  /** Tokens added per second (default 4: 20 per 5 s). */
  refillPerSecond?: number;
  now?: () => number;
  sleep?: Sleep;
}

/**
 * A token bucket that waits: `take()` resolves when a token is available, in call order (FIFO), so
 * replies keep the order in which they were sent.
 */
export class TokenBucket {
  readonly capacity: number;
  readonly refillPerSecond: number;
  private tokens: number;
  private updatedAt: number;
  private tail: Promise<void> = Promise.resolve();
  private readonly now: () => number;
  private readonly sleep: Sleep;

  constructor(options: TokenBucketOptions = {}) {
    this.capacity = options.capacity ?? 20;
    this.refillPerSecond = options.refillPerSecond ?? 4;
    if (!(this.capacity >= 1) || !(this.refillPerSecond > 0)) {
      throw new RangeError("A token bucket needs a capacity ≥ 1 and a positive refill rate");
    }
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? realSleep;
    this.tokens = this.capacity;
    this.updatedAt = this.now();
  }

  /** Resolves once a token has been taken; waits (never throws) while the bucket is empty. */
  take(): Promise<void> {
    const turn = this.tail.then(() => this.takeNow());
    this.tail = turn.catch(() => undefined);
    return turn;
  }

  /** Resolves once a token is available, without taking it (to decide what to send next only then). */
  async ready(): Promise<void> {
    for (let wait = this.waitMs(); wait > 0; wait = this.waitMs()) await this.sleep(wait);
  }

  /** How long the next `take()` would wait now, in ms (0 when a token is available). */
  waitMs(): number {
    this.refill();
    return this.tokens >= 1 ? 0 : Math.ceil(((1 - this.tokens) / this.refillPerSecond) * 1000);
  }

  private async takeNow(): Promise<void> {
    for (;;) {
      const wait = this.waitMs();
      if (wait === 0) {
        this.tokens -= 1;
        return;
      }
      await this.sleep(wait);
    }
  }

  private refill(): void {
    const now = this.now();
    const elapsed = Math.max(0, now - this.updatedAt) / 1000;
    this.tokens = Math.min(this.capacity, this.tokens + elapsed * this.refillPerSecond);
    this.updatedAt = now;
  }
}

/** Parses a pacing setting `N/S` (N messages per S seconds; bursts of up to N). */
export function parsePacing(text: string): { capacity: number; refillPerSecond: number } {
  const m = /^\s*(\d+)\s*\/\s*(\d+(?:\.\d+)?)\s*$/.exec(text);
  const count = Number(m?.[1]);
  const seconds = Number(m?.[2]);
  if (!m || !(count >= 1) || !(seconds > 0)) {
    throw new RangeError(`Invalid rate '${text}': write messages/seconds, e.g. 20/5`);
  }
  return { capacity: count, refillPerSecond: count / seconds };
}

export interface RetryPolicy {
  /** Retries after the first attempt (default 8). */
  maxRetries: number;
  /** First backoff delay (default 500 ms), doubled each retry. */
  baseDelayMs: number;
  /** Largest backoff delay and largest honoured Retry-After (default 30 s). */
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxRetries: 8, baseDelayMs: 500, maxDelayMs: 30_000 };

/** No retries (for start-up checks that report at once, and for tests of raw errors). */
export const NO_RETRY: RetryPolicy = { maxRetries: 0, baseDelayMs: 0, maxDelayMs: 0 };

/** The delay before retry number `retry` (1-based): exponential, capped. */
export function backoffMs(policy: RetryPolicy, retry: number): number {
  return Math.min(policy.baseDelayMs * 2 ** Math.max(0, retry - 1), policy.maxDelayMs);
}

/** A `Retry-After` header (seconds or an HTTP date) in ms, or undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Math.round(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
