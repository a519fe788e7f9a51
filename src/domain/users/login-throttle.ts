import { RateLimitedError } from "../../errors.js";
import type { Clock } from "../../clock.js";
import { memoryFailureLog } from "../../infra/failure-log.js";
import type { FailureLog } from "../../infra/failure-log.js";

/**
 * A sliding log of failures per key; at `max` failures within the window further attempts are
 * refused. The log is this process's, or Redis's with `--redis` (every process counts the same
 * failures); `scope` keeps the keys of different throttles apart in a shared log.
 */
export class FailureThrottle {
  constructor(
    private readonly clock: Clock,
    private readonly max: number,
    private readonly windowMs: number,
    private readonly scope: string,
    private readonly log: FailureLog = memoryFailureLog(),
    /** Retry-After in whole seconds (rounded up) rather than fractional ones. */
    private readonly wholeSeconds = false,
  ) {}

  /** Throws 429 RATE_LIMIT_HIT (with Retry-After) when `key` has too many recent failures. */
  async check(key: string): Promise<void> {
    const now = this.clock.now();
    const recent = await this.log.recent(`${this.scope}:${key}`, now, this.windowMs);
    const oldest = recent[0];
    if (recent.length >= this.max && oldest !== undefined) {
      const seconds = Math.max(0, (oldest + this.windowMs - now) / 1000);
      throw new RateLimitedError(this.wholeSeconds ? Math.ceil(seconds) : seconds);
    }
  }

  async fail(key: string): Promise<void> {
    await this.log.add(`${this.scope}:${key}`, this.clock.now(), this.windowMs, this.max);
  }

  async succeed(key: string): Promise<void> {
    await this.log.clear(`${this.scope}:${key}`);
  }
}

/**
 * Failed sign-ins (`fetch_api_key`): 5 per username in 30 minutes (Zulip's authenticate_by_username
 * limit) and 50 per client IP in 30 minutes, whichever is hit first.
 */
export class LoginThrottle {
  private readonly byUser: FailureThrottle;
  private readonly byIp: FailureThrottle;
  constructor(clock: Clock, log: FailureLog = memoryFailureLog()) {
    this.byUser = new FailureThrottle(clock, 5, 30 * 60 * 1000, "login-user", log);
    this.byIp = new FailureThrottle(clock, 50, 30 * 60 * 1000, "login-ip", log);
  }
  async check(username: string, ip: string | undefined): Promise<void> {
    await this.byUser.check(username);
    if (ip !== undefined) await this.byIp.check(ip);
  }
  async fail(username: string, ip: string | undefined): Promise<void> {
    await this.byUser.fail(username);
    if (ip !== undefined) await this.byIp.fail(ip);
  }
  async succeed(username: string): Promise<void> {
    await this.byUser.succeed(username);
  }
}
