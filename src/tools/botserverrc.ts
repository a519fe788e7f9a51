/**
 * The `botserverrc` and `create-bot` commands: a ready bot-server config section for an
 * outgoing-webhook bot, read (or created) through the chat API as a zuliprc's user would.
 */
import { BOT_REGISTRY } from "../../bots/index.js";
import { ChatApiClient } from "../../bots/kit/index.js";
import type { ChatApiCredentials } from "../../bots/kit/index.js";
import { createOrReuseBot, OUTGOING_WEBHOOK, ownedBots } from "./bots.js";
import type { ApiBot } from "./bots.js";

export interface BotserverrcEntry {
  /** The section name: the bundled bot to run. */
  name: string;
  email: string;
  key: string;
  site: string;
  token: string;
}

/** One INI section, as Zulip's "Download botserverrc" writes it (with the bot's name filled in). */
export function botserverrcSection(e: BotserverrcEntry): string {
  return `[${e.name}]\nemail=${e.email}\nkey=${e.key}\nsite=${e.site}\ntoken=${e.token}\n`;
}

/** `helloworld-bot@example.com` → `helloworld`. */
export function sectionNameOf(email: string): string {
  return (email.split("@")[0] ?? "").replace(/-bot$/, "");
}

function entryOf(bot: ApiBot, name: string, site: string): BotserverrcEntry {
  const token = bot.services[0]?.token;
  if (bot.bot_type !== 3 || token === undefined) {
    throw new Error(`${bot.email} is not an outgoing-webhook bot (bot_type ${bot.bot_type})`);
  }
  return { name, email: bot.email, key: bot.api_key, site, token };
}

/** The section of an outgoing-webhook bot owned by the zuliprc's user. */
export async function fetchBotserverrcEntry(
  rc: ChatApiCredentials,
  botEmail: string,
  name?: string,
): Promise<BotserverrcEntry> {
  const client = new ChatApiClient(rc, { userAgent: "chat-server-cli" });
  const bot = (await ownedBots(client)).find((b) => b.email.toLowerCase() === botEmail.toLowerCase());
  if (bot === undefined) {
    throw new Error(`${rc.email} owns no bot ${botEmail} (GET /api/v1/bots on ${rc.site})`);
  }
  return entryOf(bot, name ?? sectionNameOf(bot.email), rc.site);
}

/** Sections for every active outgoing-webhook bot the zuliprc's user owns (Zulip's "Download botserverrc"). */
export async function fetchAllBotserverrcEntries(rc: ChatApiCredentials): Promise<BotserverrcEntry[]> {
  const client = new ChatApiClient(rc, { userAgent: "chat-server-cli" });
  return (await ownedBots(client))
    .filter((b) => b.bot_type === 3 && b.is_active !== false && b.services[0]?.token !== undefined)
    .map((b) => entryOf(b, sectionNameOf(b.email), rc.site));
}

export interface CreateBotOptions {
  /** A bundled bot's name: the section name, and by default the bot's short and full name. */
  name: string;
  payloadUrl: string;
  fullName?: string | undefined;
  shortName?: string | undefined;
  interfaceType?: number | undefined;
}

/**
 * Creates an outgoing-webhook bot for a bundled bot (or finds the one created before under the same
 * short name) and returns its botserverrc section.
 */
export async function createBotserverBot(
  rc: ChatApiCredentials,
  opts: CreateBotOptions,
): Promise<{ entry: BotserverrcEntry; created: boolean }> {
  if (!BOT_REGISTRY.has(opts.name)) {
    throw new Error(`Unknown bot '${opts.name}'. Bundled bots: ${[...BOT_REGISTRY.keys()].join(", ")}`);
  }
  const client = new ChatApiClient(rc, { userAgent: "chat-server-cli" });
  const shortName = opts.shortName ?? opts.name.replaceAll("_", "-");
  const { bot, created } = await createOrReuseBot(
    client,
    {
      shortName,
      fullName: opts.fullName ?? opts.name,
      botType: OUTGOING_WEBHOOK,
      params: { payload_url: JSON.stringify(opts.payloadUrl), interface_type: opts.interfaceType ?? 1 },
    },
    "--short-name",
  );
  return { entry: entryOf(bot, opts.name, rc.site), created };
}
