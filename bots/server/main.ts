/** The bot server's command line: options (Zulip's zulip-botserver flags) and start-up. */
import yargs from "yargs";
import { packageVersion } from "../../src/lib/package-version.js";
import { parsePacing } from "../kit/index.js";
import type { Logger } from "./app.js";
import { loadBotConfigFile, loadBotServerConfig } from "./config.js";
import type { BotServerConfig } from "./config.js";
import { startBotServer } from "./start.js";
import type { ReloadResult, RunningBotServer } from "./start.js";

export interface BotServerCliOptions {
  configFile?: string;
  useEnvVars: boolean;
  botConfigFile?: string;
  botName?: string;
  /** A bot module of your own for `--bot-name` (`--bot-path ./my-bot.js`). */
  botPath?: string;
  hostname: string;
  port: number;
  skipCheck: boolean;
  logFormat: "text" | "json";
  /** Messages per seconds each bot may send (`20/5`): bursts wait, never fail. */
  pace: string;
  /** Per-bot queue size; a full queue answers 503 so the chat server retries later. */
  queueSize: number;
}

const USAGE = `Usage: botserver --config-file <path/to/botserverrc> [--hostname=<address>] [--port=<port>]
       botserver --use-env-vars [--hostname=<address>] [--port=<port>]

Runs bots for the chat server's outgoing webhooks: the chat server POSTs each message that mentions
or directly messages a bot to http://<hostname>:<port>/, and the bot replies through the chat API.`;

/** The yargs parser of the bot server's command line. */
export function cliParser(args: readonly string[]) {
  return yargs([...args])
    .scriptName("botserver")
    .usage(USAGE)
    .option("config-file", {
      alias: "c",
      type: "string",
      describe: "botserverrc (one section per bot) or a bot's zuliprc (with --bot-name)",
    })
    .option("use-env-vars", {
      alias: "e",
      type: "boolean",
      describe: "Read the config as JSON from the ZULIP_BOTSERVER_CONFIG environment variable",
    })
    .option("bot-config-file", {
      type: "string",
      describe: "INI file with the bots' own settings, one section per bot (e.g. [followup] stream=…)",
    })
    .option("bot-name", {
      alias: "b",
      type: "string",
      describe: "Run only this bot: its section, or else the first section (e.g. [api] of a zuliprc)",
    })
    .option("bot-path", {
      type: "string",
      describe: "Module of a bot of your own (default export: defineBot(…)), run as --bot-name",
    })
    .option("hostname", { type: "string", default: "127.0.0.1", describe: "Address to listen on" })
    .option("port", { type: "number", default: 5002, describe: "Port to listen on (0: any free port)" })
    .option("skip-check", {
      type: "boolean",
      default: false,
      describe: "Don't check the bots' site and credentials at start-up",
    })
    .option("log-format", {
      choices: ["text", "json"] as const,
      default: "text" as const,
      describe: "Log lines as text, or one JSON object per line",
    })
    .option("pace", {
      type: "string",
      default: "20/5",
      describe: "Messages/seconds each bot may send; a faster bot waits (never drops a reply)",
    })
    .option("queue-size", {
      type: "number",
      default: 1000,
      describe: "Messages each bot may have waiting; beyond, webhooks get 503 and the chat server retries",
    })
    .conflicts("config-file", "use-env-vars")
    .check((argv) => {
      if (argv["config-file"] === undefined && !argv["use-env-vars"]) {
        throw new Error("Give one of --config-file or --use-env-vars");
      }
      if (!Number.isInteger(argv.port) || argv.port < 0 || argv.port > 65535) {
        throw new Error(`Invalid port: ${String(argv.port)}`);
      }
      if (argv["bot-path"] !== undefined && argv["bot-name"] === undefined) {
        throw new Error("--bot-path needs --bot-name (the config section of that bot)");
      }
      parsePacing(argv.pace);
      if (!Number.isInteger(argv["queue-size"]) || argv["queue-size"] < 1) {
        throw new Error(`Invalid queue size: ${String(argv["queue-size"])}`);
      }
      return true;
    })
    .strict()
    .version(packageVersion())
    .help()
    .alias("help", "h")
    .wrap(100);
}

/** Maps parsed yargs arguments to options. */
export function cliOptions(argv: Record<string, unknown>): BotServerCliOptions {
  const str = (name: string): string | undefined => (typeof argv[name] === "string" ? argv[name] : undefined);
  const configFile = str("config-file");
  const botConfigFile = str("bot-config-file");
  const botName = str("bot-name");
  const botPath = str("bot-path");
  return {
    ...(configFile === undefined ? {} : { configFile }),
    ...(botConfigFile === undefined ? {} : { botConfigFile }),
    ...(botName === undefined ? {} : { botName }),
    ...(botPath === undefined ? {} : { botPath }),
    logFormat: argv["log-format"] === "json" ? "json" : "text",
    pace: str("pace") ?? "20/5",
    queueSize: typeof argv["queue-size"] === "number" ? argv["queue-size"] : 1000,
    useEnvVars: argv["use-env-vars"] === true,
    hostname: str("hostname") ?? "127.0.0.1",
    port: typeof argv.port === "number" ? argv.port : 5002,
    skipCheck: argv["skip-check"] === true,
  };
}

/** A running bot server started from the command line: `reload()` re-reads its config sources (SIGHUP). */
export interface CliBotServer extends RunningBotServer {
  /** Re-reads the config; an invalid one is refused (logged, the old config keeps running). */
  reloadConfig(): Promise<ReloadResult | undefined>;
}

/**
 * Loads the configuration and starts the bot server. Throws ConfigError or BotStartupError (whose
 * messages name the section and option to fix) when it cannot start.
 */
export async function runBotServer(
  options: BotServerCliOptions,
  io: { env: Record<string, string | undefined>; logger: Logger },
): Promise<CliBotServer> {
  const load = (): BotServerConfig =>
    loadBotServerConfig({
      ...(options.configFile === undefined ? {} : { configFile: options.configFile }),
      ...(options.botName === undefined ? {} : { botName: options.botName }),
      ...(options.botPath === undefined ? {} : { botPath: options.botPath, baseDir: process.cwd() }),
      useEnvVars: options.useEnvVars,
      env: io.env,
      onWarning: (message) => io.logger.warn(message),
    });
  const loadBotConfig = () =>
    options.botConfigFile === undefined ? undefined : loadBotConfigFile(options.botConfigFile);
  const config = load();
  const botConfig = loadBotConfig();
  if (config.size === 0) io.logger.warn("No bots configured: every webhook will be answered with an error");
  const server = await startBotServer({
    config,
    ...(botConfig === undefined ? {} : { botConfig }),
    hostname: options.hostname,
    port: options.port,
    skipCheck: options.skipCheck,
    logger: io.logger,
    pacing: parsePacing(options.pace),
    queueCapacity: options.queueSize,
  });
  io.logger.info(
    `listening on ${server.url} with bots: ${server.bots.map((b) => b.name).join(", ") || "(none)"}`,
  );
  async function reloadConfig(): Promise<ReloadResult | undefined> {
    try {
      const result = await server.reload(load(), loadBotConfig());
      io.logger.info("config reloaded", { ...result });
      return result;
    } catch (err) {
      io.logger.error("config reload refused: the old config keeps running", {
        problem: err instanceof Error ? err.message : String(err),
      });
      return undefined;
    }
  }
  return Object.assign(server, { reloadConfig });
}
