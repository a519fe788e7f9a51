/**
 * The bot handler API: what a bot sees of the world. A bot is data plus one async function; every
 * side effect (sending, reacting, editing, storage) goes through a {@link BotHandler}, so the same
 * bot runs in the standalone bot server (REST), embedded in the chat server (domain services) and
 * in tests (in memory).
 *
 * Wire-shaped objects (the message a bot receives, the message it sends) keep Zulip's snake_case
 * field names, because that is the format bots exchange with the chat API.
 */

/** Why the chat server called the bot ("private_message" is the pre-Zulip-8.0 name). */
export type Trigger = "mention" | "direct_message" | "private_message";

/** One recipient of a direct message, as in `display_recipient` of GET /messages. */
export interface DisplayRecipientUser {
  id: number;
  email: string;
  full_name: string;
  [field: string]: unknown;
}

/** A message in GET /messages format, as the outgoing-webhook payload carries it. */
export interface BotMessage {
  id: number;
  /** For a mention, the content without the leading @-mention of the bot. */
  content: string;
  /** The content as sent, mention included (set by the dispatcher). */
  full_content?: string;
  sender_id: number;
  sender_email: string;
  sender_full_name: string;
  type: "stream" | "private";
  /** The stream name for stream messages; the recipients (bot included) for direct messages. */
  display_recipient: string | DisplayRecipientUser[];
  subject: string;
  stream_id?: number;
  [field: string]: unknown;
}

/** The argument of {@link BotHandler.sendMessage}: POST /api/v1/messages arguments. */
export type OutgoingMessage =
  | {
      type: "stream";
      /** Stream name or id. */
      to: string | number;
      topic?: string;
      /** Legacy name of `topic`, accepted for bots ported from Zulip. */
      subject?: string;
      content: string;
      widget_content?: string;
    }
  | {
      type: "private";
      /** Emails or user ids of the recipients. */
      to: readonly (string | number)[];
      content: string;
      widget_content?: string;
    };

/** The argument of {@link BotHandler.updateMessage}: PATCH /api/v1/messages/{message_id}. */
export interface MessageUpdate {
  message_id: number;
  content: string;
}

/** What the chat server answered to a sent message. */
export interface SentMessage {
  id: number;
}

export interface BotIdentity {
  email: string;
  fullName: string;
  /** The bot's user id when known (used to recognise `@**Name|id**` mentions). */
  userId?: number;
  /** How to mention the bot: `@**<full name>**`. */
  mention: string;
}

/** The bot's own section of the bot config file (or the embedded bot's config data). */
export type BotConfigInfo = Readonly<Record<string, string>>;

/**
 * Per-bot key-value storage. Values are JSON-serialisable; they are stored JSON-encoded (as Zulip's
 * bots do), so a value written by one handler implementation reads back the same in another.
 */
export interface BotStorage {
  /** The stored value; throws {@link BotStorageKeyError} when the key does not exist. */
  get<T = unknown>(key: string): Promise<T>;
  put(key: string, value: unknown): Promise<void>;
  contains(key: string): Promise<boolean>;
  /** Deletes the key; throws {@link BotStorageKeyError} when it does not exist. */
  remove(key: string): Promise<void>;
}

/** A file to upload: its name, bytes (or text) and MIME type. */
export interface UploadFile {
  name: string;
  content: Uint8Array | string;
  contentType?: string;
}

/** Where an uploaded file lives: link to it in a message as `[name](uri)`. */
export interface UploadedFile {
  uri: string;
}

/** Everything a bot may do. Implemented over REST (bot server), in memory (tests) and, later, by the chat server itself (embedded bots). */
export interface BotHandler {
  readonly identity: BotIdentity;
  readonly config: BotConfigInfo;
  readonly storage: BotStorage;
  sendMessage(message: OutgoingMessage): Promise<SentMessage>;
  /** Replies in the same conversation: same stream and topic, or the same direct-message group. */
  sendReply(message: BotMessage, content: string, widgetContent?: string): Promise<SentMessage>;
  react(message: BotMessage, emojiName: string): Promise<void>;
  updateMessage(update: MessageUpdate): Promise<void>;
  /**
   * Stops the bot (Zulip's `bot_handler.quit`): throws `BotQuitError`, which the runner handles.
   * Optional for handlers written before it existed; bots call `quitBot(bot, reason)` from the kit.
   */
  quit?(reason?: string): never;
  /**
   * Uploads a file (`POST /user_uploads`); `UploadsNotSupportedError` where the server has none.
   * Bots call `uploadFile(bot, file)` from the kit (which also covers handlers without it).
   */
  uploadFile?(file: UploadFile): Promise<UploadedFile>;
}
