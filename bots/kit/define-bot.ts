import type { BotConfigInfo, BotHandler, BotMessage } from "./types.js";

/** What a bot author writes. */
export interface BotDefinition {
  /** Slug: folder name, INI section of the bot server config, embedded bot name. */
  name: string;
  /** What the bot does, for humans (shown by bots that answer "help"). */
  usage: string;
  /** Called for every message addressed to the bot (mention already stripped). */
  handleMessage(message: BotMessage, bot: BotHandler): Promise<void>;
  /** Called once before the first message (the bot server) or before each one (embedded bots, as Zulip does). */
  initialize?(bot: BotHandler): Promise<void>;
  /**
   * The bot config file section the bot reads (default: its name). When `required`, starting the
   * bot without that section fails with {@link NoBotConfigError}.
   */
  config?: { section?: string; required?: boolean; validate?(config: BotConfigInfo): void };
  /** Whether the chat server may run it as an embedded bot (bot_type 4), as Zulip's EMBEDDED_BOTS list. */
  embeddable?: boolean;
  /** The bot's folder (`new URL(".", import.meta.url)`), for `readBotFile`. */
  dir?: URL;
}

/** A checked bot definition. */
export interface Bot extends BotDefinition {
  readonly configSection: string;
  readonly requiresConfig: boolean;
  readonly embeddable: boolean;
}

const SLUG = /^[a-z0-9_]+$/;

/** Checks a bot definition at import time (a broken bot fails the build rather than a request). */
export function defineBot(definition: BotDefinition): Bot {
  if (!SLUG.test(definition.name)) {
    throw new Error(`Bot name '${definition.name}' must match ${String(SLUG)}`);
  }
  if (definition.usage.trim() === "") {
    throw new Error(`Bot '${definition.name}' needs a usage text`);
  }
  return {
    ...definition,
    configSection: definition.config?.section ?? definition.name,
    requiresConfig: definition.config?.required ?? false,
    embeddable: definition.embeddable ?? false,
  };
}
