/**
 * Bot server configuration: the botserverrc (one INI section per bot, named after it, with `email`,
 * `key`, `site` and `token`), the same as JSON in `ZULIP_BOTSERVER_CONFIG`, a downloaded zuliprc
 * (`[api]` + `--bot-name`), and the third-party bot config file (`--bot-config-file`).
 */
import ini from "ini";
import { readFileSync } from "node:fs";
import path from "node:path";
import { BOT_REGISTRY } from "../index.js";
import { apiBaseUrl } from "../kit/index.js";

/** A configuration mistake the operator must fix; the message says where and how. */
export class ConfigError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** One bot of the bot server: the section name picks the bot; the rest are its API credentials and webhook token. */
export interface BotServerEntry {
  name: string;
  email: string;
  key: string;
  site: string;
  /** The outgoing-webhook token; several (space- or comma-separated) during a rotation's overlap. */
  token: string;
  /**
   * Standard Webhooks secrets (`signing_secret = whsec_… whsec_…`, space- or comma-separated: several
   * during a rotation) the chat server signs this bot's webhooks with; empty: signatures not checked.
   */
  signingSecrets?: string[];
  /** `require_signature = true`: refuse webhooks without a valid, fresh signature (default false). */
  requireSignature?: boolean;
  /** Absolute path of the bot's module (`bot = ./my-bot/index.js`): a bot from outside this repository. */
  botPath?: string;
}

/** Bots in config-file order, by name. */
export type BotServerConfig = Map<string, BotServerEntry>;

export const REQUIRED_OPTIONS = ["email", "key", "site", "token"] as const;

export const ENV_VAR = "ZULIP_BOTSERVER_CONFIG";

export interface ParseOptions {
  /** Single-bot mode (`--bot-name`): use that section, or the first one renamed (a zuliprc's `[api]`). */
  botName?: string;
  /** Bot names that may be configured (default: the bundled bots). */
  knownBots?: Iterable<string>;
  /** Called with each warning (single-bot mode, renamed or ignored sections). */
  onWarning?: (message: string) => void;
  /** Where relative `bot = …` module paths start (default: the config file's folder, else the working directory). */
  baseDir?: string;
  /** Single-bot mode with `--bot-path`: the module of the bot named by `botName`. */
  botPath?: string;
}

type RawSections = [name: string, options: Record<string, unknown>][];

/** Parses a botserverrc (or zuliprc with `botName`). Throws {@link ConfigError}. */
export function parseBotServerConfig(text: string, options: ParseOptions = {}): BotServerConfig {
  const raw = ini.parse(text) as Record<string, unknown>;
  const sections: RawSections = [];
  for (const [name, value] of Object.entries(raw)) {
    if (!isObject(value)) {
      throw new ConfigError(
        `Option '${name}' is outside of any section: put the options of each bot under a section named after the bot, e.g. [helloworld]`,
      );
    }
    if (name === "") {
      throw new ConfigError(
        "The config file contains an empty section header []: write the name of the bot to run in each section header, e.g. [helloworld]",
      );
    }
    for (const [key, nested] of Object.entries(value)) {
      if (isObject(nested)) {
        throw new ConfigError(`Section [${name}.${key}]: a bot name cannot contain '.'`);
      }
    }
    sections.push([name, value]);
  }
  return buildConfig(sections, "in the config file", options);
}

/** Parses the JSON of `ZULIP_BOTSERVER_CONFIG` (`{"helloworld": {"email": …, "key": …, "site": …, "token": …}}`). */
export function parseBotServerEnvConfig(
  json: string | undefined,
  options: ParseOptions = {},
): BotServerConfig {
  if (json === undefined) {
    throw new ConfigError(`Could not read environment variable '${ENV_VAR}': Variable not set.`);
  }
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (err) {
    throw new ConfigError(`Environment variable '${ENV_VAR}' does not hold valid JSON`, { cause: err });
  }
  if (!isObject(value)) {
    throw new ConfigError(
      `Environment variable '${ENV_VAR}' must hold a JSON object of bots, e.g. {"helloworld": {"email": …, "key": …, "site": …, "token": …}}`,
    );
  }
  const sections: RawSections = [];
  for (const [name, options] of Object.entries(value)) {
    if (!isObject(options)) {
      throw new ConfigError(
        `Section [${name}] of '${ENV_VAR}' must be a JSON object with email, key, site and token`,
      );
    }
    sections.push([name, options]);
  }
  return buildConfig(sections, `in '${ENV_VAR}'`, options);
}

export interface LoadOptions extends ParseOptions {
  configFile?: string;
  useEnvVars?: boolean;
  env?: Record<string, string | undefined>;
}

/** Reads the config from `configFile` or, with `useEnvVars`, from the environment. Throws {@link ConfigError}. */
export function loadBotServerConfig(options: LoadOptions): BotServerConfig {
  if (options.useEnvVars) return parseBotServerEnvConfig((options.env ?? process.env)[ENV_VAR], options);
  if (options.configFile === undefined)
    throw new ConfigError("Give a config file (--config-file) or --use-env-vars");
  return parseBotServerConfig(readConfigFile(options.configFile), {
    ...options,
    baseDir: options.baseDir ?? path.dirname(resolveHome(options.configFile)),
  });
}

/** A bot's section of the bot config file, options as strings. */
export type BotConfigSections = Map<string, Record<string, string>>;

/**
 * Parses the third-party bot config file (`--bot-config-file`): one section per bot (e.g. `[followup]`).
 * Options outside any section are defaults for every section, like configparser's [DEFAULT].
 */
export function parseBotConfigFile(text: string): BotConfigSections {
  const raw = ini.parse(text) as Record<string, unknown>;
  const defaults: Record<string, string> = {};
  const sections: BotConfigSections = new Map();
  for (const [name, value] of Object.entries(raw)) {
    if (isObject(value)) {
      sections.set(name, stringOptions(value));
    } else {
      const text = scalar(value);
      if (text !== undefined) defaults[name] = text;
    }
  }
  for (const [name, options] of sections) sections.set(name, { ...defaults, ...options });
  return sections;
}

export function loadBotConfigFile(file: string): BotConfigSections {
  return parseBotConfigFile(readConfigFile(file));
}

function resolveHomeOnly(file: string): string {
  return file.replace(/^~(?=$|\/)/, process.env.HOME ?? "~");
}

function resolveHome(file: string): string {
  return path.resolve(file.replace(/^~(?=$|\/)/, process.env.HOME ?? "~"));
}

function readConfigFile(file: string): string {
  const absolute = resolveHome(file);
  try {
    return readFileSync(absolute, "utf8");
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code === "ENOENT" ? "File not found." : String(err);
    throw new ConfigError(`Could not read config file ${absolute}: ${reason}`, { cause: err });
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** An INI value as text: the ini package turns `true`/`false` into booleans; arrays (`key[]`) are not options. */
function scalar(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "boolean" || typeof value === "number") return String(value);
  return undefined;
}

function stringOptions(options: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(options)) {
    const text = scalar(value);
    if (text !== undefined) out[key] = text;
  }
  return out;
}

function selectSections(sections: RawSections, where: string, options: ParseOptions): RawSections {
  const { botName, onWarning } = options;
  if (botName === undefined) return sections;
  onWarning?.("Single bot mode is enabled");
  const named = sections.find(([name]) => name === botName);
  const first = sections[0];
  if (!first) {
    throw new ConfigError(
      `There are no sections ${where}: write the name of the bot you want to run in a section header, e.g. [${botName}]`,
    );
  }
  const chosen: [string, Record<string, unknown>] = named ?? [botName, first[1]];
  if (!named) onWarning?.(`First bot name in the config list was changed from '${first[0]}' to '${botName}'`);
  if (sections.length > 1) onWarning?.(`Sections except the '${named ? botName : first[0]}' will be ignored`);
  return [chosen];
}

/** An INI boolean option (absent: false). */
function parseFlag(value: string | undefined, section: string): boolean {
  const v = (value ?? "").trim().toLowerCase();
  if (v === "" || v === "false" || v === "no" || v === "0") return false;
  if (v === "true" || v === "yes" || v === "1") return true;
  throw new ConfigError(
    `Section [${section}] has an invalid require_signature '${value ?? ""}' (true or false)`,
  );
}

function buildConfig(sections: RawSections, where: string, options: ParseOptions): BotServerConfig {
  const known = new Set(options.knownBots ?? BOT_REGISTRY.keys());
  const config: BotServerConfig = new Map();
  for (const [name, raw] of selectSections(sections, where, options)) {
    const values = stringOptions(raw);
    for (const option of REQUIRED_OPTIONS) {
      if ((values[option] ?? "").trim() === "") {
        throw new ConfigError(`Section [${name}] is missing option '${option}'`);
      }
    }
    const modulePath = options.botPath ?? values.bot?.trim();
    if (modulePath === "") throw new ConfigError(`Section [${name}] has an empty option 'bot'`);
    if (modulePath === undefined && !known.has(name)) {
      const hint =
        name === "api"
          ? " Did you forget to give the bot you want to run with --bot-name <botname>?"
          : " A bot of your own: give its module with 'bot = ./path/to/bot.js'.";
      throw new ConfigError(
        `Unknown bot '${name}' in section [${name}]. Known bots: ${[...known].join(", ")}.${hint}`,
      );
    }
    const secrets = (values.signing_secret ?? "").split(/[\s,]+/).filter((s) => s.length > 0);
    const entry: BotServerEntry = {
      name,
      email: (values.email ?? "").trim(),
      key: (values.key ?? "").trim(),
      site: (values.site ?? "").trim(),
      token: (values.token ?? "").trim(),
      // Only when configured, so an entry without them reads as before.
      ...(secrets.length > 0 ? { signingSecrets: secrets } : {}),
      ...(parseFlag(values.require_signature, name) ? { requireSignature: true } : {}),
      ...(modulePath === undefined
        ? {}
        : { botPath: path.resolve(options.baseDir ?? process.cwd(), resolveHomeOnly(modulePath)) }),
    };
    try {
      new URL(apiBaseUrl(entry.site));
    } catch (err) {
      throw new ConfigError(`Section [${name}] has an invalid site '${entry.site}'`, { cause: err });
    }
    const twin = [...config.values()].find((other) => other.email === entry.email);
    if (twin) {
      throw new ConfigError(
        `Sections [${twin.name}] and [${name}] have the same email '${entry.email}': the bot server could not tell their webhooks apart`,
      );
    }
    if (entry.requireSignature === true && (entry.signingSecrets ?? []).length === 0) {
      throw new ConfigError(`Section [${name}] has require_signature = true but no signing_secret`);
    }
    config.set(name, entry);
  }
  return config;
}
