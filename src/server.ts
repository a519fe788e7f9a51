import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { createApp } from "./app.js";
import type { Clock } from "./clock.js";
import { systemClock } from "./clock.js";
import type { ServerConfig } from "./config.js";
import { backendTimeoutsOf } from "./config.js";
import { generatePassword } from "./domain/users/secrets.js";
import type { User } from "./domain/users/types.js";
import type { Logger } from "./lib/logger.js";
import { createLogger } from "./lib/logger.js";
import type { Services } from "./services.js";
import { createServices } from "./services.js";
import { answerClientErrorsWithJson } from "./http/middleware/node-errors.js";
import {
  ensureSecretFile,
  secureDir,
  secureSqliteFiles,
  sqliteFileOf,
  writeSecretFile,
} from "./secure-files.js";
import { openStore } from "./store/open-store.js";
import type { Db, Queryable } from "./store/db.js";
import { connectRedis, isRedisUnreachable } from "./infra/redis/connection.js";
import { retryUntilReachable } from "./infra/retry-until-reachable.js";
import { isDatabaseConnectionError } from "./infra/unavailable.js";
import { answerWhileStarting } from "./http/starting.js";
import type { StartingState } from "./http/starting.js";
import type { RedisBackend } from "./infra/redis/connection.js";
import { redisSharedState } from "./infra/shared-state.js";
import { shareAuthInvalidation } from "./infra/redis/auth-invalidation.js";
import type { SharedState } from "./infra/shared-state.js";

export interface FirstStart {
  owner: User;
  /** Only when the password was generated (not given in the config). */
  generatedPassword: string | undefined;
  zuliprcPath: string | undefined;
}

export interface RunningServer {
  url: string;
  port: number;
  services: Services;
  /** The store the services use (tests and benchmarks read and seed it directly). */
  db: Db;
  server: http.Server;
  firstStart: FirstStart | undefined;
  close(): Promise<void>;
}

/** The standard zuliprc that curl users, zulip-js and the Python client read. */
export function zuliprcText(email: string, key: string, site: string): string {
  return `[api]\nemail=${email}\nkey=${key}\nsite=${site}\n`;
}

/** On an empty store: creates the organization and its owner, and writes <data-dir>/zuliprc (0600). */
export async function ensureRealm(
  services: Pick<Services, "users" | "streams">,
  db: Queryable,
  config: ServerConfig,
  ownerPassword: string | undefined,
): Promise<FirstStart | undefined> {
  const existing = await db.get<{ id: number }>("SELECT id FROM realms LIMIT 1");
  if (existing !== undefined) return undefined;
  // Make sure the zuliprc can be written before creating anything (with PostgreSQL the data dir
  // holds only the zuliprc and may not exist yet).
  if (config.dataDir !== ":memory:") secureDir(config.dataDir);
  const password = ownerPassword ?? generatePassword();
  const { owner } = await services.users.createRealm({
    stringId: config.realmStringId,
    name: config.realmName,
    description: "",
    ownerEmail: config.ownerEmail,
    ownerName: config.ownerName,
    ownerPassword: password,
  });
  await services.streams.ensureDefaultStreams();
  let zuliprcPath: string | undefined;
  if (config.dataDir !== ":memory:") {
    zuliprcPath = path.join(config.dataDir, "zuliprc");
    writeSecretFile(zuliprcPath, zuliprcText(owner.email, owner.apiKey, config.externalUrl));
  }
  return { owner, generatedPassword: ownerPassword === undefined ? password : undefined, zuliprcPath };
}

function listen(server: http.Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

/**
 * Binds the port, then opens the store and bootstraps the realm on first start, then serves.
 * The only place that listens. Binding first means a busy port fails before anything is created
 * (no organization whose generated password was never shown, no zuliprc naming the wrong port),
 * and the zuliprc written on first start names the port actually bound.
 */
export async function startServer(
  config: ServerConfig,
  opts: { clock?: Clock; logger?: Logger; ownerPassword?: string | undefined } = {},
): Promise<RunningServer> {
  const logger = opts.logger ?? createLogger(config.logLevel);
  const clock = opts.clock ?? systemClock;
  const server = http.createServer({
    headersTimeout: config.limits.headersTimeoutMs,
    requestTimeout: config.limits.requestTimeoutMs,
    // How often Node enforces the two timeouts above (default 30 s would stretch them).
    connectionsCheckingInterval: Math.min(1000, config.limits.headersTimeoutMs),
  });
  server.keepAliveTimeout = config.limits.keepAliveTimeoutMs;
  answerClientErrorsWithJson(server);
  // Requests that arrive while the store opens wait for the app; /health and /ready answer at once,
  // and while PostgreSQL or Redis cannot be reached the others get a 503 (src/http/starting.ts).
  const app: { handle?: (req: http.IncomingMessage, res: http.ServerResponse) => void } = {};
  const waiting: [http.IncomingMessage, http.ServerResponse][] = [];
  const starting: StartingState = { waitingFor: undefined };
  server.on("request", (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (app.handle !== undefined) app.handle(req, res);
    else if (!answerWhileStarting(req, res, starting)) waiting.push([req, res]);
  });
  const unreachable = (backend: "database" | "redis") => (): void => {
    starting.waitingFor = backend;
    for (const [req, res] of waiting.splice(0)) answerWhileStarting(req, res, starting);
  };
  await listen(server, config.port, config.host);

  const port = (server.address() as AddressInfo).port;
  const url = `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${port}`;
  // Listening on port 0 (tests): the URL clients use is only known now.
  if (config.port === 0 && config.externalUrl.endsWith(":0")) config.externalUrl = url;

  let db: Awaited<ReturnType<typeof openStore>> | undefined;
  let redis: RedisBackend | undefined;
  let shared: SharedState = {};
  let stopSharing: (() => void) | undefined;
  let services: Services;
  let firstStart: FirstStart | undefined;
  const sqliteFile = sqliteFileOf(config.databaseUrl, config.dataDir);
  try {
    if (sqliteFile !== undefined) {
      if (config.databaseUrl === undefined || config.databaseUrl === "") secureDir(config.dataDir);
      ensureSecretFile(sqliteFile);
      secureSqliteFiles(sqliteFile);
    }
    // Started during an outage: wait for PostgreSQL and Redis (docs/reliability.md), never exit.
    const timeouts = backendTimeoutsOf(config);
    db = await retryUntilReachable(
      "the database",
      () =>
        openStore({
          databaseUrl: config.databaseUrl,
          dataDir: config.dataDir,
          timeouts: {
            connectTimeoutMs: timeouts.databaseConnectMs,
            statementTimeoutMs: timeouts.databaseStatementMs,
          },
        }),
      { logger, isTransient: isDatabaseConnectionError, onFailure: unreachable("database") },
    );
    starting.waitingFor = undefined;
    const redisUrl = config.redisUrl;
    if (redisUrl !== undefined) {
      [redis, shared] = await retryUntilReachable(
        "Redis",
        async () => {
          const backend = await connectRedis(redisUrl, logger, config.redisPrefix, {
            connectTimeoutMs: timeouts.redisConnectMs,
            commandTimeoutMs: timeouts.redisCommandMs,
          });
          try {
            return [backend, await redisSharedState(backend, config, logger)] as const;
          } catch (err) {
            await backend.close();
            throw err;
          }
        },
        { logger, isTransient: isRedisUnreachable, onFailure: unreachable("redis") },
      );
      starting.waitingFor = undefined;
    }
    services = createServices(db, config, clock, logger, shared);
    if (redis !== undefined) stopSharing = await shareAuthInvalidation(redis, services.users, logger);
    firstStart = await ensureRealm(services, db, config, opts.ownerPassword);
    // SQLite creates -wal and -shm on first use; make sure none is readable by others.
    if (sqliteFile !== undefined) secureSqliteFiles(sqliteFile);
  } catch (err) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await db?.close();
    await redis?.close();
    throw err;
  }
  // eslint-disable-next-line @typescript-eslint/no-misused-promises -- Koa's callback handles its own promise
  app.handle = createApp(services).callback();
  for (const [req, res] of waiting.splice(0)) app.handle(req, res);

  let closed = false;
  return {
    url,
    port,
    services,
    db,
    server,
    firstStart,
    async close() {
      if (closed) return;
      closed = true;
      stopSharing?.();
      await services.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
      });
      await db.close();
      await redis?.close();
    },
  };
}
