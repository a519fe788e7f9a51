import type { LogLevel } from "./logger.js";
import type { RateLimitRule } from "./http/middleware/rate-limit.js";
import type { DeliveryLogConfig } from "./domain/deliveries/types.js";
import type { WebhookRateRule } from "./domain/webhooks/rate-limit.js";

/** Everything the server is configured with; built by the CLI from flags and environment. */
export interface ServerConfig {
  host: string;
  port: number;
  /** Folder of the SQLite store and the zuliprc written on first start (":memory:" in tests). */
  dataDir: string;
  /** postgres://… or sqlite:PATH; default: SQLite in dataDir. */
  databaseUrl: string | undefined;
  /** redis://…: event queues, rate limits and invalidations shared by every process (docs/deploy.md). */
  redisUrl?: string | undefined;
  /** Prefix of every Redis key and channel (one deployment per prefix); default "chat:". */
  redisPrefix?: string | undefined;
  /** The URL clients use (realm_uri, zuliprc `site`). */
  externalUrl: string;
  realmName: string;
  realmStringId: string;
  ownerEmail: string;
  ownerName: string;
  /** Domain of bot emails (`{short_name}-bot@{botDomain}`). */
  botDomain: string;
  rateLimit: RateLimitRule | null;
  bodyLimitBytes: number;
  /** Largest file POST /user_uploads takes, in MiB (register's max_file_upload_size_mib). */
  maxFileUploadMib: number;
  /** Folder of uploaded files; default `<dataDir>/uploads` (a temporary folder for ":memory:"). */
  uploadsDir?: string | undefined;
  logLevel: LogLevel;
  /** Version strings reported to clients. */
  zulipVersion: string;
  zulipFeatureLevel: number;
  /** Event queues: Zulip's constants by default; tests shorten them. */
  events: {
    heartbeatSeconds: number;
    queueTimeoutSeconds: number;
    gcIntervalSeconds: number;
    maxQueueEvents: number;
  };
  /** Outgoing webhooks and embedded bots (src/domain/outgoing). */
  outgoingWebhooks: OutgoingWebhookConfig;
  /** Protection against slow or greedy clients (docs/reliability.md). */
  limits: ConnectionLimits;
  /** Per-bot incoming-webhook limit (`--webhook-rate-limit`); absent or null: none (docs/integration-operations.md). */
  webhookRateLimit?: WebhookRateRule | null | undefined;
  /** The webhook delivery log's retention and sizes; absent: the defaults (docs/integration-operations.md). */
  deliveryLog?: Partial<DeliveryLogConfig> | undefined;
}

export interface ConnectionLimits {
  /** A client must send all request headers within this time (Node's server.headersTimeout). */
  headersTimeoutMs: number;
  /** A client must send the whole request, body included, within this time (server.requestTimeout). */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this time. */
  keepAliveTimeoutMs: number;
  /** Requests one IP may have in flight on routes without Basic auth (0 = no cap); more get 429. */
  maxPublicRequestsPerIp: number;
}

export interface OutgoingWebhookConfig {
  /** Per-request timeout (Zulip's OUTGOING_WEBHOOK_TIMEOUT_SECONDS, default 10). */
  timeoutSeconds: number;
  /** Attempts on timeouts and connection errors before giving up (Zulip: 4, one plus 3 retries). */
  maxAttempts: number;
  /** Delay before the first retry; doubles with each further attempt (1 s, 2 s, 4 s, …). */
  retryDelayMs: number;
  retryMaxDelayMs: number;
  /** A job older than this is not retried any more. */
  maxAgeMs: number;
  /** How often the worker looks for due jobs (retries, jobs left by a previous run); 0 = never by itself. */
  pollIntervalMs: number;
}

export const ZULIP_VERSION = "6.0";
export const ZULIP_FEATURE_LEVEL = 153;

export function defaultConfig(overrides: Partial<ServerConfig> = {}): ServerConfig {
  const host = overrides.host ?? "127.0.0.1";
  const port = overrides.port ?? 9991;
  return {
    host,
    port,
    dataDir: "data",
    databaseUrl: undefined,
    externalUrl: `http://${host === "0.0.0.0" ? "127.0.0.1" : host}:${port}`,
    realmName: "Zulip-compatible chat",
    realmStringId: "",
    ownerEmail: "owner@example.com",
    ownerName: "Organization Owner",
    botDomain: "example.com",
    rateLimit: { windowSeconds: 60, maxRequests: 200 },
    bodyLimitBytes: 25 * 1024 * 1024,
    maxFileUploadMib: 25,
    logLevel: "info",
    zulipVersion: ZULIP_VERSION,
    zulipFeatureLevel: ZULIP_FEATURE_LEVEL,
    events: { heartbeatSeconds: 50, queueTimeoutSeconds: 600, gcIntervalSeconds: 60, maxQueueEvents: 10000 },
    limits: {
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 60_000,
      keepAliveTimeoutMs: 65_000,
      maxPublicRequestsPerIp: 256,
    },
    outgoingWebhooks: {
      timeoutSeconds: 10,
      maxAttempts: 4,
      retryDelayMs: 1000,
      retryMaxDelayMs: 60_000,
      maxAgeMs: 60 * 60 * 1000,
      pollIntervalMs: 500,
    },
    ...overrides,
  };
}
