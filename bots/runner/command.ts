/** `chat-server run-bot NAME --zuliprc F`: the command's logic (src/cli.ts only declares it). */
import ini from "ini";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { LogFormat } from "../../src/lib/logger.js";
import { BOT_REGISTRY } from "../index.js";
import type { ChatApiCredentials } from "../kit/index.js";
import { parsePacing } from "../kit/index.js";
import { botServerLogger } from "../server/app.js";
import { ConfigError, loadBotConfigFile } from "../server/config.js";
import { loadBot } from "../server/start.js";
import { runBotOnEvents } from "./run-bot.js";
import type { RunBotOutcome } from "./run-bot.js";

export interface RunBotCommandOptions {
  name: string;
  zuliprc: string;
  botConfigFile?: string;
  botPath?: string;
  logFormat?: LogFormat;
  pace?: string;
}

/** The `[api]` section of a zuliprc: email, key, site. Throws {@link ConfigError}. */
export function readBotZuliprc(file: string): ChatApiCredentials {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    throw new ConfigError(`Could not read zuliprc ${path.resolve(file)}: File not found.`, { cause: err });
  }
  const api = (ini.parse(text) as Record<string, Record<string, unknown> | undefined>).api ?? {};
  const get = (key: string): string => {
    const value = api[key];
    if (typeof value !== "string" || value.trim() === "") {
      throw new ConfigError(`zuliprc ${file}: section [api] is missing option '${key}'`);
    }
    return value.trim();
  };
  return { email: get("email"), key: get("key"), site: get("site") };
}

/** Runs the bot until SIGINT/SIGTERM or until it quits. */
export async function runBotCommand(options: RunBotCommandOptions): Promise<RunBotOutcome> {
  const logger = botServerLogger({ format: options.logFormat ?? "text" });
  const credentials = readBotZuliprc(options.zuliprc);
  const bot = await loadBot(
    {
      name: options.name,
      ...credentials,
      token: "",
      ...(options.botPath === undefined ? {} : { botPath: path.resolve(options.botPath) }),
    },
    BOT_REGISTRY,
  );
  const config =
    options.botConfigFile === undefined
      ? undefined
      : loadBotConfigFile(options.botConfigFile).get(bot.configSection);
  const controller = new AbortController();
  const stop = (): void => {
    logger.info("stopping", { bot: bot.name });
    controller.abort();
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  try {
    return await runBotOnEvents({
      bot,
      credentials,
      logger,
      signal: controller.signal,
      ...(config === undefined ? {} : { config }),
      ...(options.pace === undefined ? {} : { pacing: parsePacing(options.pace) }),
    });
  } finally {
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
  }
}
