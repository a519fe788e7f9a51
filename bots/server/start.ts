/** Turning a configuration into running bots, listening, and reloading. */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import type Koa from "koa";
import { BOT_REGISTRY } from "../index.js";
import type { Bot, BotIdentity, ChatApiClientOptions, RetryPolicy, Sleep } from "../kit/index.js";
import {
  ChatApiClient,
  ChatApiError,
  NO_RETRY,
  RestBotHandler,
  TokenBucket,
  backoffMs,
  initializeBot,
  isTransientChatApiError,
  realSleep,
} from "../kit/index.js";
import type { BotServerAppOptions, Logger } from "./app.js";
import { createBotServerApp, stderrLogger } from "./app.js";
import type { BotConfigSections, BotServerConfig, BotServerEntry } from "./config.js";
import { ConfigError } from "./config.js";
import { BotStartupError } from "./errors.js";
import { BotHost } from "./host.js";
import type { RunningBot } from "./host.js";
import { BotServerMetrics } from "./metrics.js";

/** Retries of the start-up check while the chat server is unreachable: forever, backing off up to 30 s. */
export const STARTUP_RETRY: RetryPolicy = {
  maxRetries: Number.POSITIVE_INFINITY,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
};

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
  /** Pacing of each bot's sent messages (default 20 at once, then 4 per second: Zulip's 20 per 5 s). */
  pacing?: { capacity: number; refillPerSecond: number };
  /** Retries of the start-up check while the chat server cannot be reached (default {@link STARTUP_RETRY}). */
  startupRetry?: RetryPolicy;
  metrics?: BotServerMetrics;
  sleep?: Sleep;
}

/** The underlying reason (for a network failure, the socket error rather than our wrapper). */
function reason(err: unknown): string {
  if (err instanceof ChatApiError && err.status === 0 && err.cause instanceof Error) return err.cause.message;
  return err instanceof Error ? err.message : String(err);
}

/** Thrown by one check attempt when the chat server is unreachable or failing (worth retrying). */
class TransientStartupError extends BotStartupError {}

/**
 * Checks the bot's `site` and credentials as Zulip's bot server does: `GET /api/v1/server_settings`
 * (is a chat server there?) then `GET /api/v1/users/me` (are `email` and `key` right?). An
 * unreachable or failing chat server is retried (`retry`, default none) with backoff; a wrong site
 * or key fails at once.
 */
export async function checkBot(
  entry: BotServerEntry,
  client: ChatApiClient,
  options: { retry?: RetryPolicy; logger?: Logger; sleep?: Sleep } = {},
): Promise<BotIdentity> {
  const policy = options.retry ?? NO_RETRY;
  for (let retry = 1; ; retry++) {
    try {
      return await checkBotOnce(entry, client);
    } catch (err) {
      if (!(err instanceof TransientStartupError) || retry > policy.maxRetries) throw err;
      const delayMs = backoffMs(policy, retry);
      options.logger?.warn("chat server not available yet: retrying", {
        bot: entry.name,
        site: entry.site,
        reason: err.message,
        retry_in_ms: delayMs,
      });
      await (options.sleep ?? realSleep)(delayMs);
    }
  }
}

async function checkBotOnce(entry: BotServerEntry, client: ChatApiClient): Promise<BotIdentity> {
  try {
    await client.call("GET", "server_settings", {}, { authenticated: false, retry: NO_RETRY });
  } catch (err) {
    if (isTransientChatApiError(err)) {
      throw new TransientStartupError(
        entry.name,
        `cannot reach the chat server at ${entry.site} (${reason(err)}). Is it running, and is 'site' right?`,
        { cause: err },
      );
    }
    throw new BotStartupError(
      entry.name,
      `the site ${entry.site} does not look like a chat server (GET /api/v1/server_settings: ${reason(err)}). Check 'site'.`,
      { cause: err },
    );
  }
  try {
    const me = await client.call("GET", "users/me", {}, { retry: NO_RETRY });
    return identityOf(me, client);
  } catch (err) {
    if (isTransientChatApiError(err)) {
      throw new TransientStartupError(
        entry.name,
        `cannot reach the chat server at ${entry.site} (${reason(err)}). Is it running, and is 'site' right?`,
        { cause: err },
      );
    }
    throw new BotStartupError(
      entry.name,
      `the chat server at ${entry.site} rejected the credentials of ${entry.email} (${reason(err)}). Check 'email' and 'key'.`,
      { cause: err },
    );
  }
}

function identityOf(me: Record<string, unknown>, client: ChatApiClient): BotIdentity {
  const fullName = typeof me.full_name === "string" ? me.full_name : "";
  const email = typeof me.email === "string" ? me.email : client.credentials.email;
  const userId = typeof me.user_id === "number" ? me.user_id : undefined;
  return { email, fullName, mention: `@**${fullName}**`, ...(userId === undefined ? {} : { userId }) };
}

function isBot(value: unknown): value is Bot {
  const v = value as Partial<Bot> | null;
  return (
    typeof v === "object" &&
    v !== null &&
    typeof v.name === "string" &&
    typeof v.handleMessage === "function" &&
    typeof v.configSection === "string"
  );
}

/** The bot of a config section: its module (`bot = …`), or the bundled bot of that name. */
export async function loadBot(entry: BotServerEntry, registry: ReadonlyMap<string, Bot>): Promise<Bot> {
  if (entry.botPath === undefined) {
    const bot = registry.get(entry.name);
    if (!bot) {
      throw new ConfigError(
        `Unknown bot '${entry.name}' in section [${entry.name}]. Known bots: ${[...registry.keys()].join(", ")}.`,
      );
    }
    return bot;
  }
  let module: { default?: unknown };
  try {
    module = (await import(pathToFileURL(entry.botPath).href)) as { default?: unknown };
  } catch (err) {
    throw new ConfigError(
      `Section [${entry.name}]: cannot load the bot module ${entry.botPath}: ${err instanceof Error ? err.message : String(err)}`,
      { cause: err },
    );
  }
  if (!isBot(module.default)) {
    throw new ConfigError(
      `Section [${entry.name}]: the module ${entry.botPath} must have a default export made with defineBot(…)`,
    );
  }
  return module.default;
}

/** What identifies a section's setup: a change restarts the bot on reload. */
function fingerprint(entry: BotServerEntry, botConfig: Record<string, string> | undefined): string {
  return JSON.stringify([
    entry.email,
    entry.key,
    entry.site,
    entry.token,
    entry.signingSecrets ?? [],
    entry.requireSignature ?? false,
    entry.botPath ?? "",
    botConfig ?? {},
  ]);
}

/** Builds a REST-backed handler for one configured bot, checks it against its site and runs `initialize`. */
export async function prepareBot(entry: BotServerEntry, options: PrepareBotsOptions): Promise<RunningBot> {
  const registry = options.registry ?? BOT_REGISTRY;
  const logger = options.logger ?? stderrLogger;
  const bot = await loadBot(entry, registry);
  const client = new ChatApiClient(entry, {
    userAgent: `ZulipBotServer/0.1 (${entry.name})`,
    ...(options.metrics ? { observer: options.metrics.observer(entry.name) } : {}),
    ...(options.sleep ? { sleep: options.sleep } : {}),
    ...options.clientOptions,
  });
  const identity: BotIdentity = options.skipCheck
    ? { email: entry.email, fullName: "", mention: "" }
    : await checkBot(entry, client, {
        retry: options.startupRetry ?? STARTUP_RETRY,
        logger,
        ...(options.sleep ? { sleep: options.sleep } : {}),
      });
  if (identity.email.toLowerCase() !== entry.email.toLowerCase()) {
    logger.warn("the chat server knows this bot by another email", {
      bot: entry.name,
      configured: entry.email,
      actual: identity.email,
    });
  }
  const botConfig = options.botConfig?.get(bot.configSection);
  const handler = new RestBotHandler(client, identity, botConfig ?? {}, {
    pacing: new TokenBucket({ ...options.pacing }),
  });
  try {
    await initializeBot(bot, handler);
  } catch (err) {
    throw new BotStartupError(entry.name, reason(err), { cause: err });
  }
  return {
    name: entry.name,
    bot,
    handler,
    email: entry.email,
    token: entry.token,
    ...(entry.signingSecrets === undefined ? {} : { signingSecrets: entry.signingSecrets }),
    ...(entry.requireSignature === undefined ? {} : { requireSignature: entry.requireSignature }),
    fingerprint: fingerprint(entry, botConfig),
  };
}

/** Prepares every configured bot, in config order. */
export async function prepareBots(options: PrepareBotsOptions): Promise<RunningBot[]> {
  const running: RunningBot[] = [];
  for (const entry of options.config.values()) running.push(await prepareBot(entry, options));
  return running;
}

export interface StartBotServerOptions
  extends PrepareBotsOptions, Omit<BotServerAppOptions, "logger" | "metrics"> {
  /** Default 127.0.0.1. */
  hostname?: string;
  /** Default 5002; 0 picks a free port. */
  port?: number;
}

/** What a reload changed. */
export interface ReloadResult {
  added: string[];
  removed: string[];
  changed: string[];
  unchanged: string[];
}

export interface RunningBotServer {
  /** `http://<host>:<port>/`: the URL to give the outgoing-webhook bots. */
  url: string;
  port: number;
  app: Koa;
  server: Server;
  host: BotHost;
  metrics: BotServerMetrics;
  /** The bots served now. */
  readonly bots: readonly RunningBot[];
  /**
   * Switches to a new configuration: added bots start, removed ones stop taking webhooks, bots whose
   * credentials, token, module or bot config changed restart; messages already accepted finish. When
   * a new or changed bot cannot start, nothing changes and the error is thrown.
   */
  reload(config: BotServerConfig, botConfig?: BotConfigSections): Promise<ReloadResult>;
  /** Resolves when every accepted message has been handled. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

/** Prepares the bots and listens on its own port. */
export async function startBotServer(options: StartBotServerOptions): Promise<RunningBotServer> {
  const logger = options.logger ?? stderrLogger;
  const metrics = new BotServerMetrics();
  const prepare: PrepareBotsOptions = { ...options, logger, metrics };
  const host = new BotHost(await prepareBots(prepare), {
    logger,
    metrics,
    ...(options.queueCapacity === undefined ? {} : { queueCapacity: options.queueCapacity }),
    ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
  });
  const app = createBotServerApp(host, { ...options, logger, metrics });
  const hostname = options.hostname ?? "127.0.0.1";
  const server = app.listen({ host: hostname, port: options.port ?? 5002 });
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", reject);
  });
  const { port } = server.address() as AddressInfo;
  const address = hostname.includes(":") ? `[${hostname}]` : hostname;
  let currentBotConfig = options.botConfig;

  async function reload(config: BotServerConfig, botConfig?: BotConfigSections): Promise<ReloadResult> {
    const nextBotConfig = botConfig ?? currentBotConfig;
    const before = new Map(host.list().map((b) => [b.name, b]));
    const result: ReloadResult = { added: [], removed: [], changed: [], unchanged: [] };
    const next: RunningBot[] = [];
    for (const entry of config.values()) {
      const old = before.get(entry.name);
      const bot = old === undefined ? undefined : await loadBot(entry, options.registry ?? BOT_REGISTRY);
      const print = fingerprint(entry, bot ? nextBotConfig?.get(bot.configSection) : undefined);
      if (old !== undefined && old.fingerprint === print) {
        next.push(old);
        result.unchanged.push(entry.name);
        continue;
      }
      next.push(
        await prepareBot(entry, {
          ...prepare,
          ...(nextBotConfig === undefined ? {} : { botConfig: nextBotConfig }),
          // A reload must not hang on an unreachable chat server: refuse it instead.
          startupRetry: NO_RETRY,
        }),
      );
      (old === undefined ? result.added : result.changed).push(entry.name);
    }
    for (const name of before.keys()) if (!config.has(name)) result.removed.push(name);
    host.replace(next);
    currentBotConfig = nextBotConfig;
    return result;
  }

  return {
    url: `http://${address}:${port}/`,
    port,
    app,
    server,
    host,
    metrics,
    get bots() {
      return host.list();
    },
    reload,
    idle: () => host.idle(),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}
