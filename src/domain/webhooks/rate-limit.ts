import type { Clock } from "../../clock.js";
import { RateLimitedError } from "../../errors.js";
import { memoryTokenBuckets } from "../../infra/token-buckets.js";
import type { TokenBuckets } from "../../infra/token-buckets.js";

/** `count` requests per `seconds`, as a token bucket: a burst of `count`, refilled at count/seconds per second. */
export interface WebhookRateRule {
  count: number;
  seconds: number;
}

/** The bot config_data key that overrides the server's default (`N/SECONDS` or `off`). */
export const RATE_LIMIT_KEY = "webhook_rate_limit";

/** Parses `N/SECONDS` (N ≥ 1, SECONDS ≥ 1) or `off` (null); throws on anything else. */
export function parseWebhookRateRule(value: string, what = "--webhook-rate-limit"): WebhookRateRule | null {
  const v = value.trim();
  if (v === "off") return null;
  const m = /^(\d+)\/(\d+)$/.exec(v);
  if (m === null || Number(m[1]) < 1 || Number(m[2]) < 1) {
    throw new Error(`${what} must be N/SECONDS (e.g. 60/60) or "off", not '${value}'`);
  }
  return { count: Number(m[1]), seconds: Number(m[2]) };
}

/** 429 RATE_LIMIT_HIT as the API limiter answers it, with the X-RateLimit-* headers of the webhook's bucket. */
export class WebhookRateLimitedError extends RateLimitedError {
  constructor(
    retryAfterSeconds: number,
    private readonly limit: number,
    private readonly resetAt: number,
  ) {
    super(retryAfterSeconds);
  }
  override headers(): Record<string, string> {
    return {
      ...super.headers(),
      "X-RateLimit-Limit": String(this.limit),
      "X-RateLimit-Remaining": "0",
      "X-RateLimit-Reset": String(this.resetAt),
    };
  }
}

/** How long a bot's rule (read from its config_data) is trusted before it is read again. */
const RULE_TTL_MS = 5_000;

/**
 * Per-bot token buckets for incoming webhooks. The rule is the bot's `webhook_rate_limit`
 * config entry when it has one (re-read every few seconds), else the server's default.
 */
export class WebhookRateLimiter {
  private readonly rules = new Map<number, { rule: WebhookRateRule | null; untilMs: number }>();

  constructor(
    private readonly defaultRule: WebhookRateRule | null,
    private readonly clock: Clock,
    private readonly configOf: (botId: number) => Promise<Readonly<Record<string, string>>>,
    /** The buckets: this process's, or shared by every process with `--redis` (src/infra). */
    private readonly buckets: TokenBuckets = memoryTokenBuckets(),
  ) {}

  /** Takes one token for the bot, or throws WebhookRateLimitedError. */
  async take(botId: number): Promise<void> {
    const rule = await this.ruleOf(botId);
    if (rule === null) return;
    const now = this.clock.now();
    const taken = await this.buckets.take(`webhook:${botId}`, now, rule.count, rule.seconds * 1000);
    if (taken.ok) return;
    throw new WebhookRateLimitedError(
      taken.waitMs / 1000,
      rule.count,
      Math.ceil((now + taken.fullMs) / 1000),
    );
  }

  private async ruleOf(botId: number): Promise<WebhookRateRule | null> {
    const now = this.clock.now();
    const cached = this.rules.get(botId);
    if (cached !== undefined && cached.untilMs > now) return cached.rule;
    const raw = (await this.configOf(botId))[RATE_LIMIT_KEY];
    let rule = this.defaultRule;
    if (raw !== undefined && raw !== "") {
      try {
        rule = parseWebhookRateRule(raw, `config_data["${RATE_LIMIT_KEY}"]`);
      } catch {
        rule = this.defaultRule;
      }
    }
    this.rules.set(botId, { rule, untilMs: now + RULE_TTL_MS });
    return rule;
  }
}
