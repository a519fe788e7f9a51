/** Turning a configuration into running bots, and listening. */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type Koa from "koa";
import { BOT_REGISTRY } from "../index.js";
import type { Bot, BotIdentity, ChatApiClientOptions } from "../kit/index.js";
import {
  ChatApiClient,
  ChatApiError,
  RestBotHandler,
  fetchBotIdentity,
  initializeBot,
} from "../kit/index.js";
import { createBotServerApp, stderrLogger } from "./app.js";
import type { BotServerAppOptions, Logger, RunningBot } from "./app.js";
import type { BotConfigSections, BotServerConfig, BotServerEntry } from "./config.js";
import { ConfigError } from "./config.js";
import { BotStartupError } from "./errors.js";

export interface PrepareBotsOptions {
  config: BotServerConfig;
  /** Sections of the `--bot-config-file` (shared by all bots; each reads its own section). */
  botConfig?: BotConfigSections;
  /** Where bot names are looked up (default: the bundled bots). */
  registry?: ReadonlyMap<string, Bot>;
  /**
   * Don't contact the chat server at start-up. The bots' full names and ids are then unknown:
   * mentions are recognised by the `bot_full_name` of each webhook.
   */
  skipCheck?: boolean;
  logger?: Logger;
  clientOptions?: ChatApiClientOptions;
}

/** The underlying reason (for a network failure, the socket error rather than our wrapper). */
function reason(err: unknown): string {
  if (err instanceof ChatApiError && err.status === 0 && err.cause instanceof Error) return err.cause.message;
  return err instanceof Error ? err.message : String(err);
}

/**
 * Checks the bot's `site` and credentials as Zulip's bot server does: `GET /api/v1/server_settings`
 * (is a chat server there?) then `GET /api/v1/users/me` (are `email` and `key` right?).
 */
export async function checkBot(entry: BotServerEntry, client: ChatApiClient): Promise<BotIdentity> {
  try {
    await client.call("GET", "server_settings", {}, { authenticated: false });
  } catch (err) {
    const message =
      err instanceof ChatApiError && err.status !== 0
        ? `the site ${entry.site} does not look like a chat server (GET /api/v1/server_settings: ${err.message}). Check 'site'.`
        : `cannot reach the chat server at ${entry.site} (${reason(err)}). Is it running, and is 'site' right?`;
    throw new BotStartupError(entry.name, message, { cause: err });
  }
  try {
    return await fetchBotIdentity(client);
  } catch (err) {
    const message =
      err instanceof ChatApiError && err.status !== 0
        ? `the chat server at ${entry.site} rejected the credentials of ${entry.email} (${err.message}). Check 'email' and 'key'.`
        : `cannot reach the chat server at ${entry.site} (${reason(err)}). Is it running, and is 'site' right?`;
    throw new BotStartupError(entry.name, message, { cause: err });
  }
}

/** Builds a REST-backed handler for each configured bot, checks it against its site and runs `initialize`. */
export async function prepareBots(options: PrepareBotsOptions): Promise<RunningBot[]> {
  const registry = options.registry ?? BOT_REGISTRY;
  const logger = options.logger ?? stderrLogger;
  const running: RunningBot[] = [];
  for (const entry of options.config.values()) {
    const bot = registry.get(entry.name);
    if (!bot) {
      throw new ConfigError(
        `Unknown bot '${entry.name}' in section [${entry.name}]. Known bots: ${[...registry.keys()].join(", ")}.`,
      );
    }
    const client = new ChatApiClient(entry, {
      userAgent: `ZulipBotServer/0.1 (${entry.name})`,
      ...options.clientOptions,
    });
    const identity: BotIdentity = options.skipCheck
      ? { email: entry.email, fullName: "", mention: "" }
      : await checkBot(entry, client);
    if (identity.email.toLowerCase() !== entry.email.toLowerCase()) {
      logger.warn(`[${entry.name}] the chat server knows this bot as ${identity.email}, not ${entry.email}`);
    }
    const handler = new RestBotHandler(client, identity, options.botConfig?.get(bot.configSection) ?? {});
    try {
      await initializeBot(bot, handler);
    } catch (err) {
      throw new BotStartupError(entry.name, reason(err), { cause: err });
    }
    running.push({ name: entry.name, bot, handler, email: entry.email, token: entry.token });
  }
  return running;
}

export interface StartBotServerOptions extends PrepareBotsOptions, Omit<BotServerAppOptions, "logger"> {
  /** Default 127.0.0.1. */
  hostname?: string;
  /** Default 5002; 0 picks a free port. */
  port?: number;
}

export interface RunningBotServer {
  /** `http://<host>:<port>/`: the URL to give the outgoing-webhook bots. */
  url: string;
  port: number;
  app: Koa;
  server: Server;
  bots: RunningBot[];
  close(): Promise<void>;
}

/** Prepares the bots and listens on its own port. */
export async function startBotServer(options: StartBotServerOptions): Promise<RunningBotServer> {
  const logger = options.logger ?? stderrLogger;
  const bots = await prepareBots(options);
  const app = createBotServerApp(bots, { ...options, logger });
  const hostname = options.hostname ?? "127.0.0.1";
  const server = app.listen({ host: hostname, port: options.port ?? 5002 });
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", reject);
  });
  const { port } = server.address() as AddressInfo;
  const host = hostname.includes(":") ? `[${hostname}]` : hostname;
  return {
    url: `http://${host}:${port}/`,
    port,
    app,
    server,
    bots,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}
