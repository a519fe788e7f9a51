/** The bot server's command line: options (Zulip's zulip-botserver flags) and start-up. */
import yargs from "yargs";
import type { Logger } from "./app.js";
import { loadBotConfigFile, loadBotServerConfig } from "./config.js";
import { startBotServer } from "./start.js";
import type { RunningBotServer } from "./start.js";

export interface BotServerCliOptions {
  configFile?: string;
  useEnvVars: boolean;
  botConfigFile?: string;
  botName?: string;
  hostname: string;
  port: number;
  skipCheck: boolean;
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
    .option("hostname", { type: "string", default: "127.0.0.1", describe: "Address to listen on" })
    .option("port", { type: "number", default: 5002, describe: "Port to listen on (0: any free port)" })
    .option("skip-check", {
      type: "boolean",
      default: false,
      describe: "Don't check the bots' site and credentials at start-up",
    })
    .conflicts("config-file", "use-env-vars")
    .check((argv) => {
      if (argv["config-file"] === undefined && !argv["use-env-vars"]) {
        throw new Error("Give one of --config-file or --use-env-vars");
      }
      if (!Number.isInteger(argv.port) || argv.port < 0 || argv.port > 65535) {
        throw new Error(`Invalid port: ${String(argv.port)}`);
      }
      return true;
    })
    .strict()
    .version(false)
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
  return {
    ...(configFile === undefined ? {} : { configFile }),
    ...(botConfigFile === undefined ? {} : { botConfigFile }),
    ...(botName === undefined ? {} : { botName }),
    useEnvVars: argv["use-env-vars"] === true,
    hostname: str("hostname") ?? "127.0.0.1",
    port: typeof argv.port === "number" ? argv.port : 5002,
    skipCheck: argv["skip-check"] === true,
  };
}

/**
 * Loads the configuration and starts the bot server. Throws ConfigError or BotStartupError (whose
 * messages name the section and option to fix) when it cannot start.
 */
export async function runBotServer(
  options: BotServerCliOptions,
  io: { env: Record<string, string | undefined>; logger: Logger },
): Promise<RunningBotServer> {
  const config = loadBotServerConfig({
    ...(options.configFile === undefined ? {} : { configFile: options.configFile }),
    ...(options.botName === undefined ? {} : { botName: options.botName }),
    useEnvVars: options.useEnvVars,
    env: io.env,
    onWarning: (message) => io.logger.warn(message),
  });
  const botConfig =
    options.botConfigFile === undefined ? undefined : loadBotConfigFile(options.botConfigFile);
  if (config.size === 0) io.logger.warn("No bots configured: every webhook will be answered with an error");
  const server = await startBotServer({
    config,
    ...(botConfig === undefined ? {} : { botConfig }),
    hostname: options.hostname,
    port: options.port,
    skipCheck: options.skipCheck,
    logger: io.logger,
  });
  io.logger.info(
    `listening on ${server.url} with bots: ${server.bots.map((b) => b.name).join(", ") || "(none)"}`,
  );
  return server;
}
