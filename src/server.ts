import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { createApp } from "./app.js";
import type { Clock } from "./clock.js";
import { systemClock } from "./clock.js";
import type { ServerConfig } from "./config.js";
import { generatePassword } from "./domain/users/secrets.js";
import type { User } from "./domain/users/types.js";
import type { Logger } from "./logger.js";
import { createLogger } from "./logger.js";
import type { Services } from "./services.js";
import { createServices } from "./services.js";
import { openStore } from "./store/open-store.js";

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
  services: Services,
  config: ServerConfig,
  ownerPassword: string | undefined,
): Promise<FirstStart | undefined> {
  const existing = await services.db.get<{ id: number }>("SELECT id FROM realms LIMIT 1");
  if (existing !== undefined) return undefined;
  // Make sure the zuliprc can be written before creating anything (with PostgreSQL the data dir
  // holds only the zuliprc and may not exist yet).
  if (config.dataDir !== ":memory:") fs.mkdirSync(config.dataDir, { recursive: true });
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
    fs.writeFileSync(zuliprcPath, zuliprcText(owner.email, owner.apiKey, config.externalUrl), {
      mode: 0o600,
    });
    fs.chmodSync(zuliprcPath, 0o600);
  }
  return { owner, generatedPassword: ownerPassword === undefined ? password : undefined, zuliprcPath };
}

/** Opens the store, bootstraps the realm on first start, and listens. The only place that listens. */
export async function startServer(
  config: ServerConfig,
  opts: { clock?: Clock; logger?: Logger; ownerPassword?: string | undefined } = {},
): Promise<RunningServer> {
  const logger = opts.logger ?? createLogger(config.logLevel);
  const clock = opts.clock ?? systemClock;
  const db = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const services = createServices(db, config, clock, logger);
  const firstStart = await ensureRealm(services, config, opts.ownerPassword);
  const app = createApp(services);
  // eslint-disable-next-line @typescript-eslint/no-misused-promises -- Koa's callback handles its own promise
  const server = http.createServer(app.callback());
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${port}`;
  // Listening on port 0 (tests): the URL clients use is only known now.
  if (config.port === 0 && config.externalUrl.endsWith(":0")) {
    config.externalUrl = url;
    // The zuliprc written on first start named port 0: point it at the real one.
    if (firstStart?.zuliprcPath !== undefined) {
      fs.writeFileSync(
        firstStart.zuliprcPath,
        zuliprcText(firstStart.owner.email, firstStart.owner.apiKey, url),
        {
          mode: 0o600,
        },
      );
    }
  }
  let closed = false;
  return {
    url,
    port,
    services,
    server,
    firstStart,
    async close() {
      if (closed) return;
      closed = true;
      await services.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
      });
      await db.close();
    },
  };
}
