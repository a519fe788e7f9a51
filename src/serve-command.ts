import type { LoadedIntegration } from "./domain/webhooks/webhook-service.js";
import cluster from "node:cluster";
import v8 from "node:v8";
import type { RunningBotServer } from "../bots/server/index.js";
import { reportWorkerReady, runPrimary, workersProblem } from "./cluster.js";
import { YOUNG_GENERATION_FLAG, youngGenerationChosen } from "./lib/young-generation.js";
import { defaultConfig } from "./config.js";
import type { ServerConfig } from "./config.js";
import { parseRetrySchedule } from "./domain/outgoing/retry-schedule.js";
import { parseWebhookRateRule } from "./domain/webhooks/rate-limit.js";
import { redactRedisUrl } from "./infra/redis/connection.js";
import type { LogLevel } from "./lib/logger.js";
import { createLogger } from "./lib/logger.js";
import { startServer } from "./server.js";
import { otlpTracesUrl, startTracing, stopTracing } from "./lib/tracing.js";

/* eslint-disable no-console -- the serve command talks to the terminal */

/** A database URL without its password, for logs. */
function redactUrl(url: string): string {
  return url.replace(/^([a-z]+:\/\/[^:/@]+):[^@/]*@/i, "$1:***@");
}

function parseRateLimit(value: string): ServerConfig["rateLimit"] {
  if (value === "off") return null;
  const m = /^(\d+)\/(\d+)$/.exec(value);
  if (!m) throw new Error(`--rate-limit must be N/SECONDS (e.g. 200/60) or "off", not '${value}'`);
  return { maxRequests: Number(m[1]), windowSeconds: Number(m[2]) };
}

/**
 * The allow rules for the bot server this process runs itself (`--botserver-config`): its
 * address and port, or loopback on its port when it listens on every interface.
 */
function ownBotServer(argv: {
  botserverConfig: string | undefined;
  botserverHost: string;
  botserverPort: number;
}): string[] {
  if (argv.botserverConfig === undefined) return [];
  const port = argv.botserverPort;
  if (argv.botserverHost === "0.0.0.0" || argv.botserverHost === "::") {
    return [`127.0.0.0/8:${port}`, `[::1]:${port}`, `localhost:${port}`];
  }
  const host = argv.botserverHost.includes(":") ? `[${argv.botserverHost}]` : argv.botserverHost;
  return [`${host}:${port}`, ...(argv.botserverHost === "localhost" ? [] : [`localhost:${port}`])];
}

/** `chat-server serve`: the chat server (or N workers), and the bot server beside it if asked. */
export async function serve(argv: {
  host: string;
  port: number;
  dataDir: string;
  database: string | undefined;
  externalUrl: string | undefined;
  ownerEmail: string;
  ownerName: string;
  ownerPassword: string | undefined;
  realmName: string;
  botDomain: string | undefined;
  rateLimit: string;
  logLevel: string;
  botserverConfig: string | undefined;
  botserverHost: string;
  botserverPort: number;
  outgoingWebhookTimeout: number;
  outgoingWebhookLeaseGrace: number;
  outgoingWebhookMaxAttempts: number;
  outgoingWebhookRetrySchedule: string;
  outgoingWebhookRetryJitter: number;
  outgoingWebhookCircuitThreshold: number;
  outgoingWebhookProbeInterval: number;
  outgoingWebhookDisableAfterDays: number;
  outgoingWebhookAllow: string[];
  maxBotsPerUser: number;
  integrationsPath: string[];
  outgoingWebhookMaxResponseKb: number;
  headersTimeout: number;
  requestTimeout: number;
  keepAliveTimeout: number;
  maxPublicRequestsPerIp: number;
  maxQueuesPerUser: number;
  redis: string | undefined;
  redisPrefix: string;
  databaseConnectTimeout: number;
  databaseStatementTimeout: number;
  redisConnectTimeout: number;
  redisCommandTimeout: number;
  metricsToken: string | undefined;
  workers: number;
  maxFileUploadMb: number;
  maxUploadStoragePerUser: number;
  webhookRateLimit: string;
  deliveryLog: boolean;
  deliveryLogPerBot: number;
  deliveryLogDays: number;
  deliveryLogBodyKb: number;
}): Promise<void> {
  const problem = workersProblem({
    workers: argv.workers,
    databaseUrl: argv.database,
    redisUrl: argv.redis,
    botserverConfig: argv.botserverConfig,
  });
  if (problem !== undefined) throw new Error(problem);
  if (argv.workers > 1 && cluster.isPrimary) {
    const url = await runPrimary(argv.workers, createLogger(argv.logLevel as LogLevel));
    console.log(`Chat server: ${argv.workers} workers serving ${url}`);
    return;
  }
  const base = defaultConfig({ host: argv.host, port: argv.port });
  const config: ServerConfig = {
    ...base,
    dataDir: argv.dataDir,
    databaseUrl: argv.database,
    redisUrl: argv.redis,
    redisPrefix: argv.redisPrefix,
    metricsToken: argv.metricsToken,
    externalUrl: argv.externalUrl ?? base.externalUrl,
    ownerEmail: argv.ownerEmail,
    ownerName: argv.ownerName,
    realmName: argv.realmName,
    botDomain: argv.botDomain ?? argv.ownerEmail.split("@")[1] ?? "example.com",
    rateLimit: parseRateLimit(argv.rateLimit),
    events: { ...base.events, maxQueuesPerUser: argv.maxQueuesPerUser },
    maxFileUploadMib: argv.maxFileUploadMb,
    maxUploadStoragePerUserMib: argv.maxUploadStoragePerUser,
    webhookRateLimit: parseWebhookRateRule(argv.webhookRateLimit),
    deliveryLog: {
      enabled: argv.deliveryLog,
      maxPerBot: argv.deliveryLogPerBot,
      maxAgeMs: argv.deliveryLogDays * 24 * 3600 * 1000,
      maxBodyBytes: argv.deliveryLogBodyKb * 1024,
    },
    logLevel: argv.logLevel as LogLevel,
    outgoingWebhooks: {
      ...base.outgoingWebhooks,
      timeoutSeconds: argv.outgoingWebhookTimeout,
      leaseGraceMs: argv.outgoingWebhookLeaseGrace * 1000,
      maxAttempts: argv.outgoingWebhookMaxAttempts,
      retryScheduleMs: parseRetrySchedule(argv.outgoingWebhookRetrySchedule),
      retryJitter: argv.outgoingWebhookRetryJitter,
      circuitBreakerThreshold: argv.outgoingWebhookCircuitThreshold,
      circuitProbeIntervalMs: argv.outgoingWebhookProbeInterval * 1000,
      disableAfterMs: argv.outgoingWebhookDisableAfterDays * 24 * 3600 * 1000,
      maxResponseBytes: argv.outgoingWebhookMaxResponseKb * 1024,
    },
    backendTimeouts: {
      databaseConnectMs: argv.databaseConnectTimeout * 1000,
      databaseStatementMs: argv.databaseStatementTimeout * 1000,
      redisConnectMs: argv.redisConnectTimeout * 1000,
      redisCommandMs: argv.redisCommandTimeout * 1000,
    },
    outgoingWebhookAllow: [...argv.outgoingWebhookAllow, ...ownBotServer(argv)],
    maxBotsPerUser: argv.maxBotsPerUser,
    externalIntegrations: await externalIntegrations(argv.integrationsPath),
    limits: {
      headersTimeoutMs: argv.headersTimeout * 1000,
      requestTimeoutMs: argv.requestTimeout * 1000,
      keepAliveTimeoutMs: argv.keepAliveTimeout * 1000,
      maxPublicRequestsPerIp: argv.maxPublicRequestsPerIp,
    },
  };
  const logger = createLogger(config.logLevel);
  // OpenTelemetry traces over OTLP when OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT is set (docs/deploy.md).
  if (await startTracing("chat-server")) logger.info("exporting traces", { url: otlpTracesUrl() });
  if (cluster.isPrimary && !youngGenerationChosen()) {
    logger.info(
      `V8's young generation has Node's default size; NODE_OPTIONS=${YOUNG_GENERATION_FLAG} (what npm start passes) serves more requests per CPU under load (docs/performance.md)`,
    );
  }
  const running = await startServer(config, { logger, ownerPassword: argv.ownerPassword });
  // bin/chat-server.js keeps V8's young generation from growing while the modules load and the
  // store opens (long-lived objects, which would leave ~16 MB of semi-space resident at rest);
  // serving lets it grow again as V8's default does (factor 2), for throughput under load.
  if (process.env["CHAT_SERVER_YOUNG_GROWTH_HELD"] === "1")
    v8.setFlagsFromString("--semi-space-growth-factor=2");
  if (running.firstStart) {
    const { owner, generatedPassword, zuliprcPath } = running.firstStart;
    console.log(`Created the organization "${config.realmName}" and its owner ${owner.email}.`);
    if (generatedPassword !== undefined) console.log(`Owner password (shown once): ${generatedPassword}`);
    if (zuliprcPath !== undefined) console.log(`Wrote ${zuliprcPath} (the owner's API credentials).`);
  }
  console.log(
    `Chat server listening on ${running.url} (site ${config.externalUrl}, store ${config.databaseUrl === undefined ? config.dataDir : redactUrl(config.databaseUrl)}${config.redisUrl === undefined ? "" : `, redis ${redactRedisUrl(config.redisUrl)}`})`,
  );
  if ((config.outgoingWebhookAllow ?? []).length === 0) {
    console.log(
      "Outgoing webhooks reach public addresses only; allow a bot server on this machine with --outgoing-webhook-allow 127.0.0.1:5002",
    );
  }
  reportWorkerReady(running.url);
  // The bot server in the same process: started once the chat server listens, so its start-up
  // checks (GET server_settings, users/me for each bot) can reach it.
  let botServer: RunningBotServer | undefined;
  if (argv.botserverConfig !== undefined) {
    try {
      // Loaded only when asked for: a chat server alone does not pay for the bot server's modules.
      const { loadBotServerConfig, startBotServer, stderrLogger } = await import("../bots/server/index.js");
      const bots = loadBotServerConfig({
        configFile: argv.botserverConfig,
        onWarning: (message) => logger.warn(message),
      });
      botServer = await startBotServer({
        config: bots,
        hostname: argv.botserverHost,
        port: argv.botserverPort,
        logger: stderrLogger,
      });
    } catch (err) {
      await running.close();
      throw new Error(
        `Bot server (${argv.botserverConfig}): ${err instanceof Error ? err.message : String(err)}`,
        {
          cause: err,
        },
      );
    }
    console.log(
      `Bot server listening on ${botServer.url} (bots: ${botServer.bots.map((b) => b.name).join(", ") || "none"}; config ${argv.botserverConfig})`,
    );
  }
  const stop = (signal: string): void => {
    logger.info(`received ${signal}, shutting down`);
    (botServer?.close() ?? Promise.resolve())
      .then(() => running.close())
      .then(() => stopTracing())
      .then(
        () => process.exit(0),
        (err: unknown) => {
          logger.error("shutdown failed", { error: err as Error });
          process.exit(1);
        },
      );
  };
  process.once("SIGINT", () => stop("SIGINT"));
  process.once("SIGTERM", () => stop("SIGTERM"));
}

/** `--integrations-path`: integrations written outside the repository, loaded before the server starts. */
async function externalIntegrations(targets: readonly string[]): Promise<LoadedIntegration[]> {
  if (targets.length === 0) return [];
  const { loadExternalIntegrations } = await import("./tools/external-integrations.js");
  const { integrations } = await import("../integrations/index.js");
  const loaded = await loadExternalIntegrations(targets, integrations);
  for (const { integration, folder } of loaded) {
    console.log(`Loaded the integration ${integration.name} (${integration.displayName}) from ${folder}`);
  }
  return loaded;
}
