import { propagationHeaders } from "../../src/lib/logger.js";
import { SpanKind, withSpan } from "../../src/lib/tracing.js";
import { replyTarget } from "./dispatch.js";
import {
  BotQuitError,
  BotStorageError,
  BotStorageKeyError,
  ChatApiError,
  UploadsNotSupportedError,
} from "./errors.js";
import { DEFAULT_RETRY_POLICY, TokenBucket, backoffMs, parseRetryAfter, realSleep } from "./pacing.js";
import type { RetryPolicy, Sleep } from "./pacing.js";
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

/** A bot's API credentials: the `email`, `key` and `site` of a zuliprc or botserverrc section. */
export interface ChatApiCredentials {
  email: string;
  key: string;
  site: string;
}

/** What a client reports about failed calls (the bot server counts them in its metrics). */
export interface ChatApiObserver {
  /** A call failed (every failed attempt, retried or not). */
  onError?(info: { method: string; endpoint: string; status: number; code: string | undefined }): void;
  /** A call succeeded. */
  onSuccess?(info: { method: string; endpoint: string }): void;
  /** A failed attempt will be retried after `delayMs`. */
  onRetry?(info: { method: string; endpoint: string; status: number; retry: number; delayMs: number }): void;
}

export interface ChatApiClientOptions {
  userAgent?: string;
  /** Per-request timeout (default 15 s, as Zulip's client). */
  timeoutMs?: number;
  /**
   * Retries of transient failures: the chat server unreachable, 5xx, and 429 (after its
   * `Retry-After`). Default {@link DEFAULT_RETRY_POLICY}; {@link NO_RETRY} turns them off.
   */
  retry?: RetryPolicy;
  observer?: ChatApiObserver;
  sleep?: Sleep;
}

/** Statuses worth another attempt: unreachable (0), timeouts, rate limits and server-side failures. */
const TRANSIENT_STATUSES = new Set([0, 408, 429, 500, 502, 503, 504]);

/** Whether a failed call may succeed if tried again later. */
export function isTransientChatApiError(err: unknown): err is ChatApiError {
  return err instanceof ChatApiError && TRANSIENT_STATUSES.has(err.status);
}

type ApiArgs = Record<string, unknown>;
type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
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

  /**
   * Calls `<site>/api/v1/<endpoint>`; resolves to the success body, throws {@link ChatApiError}
   * otherwise. Transient failures are retried with backoff (a 429 after its `Retry-After`) as the
   * client's retry policy allows; `retry` overrides it for one call.
   */
  async call(
    method: HttpMethod,
    endpoint: string,
    args: ApiArgs = {},
    options: { authenticated?: boolean; retry?: RetryPolicy; signal?: AbortSignal } = {},
  ): Promise<ApiResponse> {
    const policy = options.retry ?? this.options.retry ?? DEFAULT_RETRY_POLICY;
    const sleep = this.options.sleep ?? realSleep;
    for (let retry = 1; ; retry++) {
      try {
        const result = await this.callOnce(
          method,
          endpoint,
          args,
          options.authenticated ?? true,
          options.signal,
        );
        this.options.observer?.onSuccess?.({ method, endpoint });
        return result;
      } catch (err) {
        if (!(err instanceof ChatApiError)) throw err;
        this.options.observer?.onError?.({ method, endpoint, status: err.status, code: err.code });
        if (!isTransientChatApiError(err) || retry > policy.maxRetries) throw err;
        const delayMs =
          err.retryAfterMs === undefined
            ? backoffMs(policy, retry)
            : Math.min(err.retryAfterMs, Math.max(policy.maxDelayMs, 1000));
        this.options.observer?.onRetry?.({ method, endpoint, status: err.status, retry, delayMs });
        await sleep(delayMs);
      }
    }
  }

  /**
   * Uploads a file (`POST /api/v1/user_uploads`, multipart field `file`) → its `uri`. A chat server
   * that has no such endpoint (404/405) gives {@link UploadsNotSupportedError}.
   */
  async upload(file: UploadFile): Promise<UploadedFile> {
    const url = `${this.baseUrl}/user_uploads`;
    const form = new FormData();
    const bytes = typeof file.content === "string" ? Buffer.from(file.content, "utf8") : file.content;
    form.append(
      "file",
      new Blob([new Uint8Array(bytes)], { type: file.contentType ?? "application/octet-stream" }),
      file.name,
    );
    let status: number;
    let text: string;
    const { default: got } = await import("got");
    try {
      const response = await withSpan("Zulip API POST user_uploads", { kind: SpanKind.CLIENT }, () =>
        got.post(url, {
          body: form,
          username: this.credentials.email,
          password: this.credentials.key,
          headers: { "user-agent": this.options.userAgent ?? "ZulipBotServer/0.1", ...propagationHeaders() },
          timeout: { request: this.options.timeoutMs ?? 15_000 },
          retry: { limit: 0 },
          throwHttpErrors: false,
          followRedirect: false,
        }),
      );
      status = response.statusCode;
      text = response.body;
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      throw new ChatApiError(`Cannot reach the chat server at ${url}: ${reason}`, 0, undefined, {
        cause: err,
      });
    }
    if (status === 404 || status === 405) throw new UploadsNotSupportedError(this.credentials.site);
    let body: Record<string, unknown> | undefined;
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      body = undefined;
    }
    if (status >= 300 || body?.result !== "success") {
      const msg = typeof body?.msg === "string" ? body.msg : `HTTP ${status}`;
      throw new ChatApiError(msg, status, typeof body?.code === "string" ? body.code : undefined);
    }
    const uri = typeof body.uri === "string" ? body.uri : typeof body.url === "string" ? body.url : "";
    if (uri === "") throw new ChatApiError("The chat server did not return the uri of the upload", status);
    return { uri };
  }

  private async callOnce(
    method: HttpMethod,
    endpoint: string,
    args: ApiArgs,
    authenticated: boolean,
    signal?: AbortSignal,
  ): Promise<ApiResponse> {
    const url = `${this.baseUrl}/${endpoint}`;
    const encoded = encodeApiArgs(args);
    let status: number;
    let text: string;
    let retryAfter: string | undefined;
    const { default: got } = await import("got");
    try {
      const response = await withSpan(`Zulip API ${method}`, { kind: SpanKind.CLIENT }, () =>
        got(url, {
          method,
          ...(method === "GET" ? { searchParams: encoded } : { form: encoded }),
          ...(authenticated ? { username: this.credentials.email, password: this.credentials.key } : {}),
          headers: { "user-agent": this.options.userAgent ?? "ZulipBotServer/0.1", ...propagationHeaders() },
          timeout: { request: this.options.timeoutMs ?? 15_000 },
          retry: { limit: 0 },
          throwHttpErrors: false,
          followRedirect: false,
          ...(signal === undefined ? {} : { signal }),
        }),
      );
      status = response.statusCode;
      text = response.body;
      retryAfter = response.headers["retry-after"];
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      throw new ChatApiError(`Cannot reach the chat server at ${url}: ${reason}`, 0, undefined, {
        cause: err,
      });
    }
    const retryAfterMs = status === 429 || status === 503 ? parseRetryAfter(retryAfter) : undefined;
    const extra = retryAfterMs === undefined ? {} : { retryAfterMs };
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    if (typeof body !== "object" || body === null || Array.isArray(body)) {
      throw new ChatApiError(
        `Unexpected error from the server (HTTP ${status} from ${method} ${url})`,
        status,
        undefined,
        extra,
      );
    }
    const result = body as ApiResponse;
    if (status >= 300 || result.result !== "success") {
      const msg = typeof result.msg === "string" && result.msg !== "" ? result.msg : `HTTP ${status}`;
      const code = typeof result.code === "string" ? result.code : undefined;
      throw new ChatApiError(msg, status, code, extra);
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

/** The bot handler of the standalone bot server: every action is a call to the chat REST API. */
export class RestBotHandler implements BotHandler {
  readonly storage: BotStorage;
  /** Paces sent and edited messages (waits for a token; never refuses). */
  readonly pacing: TokenBucket;

  constructor(
    readonly client: ChatApiClient,
    readonly identity: BotIdentity,
    readonly config: BotConfigInfo = {},
    options: { pacing?: TokenBucket } = {},
  ) {
    this.storage = new RestBotStorage(client);
    this.pacing = options.pacing ?? new TokenBucket();
  }

  async sendMessage(message: OutgoingMessage): Promise<SentMessage> {
    await this.pacing.take();
    return sentMessage(await this.client.call("POST", "messages", { ...message }));
  }

  async sendReply(message: BotMessage, content: string, widgetContent?: string): Promise<SentMessage> {
    return this.sendMessage(replyTarget(message, content, widgetContent));
  }

  quit(reason?: string): never {
    throw new BotQuitError(reason);
  }

  /** `POST /api/v1/user_uploads`; a server without uploads gives {@link UploadsNotSupportedError}. */
  async uploadFile(file: UploadFile): Promise<UploadedFile> {
    return this.client.upload(file);
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
    await this.pacing.take();
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
