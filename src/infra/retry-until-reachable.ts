import type { Logger } from "../lib/logger.js";

export interface RetryOptions {
  logger: Logger;
  /** Errors worth waiting out (the service cannot be reached); anything else is thrown at once. */
  isTransient(err: unknown): boolean;
  /** Delay before the second attempt; doubles after each failure up to `maxDelayMs`. */
  firstDelayMs?: number;
  maxDelayMs?: number;
  /** Called after each failed attempt (the server answers 503 meanwhile). */
  onFailure?: (err: unknown) => void;
}

/**
 * Runs `attempt` until it succeeds: a server started while PostgreSQL or Redis is away waits for
 * it instead of exiting. Each failed attempt is logged (one line, with the attempt number and the
 * delay before the next); an error that is not transient (a bad URL, a wrong password) ends the
 * wait at once.
 */
export async function retryUntilReachable<T>(
  what: string,
  attempt: () => Promise<T>,
  options: RetryOptions,
): Promise<T> {
  const maxDelayMs = options.maxDelayMs ?? 10_000;
  let delayMs = options.firstDelayMs ?? 500;
  for (let n = 1; ; n += 1) {
    try {
      const value = await attempt();
      if (n > 1) options.logger.info(`${what} reached; starting`, { attempt: n });
      return value;
    } catch (err) {
      if (!options.isTransient(err)) throw err;
      options.onFailure?.(err);
      options.logger.warn(`${what} cannot be reached; retrying`, {
        attempt: n,
        retry_in_ms: delayMs,
        error: err instanceof Error ? err.message : String(err),
      });
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      delayMs = Math.min(delayMs * 2, maxDelayMs);
    }
  }
}
