import got from "got";
import { replyTarget } from "./dispatch.js";
import { BotRateLimitError, BotStorageError, BotStorageKeyError, ChatApiError } from "./errors.js";
import type {
  BotConfigInfo,
  BotHandler,
  BotIdentity,
  BotMessage,
  BotStorage,
  MessageUpdate,
  OutgoingMessage,
  SentMessage,
} from "./types.js";

/** A bot's API credentials: the `email`, `key` and `site` of a zuliprc or botserverrc section. */
export interface ChatApiCredentials {
  email: string;
  key: string;
  site: string;
}

export interface ChatApiClientOptions {
  userAgent?: string;
  /** Per-request timeout (default 15 s, as Zulip's client). */
  timeoutMs?: number;
}

type ApiArgs = Record<string, unknown>;
type ApiResponse = Record<string, unknown>;

/**
 * `<site>/api/v1`, as Zulip's client builds it: a missing scheme becomes `https://` (`http://` for
 * localhost), a trailing slash goes, `/api` is appended when absent.
 */
export function apiBaseUrl(site: string): string {
  let url = site.trim();
  if (!/^https?:\/\//i.test(url)) {
    url = (/^(localhost|127\.|\[::1\])/i.test(url) ? "http://" : "https://") + url;
  }
  url = url.replace(/\/+$/, "");
  if (!url.endsWith("/api")) url += "/api";
  return `${url}/v1`;
}

/** Form/query encoding of the chat API: strings raw, everything else JSON, undefined dropped. */
export function encodeApiArgs(args: ApiArgs): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(args)) {
    if (value === undefined) continue;
    out[name] = typeof value === "string" ? value : JSON.stringify(value);
  }
  return out;
}

/** A minimal chat REST API client: HTTP Basic email:key, form-encoded arguments, JSON answers. */
export class ChatApiClient {
  readonly baseUrl: string;

  constructor(
    readonly credentials: ChatApiCredentials,
    private readonly options: ChatApiClientOptions = {},
  ) {
    this.baseUrl = apiBaseUrl(credentials.site);
  }

  /** Calls `<site>/api/v1/<endpoint>`; resolves to the success body, throws {@link ChatApiError} otherwise. */
  async call(
    method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE",
    endpoint: string,
    args: ApiArgs = {},
    { authenticated = true }: { authenticated?: boolean } = {},
  ): Promise<ApiResponse> {
    const url = `${this.baseUrl}/${endpoint}`;
    const encoded = encodeApiArgs(args);
    let status: number;
    let text: string;
    try {
      const response = await got(url, {
        method,
        ...(method === "GET" ? { searchParams: encoded } : { form: encoded }),
        ...(authenticated ? { username: this.credentials.email, password: this.credentials.key } : {}),
        headers: { "user-agent": this.options.userAgent ?? "ZulipBotServer/0.1" },
        timeout: { request: this.options.timeoutMs ?? 15_000 },
        retry: { limit: 0 },
        throwHttpErrors: false,
        followRedirect: false,
      });
      status = response.statusCode;
      text = response.body;
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      throw new ChatApiError(`Cannot reach the chat server at ${url}: ${reason}`, 0, undefined, {
        cause: err,
      });
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new ChatApiError(
        `Unexpected error from the server (HTTP ${status} from ${method} ${url})`,
        status,
      );
    }
    if (typeof body !== "object" || body === null || Array.isArray(body)) {
      throw new ChatApiError(
        `Unexpected error from the server (HTTP ${status} from ${method} ${url})`,
        status,
      );
    }
    const result = body as ApiResponse;
    if (status >= 300 || result.result !== "success") {
      const msg = typeof result.msg === "string" && result.msg !== "" ? result.msg : `HTTP ${status}`;
      const code = typeof result.code === "string" ? result.code : undefined;
      throw new ChatApiError(msg, status, code);
    }
    return result;
  }
}

function sentMessage(response: ApiResponse): SentMessage {
  if (typeof response.id !== "number") {
    throw new ChatApiError("The chat server did not return the id of the sent message", 200);
  }
  return { id: response.id };
}

/** Bot storage over `PUT/GET/DELETE /api/v1/bot_storage`; values are stored JSON-encoded. */
export class RestBotStorage implements BotStorage {
  constructor(private readonly client: ChatApiClient) {}

  async get<T = unknown>(key: string): Promise<T> {
    const stored = await this.fetch(key);
    if (stored === undefined) throw new BotStorageKeyError(key);
    return JSON.parse(stored) as T;
  }

  async put(key: string, value: unknown): Promise<void> {
    try {
      await this.client.call("PUT", "bot_storage", { storage: { [key]: JSON.stringify(value ?? null) } });
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      throw new BotStorageError(`Error updating state: ${reason}`, { cause: err });
    }
  }

  async contains(key: string): Promise<boolean> {
    return (await this.fetch(key)) !== undefined;
  }

  async remove(key: string): Promise<void> {
    try {
      await this.client.call("DELETE", "bot_storage", { keys: [key] });
    } catch (err) {
      if (isMissingKey(err)) throw new BotStorageKeyError(key);
      throw err;
    }
  }

  /** The raw stored string, or undefined when the key does not exist. */
  private async fetch(key: string): Promise<string | undefined> {
    let response: ApiResponse;
    try {
      response = await this.client.call("GET", "bot_storage", { keys: [key] });
    } catch (err) {
      if (isMissingKey(err)) return undefined;
      throw err;
    }
    const storage = response.storage as Record<string, unknown> | undefined;
    const value = storage?.[key];
    return typeof value === "string" ? value : undefined;
  }
}

/** The chat server answers a request naming a missing key with a 400 ("Key does not exist."). */
function isMissingKey(err: unknown): boolean {
  return err instanceof ChatApiError && err.status === 400;
}

/**
 * Zulip's bot-side guard against reply loops: at most `limit` sends/edits per `windowMs` (20 in 5 s).
 * Zulip exits the whole process when it is hit; here the one call fails with {@link BotRateLimitError}.
 */
export class RateLimit {
  private readonly times: number[] = [];

  constructor(
    readonly limit = 20,
    readonly windowMs = 5_000,
    private readonly now: () => number = Date.now,
  ) {}

  take(): void {
    const now = this.now();
    while (this.times.length > 0 && now - (this.times[0] ?? now) >= this.windowMs) this.times.shift();
    if (this.times.length >= this.limit) throw new BotRateLimitError(this.limit, this.windowMs);
    this.times.push(now);
  }
}

/** The bot handler of the standalone bot server: every action is a call to the chat REST API. */
export class RestBotHandler implements BotHandler {
  readonly storage: BotStorage;
  private readonly rateLimit: RateLimit;

  constructor(
    readonly client: ChatApiClient,
    readonly identity: BotIdentity,
    readonly config: BotConfigInfo = {},
    options: { rateLimit?: RateLimit } = {},
  ) {
    this.storage = new RestBotStorage(client);
    this.rateLimit = options.rateLimit ?? new RateLimit();
  }

  async sendMessage(message: OutgoingMessage): Promise<SentMessage> {
    this.rateLimit.take();
    return sentMessage(await this.client.call("POST", "messages", { ...message }));
  }

  async sendReply(message: BotMessage, content: string, widgetContent?: string): Promise<SentMessage> {
    return this.sendMessage(replyTarget(message, content, widgetContent));
  }

  /** Adds an emoji reaction; reacting again with the same emoji is not an error (it is already there). */
  async react(message: BotMessage, emojiName: string): Promise<void> {
    try {
      await this.client.call("POST", `messages/${message.id}/reactions`, { emoji_name: emojiName });
    } catch (err) {
      if (err instanceof ChatApiError && err.code === "REACTION_ALREADY_EXISTS") return;
      throw err;
    }
  }

  async updateMessage(update: MessageUpdate): Promise<void> {
    this.rateLimit.take();
    await this.client.call("PATCH", `messages/${update.message_id}`, { content: update.content });
  }
}

/**
 * Asks the chat server who the bot is (`GET /api/v1/users/me` with the bot's credentials), as
 * Zulip's bot server does at start-up; fails with {@link ChatApiError} when email or key is wrong.
 */
export async function fetchBotIdentity(client: ChatApiClient): Promise<BotIdentity> {
  const me = await client.call("GET", "users/me");
  const fullName = typeof me.full_name === "string" ? me.full_name : "";
  const email = typeof me.email === "string" ? me.email : client.credentials.email;
  const userId = typeof me.user_id === "number" ? me.user_id : undefined;
  return { email, fullName, mention: `@**${fullName}**`, ...(userId === undefined ? {} : { userId }) };
}
