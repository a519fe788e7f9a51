import { JsonableError } from "../../errors.js";
import type { BotStorageRepo } from "../../store/bot-storage-repo.js";
import type { TransactionalRepo } from "../../store/repos.js";
import type { User } from "../users/types.js";

/** Zulip's USER_STATE_SIZE_LIMIT: keys plus values of one bot, in characters. */
export const BOT_STORAGE_SIZE_LIMIT = 10_000_000;

const keyDoesNotExist = (): JsonableError => new JsonableError("Key does not exist.");

/** Number of Unicode code points (Python's len), not UTF-16 units. */
function codePoints(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/**
 * Per-bot key-value storage (Zulip's zerver/lib/bot_storage.py), used by `/api/v1/bot_storage`
 * and by embedded bots. Values are strings; bots JSON-encode their own values.
 */
export class BotStorageService {
  constructor(
    private readonly repo: TransactionalRepo<BotStorageRepo>,
    private readonly limit: number = BOT_STORAGE_SIZE_LIMIT,
  ) {}

  /** Since Zulip feature level 494 only bots may use the storage API. */
  requireBot(user: User): void {
    if (!user.isBot) throw new JsonableError("Must be a bot user");
  }

  /** Upserts `entries`; the bot's whole storage after the update must fit in the limit. */
  async put(botId: number, entries: Readonly<Record<string, string>>): Promise<void> {
    const keys = Object.keys(entries);
    await this.repo.transaction(async (repo) => {
      let difference = 0;
      for (const key of keys) difference += codePoints(key) + codePoints(entries[key] ?? "");
      difference -= await repo.size(botId, keys);
      const newSize = (await repo.size(botId)) + difference;
      if (newSize > this.limit) {
        throw new JsonableError(
          `Request exceeds storage limit by ${newSize - this.limit} characters. The limit is ${this.limit} characters.`,
        );
      }
      await repo.putMany(
        botId,
        keys.map((key) => [key, entries[key] ?? ""]),
      );
    });
  }

  /** The values of `keys` (all keys when omitted or empty); any missing key fails the whole call. */
  async get(botId: number, keys?: readonly string[]): Promise<Record<string, string>> {
    const repo = this.repo.read;
    if (keys === undefined || keys.length === 0) return Object.fromEntries(await repo.all(botId));
    const found = await repo.some(botId, keys);
    const out: Record<string, string> = {};
    for (const key of keys) {
      const value = found.get(key);
      if (value === undefined) throw keyDoesNotExist();
      out[key] = value;
    }
    return out;
  }

  async contains(botId: number, key: string): Promise<boolean> {
    return (await this.repo.read.some(botId, [key])).has(key);
  }

  /** Removes `keys` (all keys when omitted); if any is missing nothing is removed. */
  async remove(botId: number, keys?: readonly string[]): Promise<void> {
    await this.repo.transaction(async (repo) => {
      if (keys === undefined) {
        await repo.removeAll(botId);
        return;
      }
      const unique = [...new Set(keys)];
      const found = await repo.some(botId, unique);
      if (found.size < unique.length) throw keyDoesNotExist();
      await repo.remove(botId, unique);
    });
  }
}
