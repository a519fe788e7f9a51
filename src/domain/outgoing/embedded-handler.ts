import { BotStorageKeyError, replyTarget } from "../../../bots/kit/index.js";
import type {
  BotConfigInfo,
  BotHandler,
  BotIdentity,
  BotMessage,
  BotStorage,
  MessageUpdate,
  OutgoingMessage,
  SentMessage,
} from "../../../bots/kit/index.js";
import type { MessageService } from "../messages/message-service.js";
import type { User } from "../users/types.js";
import type { BotStorageService } from "./bot-storage-service.js";

/** Embedded bots' storage: the bot_storage table, values JSON-encoded as Zulip's bots store them. */
export class EmbeddedBotStorage implements BotStorage {
  constructor(
    private readonly storage: BotStorageService,
    private readonly botId: number,
  ) {}

  async get<T = unknown>(key: string): Promise<T> {
    let values: Record<string, string>;
    try {
      values = await this.storage.get(this.botId, [key]);
    } catch {
      throw new BotStorageKeyError(key);
    }
    return JSON.parse(values[key] ?? "null") as T;
  }

  async put(key: string, value: unknown): Promise<void> {
    await this.storage.put(this.botId, { [key]: JSON.stringify(value ?? null) });
  }

  contains(key: string): Promise<boolean> {
    return this.storage.contains(this.botId, key);
  }

  async remove(key: string): Promise<void> {
    try {
      await this.storage.remove(this.botId, [key]);
    } catch {
      throw new BotStorageKeyError(key);
    }
  }
}

/**
 * The BotHandler of an embedded bot (bot_type 4), over the domain services: messages are sent and
 * edited as the bot, storage is the bot's bot_storage, config is its bot_config. `react` does
 * nothing: Zulip's embedded handler does not implement it either.
 */
export class EmbeddedBotHandler implements BotHandler {
  readonly identity: BotIdentity;
  readonly storage: BotStorage;

  constructor(
    private readonly bot: User,
    readonly config: BotConfigInfo,
    private readonly messages: MessageService,
    storage: BotStorageService,
  ) {
    this.identity = {
      email: bot.email,
      fullName: bot.fullName,
      userId: bot.id,
      mention: `@**${bot.fullName}**`,
    };
    this.storage = new EmbeddedBotStorage(storage, bot.id);
  }

  async sendMessage(message: OutgoingMessage): Promise<SentMessage> {
    const id =
      message.type === "stream"
        ? await this.messages.send(this.bot, {
            type: "stream",
            to: message.to,
            topic: message.topic ?? message.subject,
            content: message.content,
            client: "EmbeddedBot",
          })
        : await this.messages.send(this.bot, {
            type: "private",
            to: message.to,
            content: message.content,
            client: "EmbeddedBot",
          });
    return { id };
  }

  sendReply(message: BotMessage, content: string, widgetContent?: string): Promise<SentMessage> {
    return this.sendMessage(replyTarget(message, content, widgetContent));
  }

  async react(): Promise<void> {
    // Not implemented, as in Zulip's EmbeddedBotHandler.
  }

  async updateMessage(update: MessageUpdate): Promise<void> {
    await this.messages.edit(this.bot, update.message_id, {
      content: update.content,
      propagateMode: "change_one",
    });
  }
}
