/** When an outgoing-webhook delivery is tried again: the configured schedule, jitter and Retry-After. */

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** An invalid `--outgoing-webhook-retry-schedule`. */
export class RetryScheduleError extends Error {
  override readonly name = "RetryScheduleError";
}

/** `"5s,5m,30m,2h"` → milliseconds; a bare number is seconds. */
export function parseRetrySchedule(text: string): number[] {
  const delays = text.split(",").map((part) => {
    const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/.exec(part);
    if (m === null) throw new RetryScheduleError(`Invalid retry delay '${part.trim()}' (use 5s, 5m, 2h, 1d)`);
    return Math.round(Number(m[1]) * (UNIT_MS[m[2] ?? "s"] ?? 1000));
  });
  if (delays.length === 0) throw new RetryScheduleError("The retry schedule is empty");
  return delays;
}

/**
 * The delay before the next attempt, once `attemptsSoFar` attempts were made (1 after the first):
 * the schedule's entry for that retry (the last entry repeats), spread by ± `jitter` of itself.
 */
export function scheduledDelay(
  attemptsSoFar: number,
  schedule: readonly number[],
  jitter: number,
  random: () => number = Math.random,
): number {
  const base = schedule[Math.min(Math.max(attemptsSoFar - 1, 0), schedule.length - 1)] ?? 0;
  if (jitter <= 0) return base;
  return Math.max(0, Math.round(base * (1 + jitter * (random() * 2 - 1))));
}

/**
 * A `Retry-After` header's wait in milliseconds: delay-seconds (`120`) or an HTTP-date
 * (`Wed, 21 Oct 2026 07:28:00 GMT`, relative to `nowMs`), capped at `capMs`; undefined when absent
 * or unreadable. A date in the past is 0.
 */
export function retryAfterMs(
  header: string | string[] | undefined,
  nowMs: number,
  capMs: number,
): number | undefined {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  if (value === undefined || value === "") return undefined;
  let ms: number;
  if (/^\d+$/.test(value)) {
    ms = Number(value) * 1000;
  } else {
    const at = Date.parse(value);
    if (Number.isNaN(at) || !/[A-Za-z]/.test(value)) return undefined;
    ms = Math.max(0, at - nowMs);
  }
  return Math.min(ms, capMs);
}
