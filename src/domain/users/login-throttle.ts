import { RateLimitedError } from "../../errors.js";
import type { Clock } from "../../clock.js";

/** A sliding log of failures per key; at `max` failures within the window further attempts are refused. */
export class FailureThrottle {
  private readonly failures = new Map<string, number[]>();
  constructor(
    private readonly clock: Clock,
    private readonly max: number,
    private readonly windowMs: number,
    /** Keys tracked at most; beyond it the oldest entries are dropped (bounded memory under attack). */
    private readonly maxKeys = 100_000,
  ) {}

  /** Throws 429 RATE_LIMIT_HIT (with Retry-After) when `key` has too many recent failures. */
  check(key: string): void {
    const now = this.clock.now();
    const recent = (this.failures.get(key) ?? []).filter((t) => now - t < this.windowMs);
    if (recent.length === 0) {
      this.failures.delete(key);
      return;
    }
    this.failures.set(key, recent);
    const oldest = recent[0];
    if (recent.length >= this.max && oldest !== undefined) {
      throw new RateLimitedError(Math.max(0, (oldest + this.windowMs - now) / 1000));
    }
  }

  fail(key: string): void {
    const list = this.failures.get(key) ?? [];
    list.push(this.clock.now());
    if (list.length > this.max) list.shift();
    this.failures.delete(key);
    this.failures.set(key, list);
    if (this.failures.size > this.maxKeys) {
      const first = this.failures.keys().next();
      if (first.done !== true) this.failures.delete(first.value);
    }
  }

  succeed(key: string): void {
    this.failures.delete(key);
  }
}

/**
 * Failed sign-ins (`fetch_api_key`): 5 per username in 30 minutes (Zulip's authenticate_by_username
 * limit) and 50 per client IP in 30 minutes, whichever is hit first.
 */
export class LoginThrottle {
  private readonly byUser: FailureThrottle;
  private readonly byIp: FailureThrottle;
  constructor(clock: Clock) {
    this.byUser = new FailureThrottle(clock, 5, 30 * 60 * 1000);
    this.byIp = new FailureThrottle(clock, 50, 30 * 60 * 1000);
  }
  check(username: string, ip: string | undefined): void {
    this.byUser.check(username);
    if (ip !== undefined) this.byIp.check(ip);
  }
  fail(username: string, ip: string | undefined): void {
    this.byUser.fail(username);
    if (ip !== undefined) this.byIp.fail(ip);
  }
  succeed(username: string): void {
    this.byUser.succeed(username);
  }
}
