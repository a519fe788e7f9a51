import { ChatApiError } from "../../bots/kit/index.js";
import type { ChatApiClient } from "../../bots/kit/index.js";

/** A bot as `GET /api/v1/bots` lists it. */
export interface ApiBot {
  email: string;
  user_id?: number;
  full_name?: string;
  api_key: string;
  bot_type: number;
  is_active?: boolean;
  services: { base_url?: string; token?: string }[];
}

export const INCOMING_WEBHOOK = 2;
export const OUTGOING_WEBHOOK = 3;

const BOT_TYPE_NAMES: Record<number, string> = {
  1: "a generic bot",
  2: "an incoming-webhook bot",
  3: "an outgoing-webhook bot",
  4: "an embedded bot",
};

function typeName(botType: number): string {
  return BOT_TYPE_NAMES[botType] ?? `a bot of type ${botType}`;
}

/** A bot name a CLI command cannot use, with the conflict named (not a failure of the server). */
export class BotNameTakenError extends Error {}

/** The bots the credentials' user owns (an administrator's list holds every bot of the organization). */
export async function ownedBots(client: ChatApiClient): Promise<ApiBot[]> {
  const res = await client.call("GET", "bots");
  return (res["bots"] ?? []) as ApiBot[];
}

const localPart = (email: string): string => (email.split("@")[0] ?? "").toLowerCase();

/**
 * The bot `<shortName>-bot@…` of the credentials' user: reused when it exists with the wanted
 * type, else created with `params`. What stands in the way is decided from the server's lists, not
 * from an error's text: a bot of the name with another type, owned by someone else, deactivated,
 * or a user who is not a bot.
 */
export async function createOrReuseBot(
  client: ChatApiClient,
  spec: { shortName: string; fullName: string; botType: number; params?: Record<string, unknown> },
  flag: string,
): Promise<{ bot: ApiBot; created: boolean }> {
  const wanted = `${spec.shortName}-bot`.toLowerCase();
  const mine = (await ownedBots(client)).find((b) => localPart(b.email) === wanted && b.is_active !== false);
  if (mine !== undefined) {
    if (mine.bot_type !== spec.botType) {
      throw new BotNameTakenError(
        `The bot ${mine.email} exists and is ${typeName(mine.bot_type)}, not ${typeName(spec.botType)}; pass another ${flag}`,
      );
    }
    return { bot: mine, created: false };
  }
  let email: string;
  try {
    const res = await client.call("POST", "bots", {
      full_name: spec.fullName,
      short_name: spec.shortName,
      bot_type: spec.botType,
      ...(spec.params ?? {}),
    });
    email = res["email"] as string;
  } catch (err) {
    if (err instanceof ChatApiError && err.status === 400) throw await takenBy(client, wanted, flag, err);
    throw err;
  }
  const bot = (await ownedBots(client)).find((b) => b.email === email);
  if (bot === undefined) throw new Error(`The new bot ${email} is missing from GET /api/v1/bots`);
  return { bot, created: true };
}

/** Why the name could not be created: who holds it, from the organization's user list; else `err`. */
async function takenBy(client: ChatApiClient, wanted: string, flag: string, err: Error): Promise<Error> {
  const res = await client.call("GET", "users", { client_gravatar: false });
  const members = (res["members"] ?? []) as {
    user_id: number;
    email: string;
    full_name: string;
    is_bot: boolean;
    is_active?: boolean;
    bot_owner_id?: number | null;
  }[];
  const holder = members.find((m) => localPart(m.email) === wanted);
  if (holder === undefined) return err;
  if (!holder.is_bot)
    return new BotNameTakenError(`${holder.email} is a user, not a bot; pass another ${flag}`);
  if (holder.is_active === false) {
    return new BotNameTakenError(
      `${holder.email} is a deactivated bot; reactivate it or pass another ${flag}`,
    );
  }
  const owner = members.find((m) => m.user_id === holder.bot_owner_id);
  return new BotNameTakenError(
    `${holder.email} is a bot owned by ${owner?.full_name ?? "another user"}; pass another ${flag}`,
  );
}
