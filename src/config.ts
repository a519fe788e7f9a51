import type { LogLevel } from "./lib/logger.js";
import type { RateLimitRule } from "./http/middleware/rate-limit.js";
import type { DeliveryLogConfig } from "./domain/deliveries/types.js";
import type { WebhookRateRule } from "./domain/webhooks/rate-limit.js";
import type { LoadedIntegration } from "./domain/webhooks/webhook-service.js";

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
  /** Bearer token that may read GET /metrics from any address (default: loopback clients only). */
  metricsToken?: string | undefined;
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
  /** The bytes of one user's uploads together, in MiB (`--max-upload-storage-per-user`); 0 or absent: no cap. */
  maxUploadStoragePerUserMib?: number | undefined;
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
    /** Queues per user (`--max-queues-per-user`); one more discards the least recently used. 0 or absent: no cap. */
    maxQueuesPerUser?: number | undefined;
  };
  /** Outgoing webhooks and embedded bots (src/domain/outgoing). */
  outgoingWebhooks: OutgoingWebhookConfig;
  /** Active bots one user may own (`--max-bots-per-user`, default 100); 0 or absent: no cap. */
  maxBotsPerUser?: number | undefined;
  /**
   * Integrations loaded from outside the repository (`--integrations-path`; src/tools/external-integrations.ts),
   * each with the folder of its doc.md and fixtures.
   */
  externalIntegrations?: readonly LoadedIntegration[] | undefined;
  /** Internal targets outgoing requests may reach, `HOST_OR_CIDR[:PORT]` (`--outgoing-webhook-allow`; src/domain/egress). */
  outgoingWebhookAllow?: string[] | undefined;
  /** Protection against slow or greedy clients (docs/reliability.md). */
  limits: ConnectionLimits;
  /** Per-bot incoming-webhook limit (`--webhook-rate-limit`); absent or null: none (docs/integration-operations.md). */
  webhookRateLimit?: WebhookRateRule | null | undefined;
  /** The webhook delivery log's retention and sizes; absent: the defaults (docs/integration-operations.md). */
  deliveryLog?: Partial<DeliveryLogConfig> | undefined;
  /** How long PostgreSQL and Redis may take before a request gives up with a 503 (docs/reliability.md). */
  backendTimeouts?: Partial<BackendTimeouts> | undefined;
}

/** Timeouts towards PostgreSQL and Redis: an unreachable backend is a fast 503, never a hung request. */
export interface BackendTimeouts {
  /** Opening a PostgreSQL connection, or waiting for one of the pool's (pg's connectionTimeoutMillis). */
  databaseConnectMs: number;
  /** PostgreSQL's statement_timeout; the client abandons a statement unanswered 1 s after it (query_timeout). */
  databaseStatementMs: number;
  /** Opening a Redis connection (ioredis connectTimeout). */
  redisConnectMs: number;
  /** A Redis command unanswered this long fails (RedisCommandTimeoutError, redis/connection.ts). */
  redisCommandMs: number;
}

export const DEFAULT_BACKEND_TIMEOUTS: BackendTimeouts = {
  databaseConnectMs: 5000,
  databaseStatementMs: 5000,
  redisConnectMs: 3000,
  redisCommandMs: 2000,
};

/** The configured timeouts, defaults filled in. */
export function backendTimeoutsOf(config: Pick<ServerConfig, "backendTimeouts">): BackendTimeouts {
  return { ...DEFAULT_BACKEND_TIMEOUTS, ...config.backendTimeouts };
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
  /**
   * A job claimed for an attempt stays invisible to other workers for `timeoutSeconds` plus this
   * (default 30 s, `--outgoing-webhook-lease-grace`): the job of a process killed during an
   * attempt is due again, for the process restarted or another one, once its lease has run out.
   */
  leaseGraceMs: number;
  /**
   * Attempts on timeouts, connection errors and 429/503 answers before the delivery is parked as
   * dead (`--outgoing-webhook-max-attempts`; default 8: the first and the 7 retries of the schedule).
   */
  maxAttempts: number;
  /**
   * The delay before each retry: the first retry waits `retryScheduleMs[0]`, the n-th
   * `retryScheduleMs[n-1]` (the last entry repeats). Default 5 s, 5 min, 30 min, 2 h, 5 h, 10 h,
   * 10 h: about 27.6 hours from the first attempt to the last (`--outgoing-webhook-retry-schedule`).
   */
  retryScheduleMs: readonly number[];
  /** Each delay is spread by up to ± this fraction at random (default 0.2), so retries do not arrive in step. */
  retryJitter: number;
  /** A `Retry-After` on 429/503 is honoured up to this long (default 1 hour); longer is cut to it. */
  retryAfterMaxMs: number;
  /** A job older than this is not retried any more (default 3 days). */
  maxAgeMs: number;
  /** Consecutive failed attempts (timeouts, connection errors, 5xx) that open an endpoint's circuit (default 5). */
  circuitBreakerThreshold: number;
  /** While an endpoint's circuit is open, one delivery probes it this often (default 60 s); the rest wait. */
  circuitProbeIntervalMs: number;
  /** An endpoint failing without a success for this long is disabled until its owner re-enables it (default 5 days). */
  disableAfterMs: number;
  /** Dead deliveries of one bot within this window are summarised to its owner in one message (default 5 min). */
  deadNoticeWindowMs: number;
  /** An answer's body is read up to this many bytes; a larger one fails the attempt (`--outgoing-webhook-max-response-kb`). */
  maxResponseBytes: number;
  /** How often the worker looks for due jobs (retries, jobs left by a previous run); 0 = never by itself. */
  pollIntervalMs: number;
}

/** The default delays between outgoing-webhook attempts (Svix's schedule, without its first 5 s). */
export const DEFAULT_RETRY_SCHEDULE_MS: readonly number[] = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3600_000,
  5 * 3600_000,
  10 * 3600_000,
  10 * 3600_000,
];

export const ZULIP_VERSION = "11.0";
export const ZULIP_FEATURE_LEVEL = 421;

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
    maxUploadStoragePerUserMib: 1024,
    maxBotsPerUser: 100,
    logLevel: "info",
    zulipVersion: ZULIP_VERSION,
    zulipFeatureLevel: ZULIP_FEATURE_LEVEL,
    events: {
      heartbeatSeconds: 50,
      queueTimeoutSeconds: 600,
      gcIntervalSeconds: 60,
      maxQueueEvents: 10000,
      maxQueuesPerUser: 50,
    },
    limits: {
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 60_000,
      keepAliveTimeoutMs: 65_000,
      maxPublicRequestsPerIp: 256,
    },
    outgoingWebhooks: {
      timeoutSeconds: 10,
      leaseGraceMs: 30_000,
      maxAttempts: 8,
      retryScheduleMs: DEFAULT_RETRY_SCHEDULE_MS,
      retryJitter: 0.2,
      retryAfterMaxMs: 60 * 60 * 1000,
      maxAgeMs: 3 * 24 * 60 * 60 * 1000,
      circuitBreakerThreshold: 5,
      circuitProbeIntervalMs: 60_000,
      disableAfterMs: 5 * 24 * 60 * 60 * 1000,
      deadNoticeWindowMs: 5 * 60 * 1000,
      maxResponseBytes: 1024 * 1024,
      pollIntervalMs: 500,
    },
    ...overrides,
  };
}
