import { replyTarget } from "./dispatch.js";
import { BotQuitError, BotStorageKeyError } from "./errors.js";
import type {
  BotConfigInfo,
  BotHandler,
  BotIdentity,
  BotMessage,
  BotStorage,
  MessageUpdate,
  OutgoingMessage,
  SentMessage,
  UploadFile,
  UploadedFile,
} from "./types.js";

/** In-memory storage; values go through JSON like the real one, so a bot cannot rely on sharing objects. */
export class MemoryBotStorage implements BotStorage {
  readonly data = new Map<string, string>();

  get<T = unknown>(key: string): Promise<T> {
    const stored = this.data.get(key);
    if (stored === undefined) return Promise.reject(new BotStorageKeyError(key));
    return Promise.resolve(JSON.parse(stored) as T);
  }

  put(key: string, value: unknown): Promise<void> {
    this.data.set(key, JSON.stringify(value ?? null));
    return Promise.resolve();
  }

  contains(key: string): Promise<boolean> {
    return Promise.resolve(this.data.has(key));
  }

  remove(key: string): Promise<void> {
    if (!this.data.delete(key)) return Promise.reject(new BotStorageKeyError(key));
    return Promise.resolve();
  }
}

/** One thing a bot did, in order. */
export type BotAction =
  | { kind: "send"; id: number; message: OutgoingMessage }
  | { kind: "update"; update: MessageUpdate }
  | { kind: "react"; messageId: number; emojiName: string }
  | { kind: "upload"; name: string; size: number };

export interface MemoryBotHandlerOptions {
  identity?: Partial<BotIdentity>;
  config?: BotConfigInfo;
  /** Id given to the first message the bot sends (default 1001). */
  firstMessageId?: number;
}

/** A bot handler that records what the bot does instead of doing it (for tests and dry runs). */
export class MemoryBotHandler implements BotHandler {
  readonly identity: BotIdentity;
  readonly config: BotConfigInfo;
  readonly storage = new MemoryBotStorage();
  readonly actions: BotAction[] = [];
  private nextId: number;
  private readonly firstId: number;

  constructor(options: MemoryBotHandlerOptions = {}) {
    const fullName = options.identity?.fullName ?? "Test Bot";
    this.identity = {
      email: options.identity?.email ?? "test-bot@example.com",
      fullName,
      mention: options.identity?.mention ?? `@**${fullName}**`,
      ...(options.identity?.userId === undefined ? {} : { userId: options.identity.userId }),
    };
    this.config = options.config ?? {};
    this.firstId = options.firstMessageId ?? 1001;
    this.nextId = this.firstId;
  }

  /** Forgets the recorded actions and the storage, and restarts message ids. */
  reset(): void {
    this.actions.length = 0;
    this.storage.data.clear();
    this.nextId = this.firstId;
  }

  sendMessage(message: OutgoingMessage): Promise<SentMessage> {
    const id = this.nextId++;
    this.actions.push({ kind: "send", id, message });
    return Promise.resolve({ id });
  }

  sendReply(message: BotMessage, content: string, widgetContent?: string): Promise<SentMessage> {
    return this.sendMessage(replyTarget(message, content, widgetContent));
  }

  react(message: BotMessage, emojiName: string): Promise<void> {
    this.actions.push({ kind: "react", messageId: message.id, emojiName });
    return Promise.resolve();
  }

  updateMessage(update: MessageUpdate): Promise<void> {
    this.actions.push({ kind: "update", update });
    return Promise.resolve();
  }

  quit(reason?: string): never {
    throw new BotQuitError(reason);
  }

  /** Records the upload; the uri is `/user_uploads/test/<name>`. */
  uploadFile(file: UploadFile): Promise<UploadedFile> {
    const size = typeof file.content === "string" ? Buffer.byteLength(file.content) : file.content.length;
    this.actions.push({ kind: "upload", name: file.name, size });
    return Promise.resolve({ uri: `/user_uploads/test/${encodeURIComponent(file.name)}` });
  }
}
