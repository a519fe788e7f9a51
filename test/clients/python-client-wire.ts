/**
 * The wire behaviour of Zulip's official Python client (`pip install zulip`, python-zulip-api), written
 * here from its documented behaviour because PyPI is out of reach of this project's machines. It sends
 * each request the way that client does, so a test can call "its" methods against a real server:
 *
 * - every URL is `<site>/api/v1/<path>`; HTTP Basic auth (email:api_key) on every request, the
 *   constructor's `GET server_settings` included; a `User-Agent` of
 *   `<client name> (<OS name>; <OS version>)`, the client name defaulting to `ZulipPython/<version>`;
 * - arguments whose value is `None` are dropped; a string is sent as is, any other value
 *   (int, bool, list, dict) as Python's `json.dumps` writes it (`", "` and `": "` separators,
 *   non-ASCII escaped as `\uXXXX`);
 * - GET: the arguments in the query string; any other method: a form-urlencoded body (python-requests'
 *   `quote_plus`), none at all when there are no arguments;
 * - files: a multipart/form-data body, one part per file whose field name is the file's path and
 *   whose filename is the path's base name, with no Content-Type of its own;
 * - the answer is the parsed JSON body whatever the status; a body that isn't JSON becomes
 *   `{"result": "http-error", "status_code": N}`.
 *
 * Every answer is checked against Zulip's OpenAPI schema of its endpoint (test/helpers/openapi.ts)
 * unless the call opts out.
 */
import { randomBytes } from "node:crypto";
import path from "node:path";
import { assertZulipSchema } from "../helpers/openapi.js";

/** The client's version as released on PyPI when this file was written. */
export const PYTHON_CLIENT_VERSION = "0.9.0";

// Answers are JSON objects of any shape; tests read the fields they need.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON bodies of any shape
export type PyResult = Record<string, any>;

export type PyValue = string | number | boolean | null | undefined | PyValue[] | { [k: string]: PyValue };

/** A file as the client sees it: `open(path, "rb")`. */
export interface PyFile {
  /** The path it was opened with (`f.name`). */
  name: string;
  content: Buffer;
}

export interface SentRequest {
  method: string;
  /** Path and query, from `/api/v1/`. */
  path: string;
  headers: Record<string, string>;
  body: Buffer | undefined;
}

/** Python's `json.dumps` with its default separators and `ensure_ascii=True`. */
export function pythonJsonDumps(value: PyValue): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number") return String(value);
  if (typeof value === "string")
    return JSON.stringify(value).replace(
      /[\u0080-\uffff]/g,
      (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"),
    );
  if (Array.isArray(value)) return "[" + value.map(pythonJsonDumps).join(", ") + "]";
  return (
    "{" +
    Object.entries(value)
      .map(([k, v]) => pythonJsonDumps(k) + ": " + pythonJsonDumps(v))
      .join(", ") +
    "}"
  );
}

/** `urllib.parse.quote_plus(s, safe="")`: only letters, digits and `_.-~` stay as they are. */
export function quotePlus(s: string): string {
  return encodeURIComponent(s)
    .replace(/[!'()*]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase())
    .replace(/%20/g, "+");
}

/** `urllib.parse.quote(s, safe="")`, as `get_stream_id` uses for the stream name in its URL. */
export function quote(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase());
}

/** The request dictionary as the client marshals it: `None` dropped, non-strings JSON-encoded. */
export function marshal(request: Record<string, PyValue> | undefined): [string, string][] {
  const out: [string, string][] = [];
  for (const [k, v] of Object.entries(request ?? {})) {
    if (v === null || v === undefined) continue;
    out.push([k, typeof v === "string" ? v : pythonJsonDumps(v)]);
  }
  return out;
}

function urlencode(pairs: [string, string][]): string {
  return pairs.map(([k, v]) => `${quotePlus(k)}=${quotePlus(v)}`).join("&");
}

/** urllib3's multipart encoder: data fields first, then files; parts carry no Content-Type. */
function multipart(fields: [string, string][], files: PyFile[]): { body: Buffer; contentType: string } {
  const boundary = randomBytes(16).toString("hex");
  const esc = (s: string): string => s.replace(/"/g, "%22");
  const chunks: Buffer[] = [];
  for (const [k, v] of fields) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${esc(k)}"\r\n\r\n`));
    chunks.push(Buffer.from(v), Buffer.from("\r\n"));
  }
  for (const f of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${esc(f.name)}"; ` +
          `filename="${esc(path.basename(f.name))}"\r\n\r\n`,
      ),
    );
    chunks.push(f.content, Buffer.from("\r\n"));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

export interface CallOptions {
  files?: PyFile[];
  /** Skip the OpenAPI check, only where a test provokes an answer Zulip's schema doesn't describe. */
  skipSchemaCheck?: boolean;
}

export interface PythonClientConfig {
  site: string;
  email: string;
  apiKey: string;
  /** `client=` of the constructor; the default is `ZulipPython/<version>`. */
  client?: string;
}

/**
 * The transport of one `zulip.Client`; `init` does what the constructor does on the wire (it asks for
 * the server settings and keeps the feature level, which decides how some methods encode arguments).
 */
export class PythonClient {
  readonly sent: SentRequest[] = [];
  zulipVersion = "";
  featureLevel = 0;

  protected constructor(private readonly config: PythonClientConfig) {}

  /** What the constructor asks the server for. */
  protected async init(): Promise<void> {
    const settings = await this.callEndpoint("server_settings", "GET");
    if (typeof settings["zulip_version"] !== "string") throw new Error("no zulip_version in server_settings");
    this.zulipVersion = settings["zulip_version"];
    this.featureLevel =
      typeof settings["zulip_feature_level"] === "number" ? settings["zulip_feature_level"] : 0;
  }

  get userAgent(): string {
    return `${this.config.client ?? `ZulipPython/${PYTHON_CLIENT_VERSION}`} (Ubuntu; 22.04)`;
  }

  /** `call_endpoint(url, method, request, files=...)`. */
  async callEndpoint(
    url: string,
    method = "POST",
    request?: Record<string, PyValue>,
    opts: CallOptions = {},
  ): Promise<PyResult> {
    const pairs = marshal(request);
    const headers: Record<string, string> = {
      "user-agent": this.userAgent,
      accept: "*/*",
      "accept-encoding": "gzip, deflate",
      authorization: "Basic " + Buffer.from(`${this.config.email}:${this.config.apiKey}`).toString("base64"),
    };
    let relative = "v1/" + url;
    let body: Buffer | undefined;
    const files = opts.files ?? [];
    if (method === "GET") {
      if (pairs.length > 0) relative += (relative.includes("?") ? "&" : "?") + urlencode(pairs);
    } else if (files.length > 0) {
      const encoded = multipart(pairs, files);
      body = encoded.body;
      headers["content-type"] = encoded.contentType;
    } else if (pairs.length > 0) {
      body = Buffer.from(urlencode(pairs));
      headers["content-type"] = "application/x-www-form-urlencoded";
    } else {
      headers["content-length"] = "0";
    }
    const apiPath = "/api/" + relative;
    this.sent.push({ method, path: apiPath, headers, body });
    const res = await fetch(this.config.site.replace(/\/+$/, "") + apiPath, {
      method,
      headers,
      ...(body !== undefined ? { body: new Uint8Array(body) } : {}),
    });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    assertZulipSchema(method, apiPath, res.status, parsed, { skipped: opts.skipSchemaCheck === true });
    if (parsed === undefined || parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
      return { msg: "Unexpected error from the server", result: "http-error", status_code: res.status };
    }
    return parsed;
  }

  /** The last request this client sent. */
  lastSent(): SentRequest {
    const last = this.sent.at(-1);
    if (last === undefined) throw new Error("nothing sent yet");
    return last;
  }
}

type Req = Record<string, PyValue>;

/**
 * The public methods of `zulip.Client`, each sending what the Python method sends: same HTTP method,
 * path, argument names and encoding (the request dictionary the method builds, marshalled as above).
 */
export class ZulipClient extends PythonClient {
  /** `zulip.Client(email=…, api_key=…, site=…)`. */
  static async connect(config: PythonClientConfig): Promise<ZulipClient> {
    const c = new ZulipClient(config);
    await c.init();
    return c;
  }

  call_endpoint(url: string, method = "POST", request?: Req, opts?: CallOptions): Promise<PyResult> {
    return this.callEndpoint(url, method, request, opts);
  }

  // Messages
  get_messages(message_filters: Req): Promise<PyResult> {
    return this.callEndpoint("messages", "GET", message_filters);
  }
  check_messages_match_narrow(request: Req): Promise<PyResult> {
    return this.callEndpoint("messages/matches_narrow", "GET", request);
  }
  get_raw_message(message_id: number): Promise<PyResult> {
    return this.callEndpoint(`messages/${message_id}`, "GET");
  }
  send_message(message_data: Req): Promise<PyResult> {
    return this.callEndpoint("messages", "POST", message_data);
  }
  upload_file(file: PyFile): Promise<PyResult> {
    return this.callEndpoint("user_uploads", "POST", undefined, { files: [file] });
  }
  get_attachments(): Promise<PyResult> {
    return this.callEndpoint("attachments", "GET");
  }
  update_message(message_data: Req & { message_id: number }): Promise<PyResult> {
    return this.callEndpoint(`messages/${message_data.message_id}`, "PATCH", message_data);
  }
  delete_message(message_id: number): Promise<PyResult> {
    return this.callEndpoint(`messages/${message_id}`, "DELETE");
  }
  update_message_flags(update_data: Req): Promise<PyResult> {
    return this.callEndpoint("messages/flags", "POST", update_data);
  }
  mark_all_as_read(): Promise<PyResult> {
    return this.callEndpoint("mark_all_as_read", "POST");
  }
  mark_stream_as_read(stream_id: number): Promise<PyResult> {
    return this.callEndpoint("mark_stream_as_read", "POST", { stream_id });
  }
  mark_topic_as_read(stream_id: number, topic_name: string): Promise<PyResult> {
    return this.callEndpoint("mark_topic_as_read", "POST", { stream_id, topic_name });
  }
  get_message_history(message_id: number): Promise<PyResult> {
    return this.callEndpoint(`messages/${message_id}/history`, "GET");
  }
  add_reaction(reaction_data: Req & { message_id: number | string }): Promise<PyResult> {
    return this.callEndpoint(`messages/${String(reaction_data.message_id)}/reactions`, "POST", reaction_data);
  }
  remove_reaction(reaction_data: Req & { message_id: number | string }): Promise<PyResult> {
    return this.callEndpoint(
      `messages/${String(reaction_data.message_id)}/reactions`,
      "DELETE",
      reaction_data,
    );
  }
  render_message(request?: Req): Promise<PyResult> {
    return this.callEndpoint("messages/render", "POST", request);
  }

  // Custom emoji, linkifiers, profile fields, server settings
  get_realm_emoji(): Promise<PyResult> {
    return this.callEndpoint("realm/emoji", "GET");
  }
  upload_custom_emoji(emoji_name: string, file_obj: PyFile): Promise<PyResult> {
    return this.callEndpoint(`realm/emoji/${emoji_name}`, "POST", undefined, { files: [file_obj] });
  }
  delete_custom_emoji(emoji_name: string): Promise<PyResult> {
    return this.callEndpoint(`realm/emoji/${emoji_name}`, "DELETE");
  }
  get_realm_linkifiers(): Promise<PyResult> {
    return this.callEndpoint("realm/linkifiers", "GET");
  }
  /** Below feature level 176 the template goes out as `url_format_string`. */
  add_realm_filter(pattern: string, url_template: string): Promise<PyResult> {
    const data: Req = { pattern };
    if (this.featureLevel >= 176) data["url_template"] = url_template;
    else data["url_format_string"] = url_template;
    return this.callEndpoint("realm/filters", "POST", data);
  }
  remove_realm_filter(filter_id: number): Promise<PyResult> {
    return this.callEndpoint(`realm/filters/${filter_id}`, "DELETE");
  }
  get_realm_profile_fields(): Promise<PyResult> {
    return this.callEndpoint("realm/profile_fields", "GET");
  }
  create_realm_profile_field(request: Req): Promise<PyResult> {
    return this.callEndpoint("realm/profile_fields", "POST", request);
  }
  remove_realm_profile_field(field_id: number): Promise<PyResult> {
    return this.callEndpoint(`realm/profile_fields/${field_id}`, "DELETE");
  }
  reorder_realm_profile_fields(request: Req): Promise<PyResult> {
    return this.callEndpoint("realm/profile_fields", "PATCH", request);
  }
  update_realm_profile_field(field_id: number, request: Req): Promise<PyResult> {
    return this.callEndpoint(`realm/profile_fields/${field_id}`, "PATCH", request);
  }
  get_server_settings(): Promise<PyResult> {
    return this.callEndpoint("server_settings", "GET");
  }

  // Event queues
  get_events(request: Req): Promise<PyResult> {
    return this.callEndpoint("events", "GET", request);
  }
  /** `register(event_types=None, narrow=None, **kwargs)`: narrow defaults to `[]`. */
  register(event_types?: string[] | null, narrow?: PyValue[] | null, kwargs: Req = {}): Promise<PyResult> {
    return this.callEndpoint("register", "POST", { event_types, narrow: narrow ?? [], ...kwargs });
  }
  deregister(queue_id: string): Promise<PyResult> {
    return this.callEndpoint("events", "DELETE", { queue_id });
  }
  /**
   * `call_on_each_event`'s loop: register (again when the queue is gone), long-poll `get_events`, skip
   * heartbeats, hand each event to the callback. The Python loop runs forever; this one stops once
   * `until` says so.
   */
  async call_on_each_event(
    callback: (event: PyResult) => void,
    event_types: string[] | null,
    narrow: PyValue[] | null,
    until: () => boolean,
  ): Promise<void> {
    let queueId: string | undefined;
    let lastEventId = -1;
    while (!until()) {
      if (queueId === undefined) {
        const res = await this.register(event_types, narrow);
        if (String(res["result"]).includes("error"))
          throw new Error(`register failed: ${JSON.stringify(res)}`);
        queueId = res["queue_id"] as string;
        lastEventId = res["last_event_id"] as number;
      }
      const res = await this.get_events({ queue_id: queueId, last_event_id: lastEventId });
      if (String(res["result"]).includes("error")) {
        if (res["code"] === "BAD_EVENT_QUEUE_ID") queueId = undefined;
        else throw new Error(`get_events failed: ${JSON.stringify(res)}`);
        continue;
      }
      for (const event of res["events"] as PyResult[]) {
        lastEventId = Math.max(lastEventId, Number(event["id"]));
        if (event["type"] === "heartbeat") continue;
        callback(event);
      }
    }
  }
  call_on_each_message(callback: (message: PyResult) => void, until: () => boolean): Promise<void> {
    return this.call_on_each_event(
      (event) => {
        if (event["type"] === "message") callback(event["message"] as PyResult);
      },
      ["message"],
      null,
      until,
    );
  }

  // Users
  get_profile(request?: Req): Promise<PyResult> {
    return this.callEndpoint("users/me", "GET", request);
  }
  get_user_presence(email: string): Promise<PyResult> {
    return this.callEndpoint(`users/${email}/presence`, "GET");
  }
  get_realm_presence(): Promise<PyResult> {
    return this.callEndpoint("realm/presence", "GET");
  }
  update_presence(request: Req): Promise<PyResult> {
    return this.callEndpoint("users/me/presence", "POST", request);
  }
  get_user_by_id(user_id: number, request: Req = {}): Promise<PyResult> {
    return this.callEndpoint(`users/${user_id}`, "GET", request);
  }
  deactivate_user_by_id(user_id: number): Promise<PyResult> {
    return this.callEndpoint(`users/${user_id}`, "DELETE");
  }
  reactivate_user_by_id(user_id: number): Promise<PyResult> {
    return this.callEndpoint(`users/${user_id}/reactivate`, "POST");
  }
  /** Below feature level 106 `full_name` went out JSON-encoded twice. */
  update_user_by_id(user_id: number, request: Req): Promise<PyResult> {
    const data = { ...request };
    if (typeof data["full_name"] === "string" && this.featureLevel < 106)
      data["full_name"] = pythonJsonDumps(data["full_name"]);
    return this.callEndpoint(`users/${user_id}`, "PATCH", data);
  }
  get_users(request?: Req): Promise<PyResult> {
    return this.callEndpoint("users", "GET", request);
  }
  get_members(request?: Req): Promise<PyResult> {
    return this.get_users(request);
  }
  create_user(request: Req): Promise<PyResult> {
    return this.callEndpoint("users", "POST", request);
  }
  get_alert_words(): Promise<PyResult> {
    return this.callEndpoint("users/me/alert_words", "GET");
  }
  add_alert_words(alert_words: string[]): Promise<PyResult> {
    return this.callEndpoint("users/me/alert_words", "POST", { alert_words });
  }
  remove_alert_words(alert_words: string[]): Promise<PyResult> {
    return this.callEndpoint("users/me/alert_words", "DELETE", { alert_words });
  }
  update_notification_settings(notification_settings: Req): Promise<PyResult> {
    return this.callEndpoint("settings/notifications", "PATCH", notification_settings);
  }
  set_typing_status(request: Req): Promise<PyResult> {
    return this.callEndpoint("typing", "POST", request);
  }

  // Streams and subscriptions
  get_streams(request: Req = {}): Promise<PyResult> {
    return this.callEndpoint("streams", "GET", request);
  }
  update_stream(stream_data: Req & { stream_id: number }): Promise<PyResult> {
    return this.callEndpoint(`streams/${stream_data.stream_id}`, "PATCH", stream_data);
  }
  delete_stream(stream_id: number): Promise<PyResult> {
    return this.callEndpoint(`streams/${stream_id}`, "DELETE");
  }
  add_default_stream(stream_id: number): Promise<PyResult> {
    return this.callEndpoint("default_streams", "POST", { stream_id });
  }
  get_subscriptions(request?: Req): Promise<PyResult> {
    return this.callEndpoint("users/me/subscriptions", "GET", request);
  }
  list_subscriptions(request?: Req): Promise<PyResult> {
    return this.get_subscriptions(request);
  }
  add_subscriptions(streams: Req[], kwargs: Req = {}): Promise<PyResult> {
    return this.callEndpoint("users/me/subscriptions", "POST", { subscriptions: streams, ...kwargs });
  }
  remove_subscriptions(streams: string[], principals?: string[] | number[]): Promise<PyResult> {
    const request: Req = { subscriptions: streams };
    if (principals !== undefined) request["principals"] = principals;
    return this.callEndpoint("users/me/subscriptions", "DELETE", request);
  }
  get_subscription_status(user_id: number, stream_id: number): Promise<PyResult> {
    return this.callEndpoint(`users/${user_id}/subscriptions/${stream_id}`, "GET");
  }
  mute_topic(request: Req): Promise<PyResult> {
    return this.callEndpoint("users/me/subscriptions/muted_topics", "PATCH", request);
  }
  update_subscription_settings(subscription_data: Req[]): Promise<PyResult> {
    return this.callEndpoint("users/me/subscriptions/properties", "POST", { subscription_data });
  }
  get_stream_id(stream: string): Promise<PyResult> {
    return this.callEndpoint(`get_stream_id?stream=${quote(stream)}`, "GET");
  }
  get_stream_topics(stream_id: number): Promise<PyResult> {
    return this.callEndpoint(`users/me/${stream_id}/topics`, "GET");
  }
  get_stream_email_address(stream_id: number): Promise<PyResult> {
    return this.callEndpoint(`streams/${stream_id}/email_address`, "GET");
  }
  /** Looks the stream's id up by name first, then sends the same arguments to the members URL. */
  async get_subscribers(request: Req & { stream: string }): Promise<PyResult> {
    const response = await this.get_stream_id(request.stream);
    if (response["result"] === "error") return response;
    return this.callEndpoint(`streams/${Number(response["stream_id"])}/members`, "GET", request);
  }

  // User groups
  get_user_groups(): Promise<PyResult> {
    return this.callEndpoint("user_groups", "GET");
  }
  create_user_group(group_data: Req): Promise<PyResult> {
    return this.callEndpoint("user_groups/create", "POST", group_data);
  }
  update_user_group(group_data: Req & { group_id: number }): Promise<PyResult> {
    return this.callEndpoint(`user_groups/${group_data.group_id}`, "PATCH", group_data);
  }
  remove_user_group(group_id: number): Promise<PyResult> {
    return this.callEndpoint(`user_groups/${group_id}`, "DELETE");
  }
  update_user_group_members(user_group_id: number, group_data: Req): Promise<PyResult> {
    return this.callEndpoint(`user_groups/${user_group_id}/members`, "POST", group_data);
  }

  // Bot storage
  update_storage(request: Req): Promise<PyResult> {
    return this.callEndpoint("bot_storage", "PUT", request);
  }
  get_storage(request?: Req): Promise<PyResult> {
    return this.callEndpoint("bot_storage", "GET", request);
  }

  /**
   * `move_topic(stream, new_stream, topic, new_topic=None, message_id=None, propagate_mode="change_all",
   * notify_old_topic=True, notify_new_topic=True)`: both stream ids by name, the newest message of the
   * topic when no message id is given, then one PATCH of that message.
   */
  async move_topic(
    stream: string,
    new_stream: string,
    topic: string,
    opts: {
      new_topic?: string;
      message_id?: number;
      propagate_mode?: string;
      notify_old_topic?: boolean;
      notify_new_topic?: boolean;
    } = {},
  ): Promise<PyResult> {
    let result = await this.get_stream_id(stream);
    if (result["result"] !== "success") return result;
    const streamId = result["stream_id"] as number;
    result = await this.get_stream_id(new_stream);
    if (result["result"] !== "success") return result;
    const newStreamId = result["stream_id"] as number;
    const propagateMode = opts.propagate_mode ?? "change_all";
    let messageId = opts.message_id;
    if (messageId === undefined) {
      if (propagateMode !== "change_all") throw new Error("A message_id must be provided");
      result = await this.get_messages({
        anchor: "newest",
        narrow: [
          { operator: "stream", operand: streamId },
          { operator: "topic", operand: topic },
        ],
        num_before: 1,
        num_after: 0,
      });
      if (result["result"] !== "success") return result;
      const messages = result["messages"] as PyResult[];
      if (messages.length === 0) return { result: "error", msg: `No messages found in topic: "${topic}"` };
      messageId = messages[0]!["id"] as number;
    }
    return this.callEndpoint(`messages/${messageId}`, "PATCH", {
      stream_id: newStreamId,
      propagate_mode: propagateMode,
      topic: opts.new_topic,
      send_notification_to_old_thread: opts.notify_old_topic ?? true,
      send_notification_to_new_thread: opts.notify_new_topic ?? true,
    });
  }
}
