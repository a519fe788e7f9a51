import { json } from "./readers.js";
import type { Wild } from "./wild.js";

/** One message an integration wants to send. The pipeline applies the URL's `topic` override. */
export interface WebhookMessage {
  topic: string;
  body: string;
  /**
   * Send privately to a realm user guessed from these names instead (TeamCity's personal builds):
   * the first name matching an active user's full name (case-insensitive) or the start of their
   * email, lowest user id first. Nobody matches → the message is not sent.
   */
  directTo?: readonly string[];
  /**
   * Post to this stream (a name, used as is) instead of the URL's `stream` (Slack's
   * `channels_map_to_topics=0`: a stream per Slack channel). The URL's `topic` still applies.
   */
  stream?: string;
}

/** What a handler returns: a message, several, or null to stay deliberately silent (200, nothing sent). */
export type HandlerResult = WebhookMessage | WebhookMessage[] | null;

/**
 * A handler's answer with extra fields for the success response (Slack-compatible senders expect
 * `ok: true`): `reply({ ok: true }, message)`.
 */
export interface Reply {
  readonly reply: Readonly<Record<string, unknown>>;
  readonly result: HandlerResult;
}

/** Wraps a handler result with extra fields of the success response. */
export function reply(fields: Readonly<Record<string, unknown>>, result: HandlerResult): Reply {
  return { reply: fields, result };
}

/** Query-string and form parameters merged (form wins), as strings. */
export type Params = Readonly<Record<string, string>>;

/** Everything a handler may know about the request besides the payload. Handlers do no I/O. */
export interface WebhookContext<O = Record<string, unknown>> {
  /** Parsed values of the integration's declared options (absent when not given and no default). */
  options: Partial<O>;
  /** The URL's `topic` parameter, when given: the pipeline applies the override itself. */
  customTopic: string | undefined;
  /** The classified event name (a key of `events`). */
  event: string;
  /** The raw event header value, when the integration declares one and the request has it. */
  eventHeader: string | undefined;
  /** Case-insensitive request header lookup. */
  header(name: string): string | undefined;
  /** Query-string and form parameters (strings), for integrations that read extra ones. */
  params: Params;
  /** The request body as text (Python number formatting in the JSON formatter, raw XML, …). */
  rawBody: string;
  /** The full name of the realm's active user with this email, or undefined (Zulip's Jira names assignees). */
  userFullName(email: string): string | undefined;
  /**
   * Whether `only_events` / `exclude_events` let this name through: for payloads that hold several
   * items each filtered on its own (PagerDuty incidents, Grafana alerts; their event is unfiltered).
   */
  wanted(name: string): boolean;
  /** The bot's config_data entries (loaded on first use; the template integration's templates). */
  botConfig(): Readonly<Record<string, string>>;
}

export type Handler<O = Record<string, unknown>> = (
  payload: Wild,
  ctx: WebhookContext<O>,
) => HandlerResult | Reply;

/** What the classifier sees. */
export interface ClassifyInput<O = Record<string, unknown>> {
  /** The event header's value (undefined when the integration has none or it is optional and absent). */
  header: string | undefined;
  payload: Wild;
  options: Partial<O>;
  params: Params;
  /** Any request header, case-insensitive. */
  httpHeader(name: string): string | undefined;
}

/** A declared option: a URL/config parameter with a label and a parser that validates it. */
export interface OptionSpec<T> {
  label: string;
  /** Throws an Error whose message says what is wrong (the pipeline names the option). */
  parse: (raw: string) => T;
  default?: T;
}

/** The parts of a request a body reader needs. Header names are lower-case. */
export interface BodyInput {
  rawBody: Buffer;
  contentType: string | undefined;
  /** Parsed form fields when the body was urlencoded or multipart. */
  form: Params | undefined;
  params: Params;
}

/** How an integration's payload is read from the request: `json()`, `form()`, `jsonOrForm()`, `payloadField()`. */
export interface BodyReader {
  readonly kind: string;
  read(input: BodyInput): Wild;
}

/** The request as signature schemes see it. */
export interface SignedRequest {
  /** The exact body bytes. */
  rawBody: Buffer;
  header(name: string): string | undefined;
  /** The absolute URL as the sender called it (scheme, Host, path and query). */
  url: string;
  /** The body read with the integration's reader (for signatures inside the payload). */
  payload?: () => Wild;
}

/** How a service signs its requests; verified over the raw bytes, in constant time, by the pipeline. */
export type SignatureScheme =
  /** HMAC of the signed content (default: the raw body) in `header`, optionally prefixed ("sha256="). */
  | {
      kind: "hmac";
      header: string;
      algorithm: "sha1" | "sha256" | "sha512" | "md5";
      encoding?: "hex" | "base64";
      prefix?: string;
      signedContent?: (req: SignedRequest) => string | Buffer;
      /** A header with the signed UNIX timestamp, rejected when older/newer than `toleranceSeconds`. */
      timestampHeader?: string;
      toleranceSeconds?: number;
    }
  /** A shared token sent verbatim in a header (GitLab's X-Gitlab-Token), optionally prefixed. */
  | { kind: "token"; header: string; prefix?: string }
  /** Stripe's `t=<ts>,v1=<hex hmac-sha256 of "<ts>.<body>">`, with a tolerance in seconds. */
  | { kind: "timestamped-hmac"; header: string; toleranceSeconds: number }
  /** Netlify's JWS (HS256) whose `sha256` claim is the hex SHA-256 of the body. */
  | { kind: "jws"; header: string }
  /**
   * An HMAC sent inside the payload over some of its fields (Dropbox Sign's `event.event_hash`,
   * HMAC-SHA256 of `event_time + event_type` with the API key): `read` returns the signature (undefined
   * when absent) and the signed content, from the payload the integration's reader gives.
   */
  | {
      kind: "payload-hmac";
      algorithm: "sha1" | "sha256" | "sha512" | "md5";
      encoding?: "hex" | "base64";
      /** Where the signature is, for error texts ("event.event_hash"). */
      field: string;
      read: (payload: Wild) => { signature: string | undefined; content: string };
    };

/** A set-up request (Dropbox `GET ?challenge=`, Trello `HEAD`, Slack `url_verification` POST). */
export interface HandshakeRequest {
  method: "GET" | "HEAD" | "POST";
  params: Params;
  header(name: string): string | undefined;
  /** The body read with the integration's reader, for POST (undefined when it cannot be read). */
  payload?: Wild;
  /** The authenticated bot (Zapier's `auth` check answers with its name and email). */
  bot: { id: number; email: string; fullName: string };
}

/** The answer to a handshake, written as is (`body` as JSON when it is not a string). */
export interface HandshakeResponse {
  status: number;
  contentType?: string;
  body: string | Readonly<Record<string, unknown>>;
  headers?: Readonly<Record<string, string>>;
}

export interface IntegrationDefinition<O = Record<string, unknown>, E extends string = string> {
  /** URL slug: /api/v1/external/<name>. Lowercase letters, digits and underscores. */
  name: string;
  /** Used in error texts (`webhook_name`) and docs. */
  displayName: string;
  categories: readonly string[];
  /** Short description for the integrations list and the doc. */
  description?: string;
  /** How the payload is read (default `json()`). */
  body?: BodyReader;
  /** The header carrying the event type: required (missing → MISSING_HTTP_EVENT_HEADER) unless `optional`. */
  eventHeader?: string | { name: string; optional?: boolean };
  /** Declared URL options, parsed once and given to the classifier and the handlers. */
  options?: { [K in keyof O]: OptionSpec<O[K]> };
  /** Verified when the bot has a secret (`<name>_secret` or `webhook_secret` in its config). */
  signature?: SignatureScheme;
  /**
   * The event's name: a key of `events` or a name matched by `ignoredEvents`; anything else is an
   * unsupported event. Omitted: the event header's value, or the only key of `events`.
   */
  classify?: (input: ClassifyInput<O>) => E | (string & Record<never, never>);
  /** Handlers keyed by event name (Zulip's event names: `only_events` / `exclude_events` match them). */
  events: { readonly [K in E]: Handler<O> };
  /** Known events that post nothing (200). Shell wildcards allowed. */
  ignoredEvents?: readonly string[];
  /**
   * Events `only_events` / `exclude_events` never drop (Zulip's integrations that pass no event
   * type, e.g. the JSON formatter).
   */
  unfilteredEvents?: readonly NoInfer<E>[];
  /** Set-up handshake, called after authentication and before anything else; undefined → go on. */
  handshake?: (req: HandshakeRequest) => HandshakeResponse | undefined;
}

/** A checked definition, as the registry and the pipeline see it. */
export interface Integration<O = Record<string, unknown>, E extends string = string> extends Readonly<
  Omit<IntegrationDefinition<O, E>, "eventHeader" | "body">
> {
  readonly body: BodyReader;
  /** The event header, normalized. */
  readonly eventHeader: { readonly name: string; readonly optional: boolean } | undefined;
  /** The names of `events`, in declaration order (docs, `only_events`, the integrations list). */
  readonly eventTypes: readonly E[];
}

/**
 * An integration of any option and event types, as the registry holds them. Handlers take their
 * own option types, so the registry erases them (the pipeline passes the options it parsed with
 * the same definition).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- erased option type of a heterogeneous registry
export type AnyIntegration = Integration<any, string>;

const SLUG = /^[a-z0-9_]+$/;

/** Checks a definition at import time and returns it normalized. */
export function defineIntegration<O = Record<string, unknown>, E extends string = string>(
  def: IntegrationDefinition<O, E>,
): Integration<O, E> {
  if (!SLUG.test(def.name)) throw new Error(`Integration name '${def.name}' must match ${String(SLUG)}`);
  const eventTypes = Object.keys(def.events) as E[];
  if (eventTypes.length === 0) throw new Error(`Integration '${def.name}' has no events`);
  for (const key of def.ignoredEvents ?? []) {
    if (Object.prototype.hasOwnProperty.call(def.events, key)) {
      throw new Error(`Integration '${def.name}': event '${key}' is both handled and ignored`);
    }
  }
  if (def.classify === undefined && def.eventHeader === undefined && eventTypes.length > 1) {
    throw new Error(
      `Integration '${def.name}' has several events but neither a classifier nor an event header`,
    );
  }
  const header =
    def.eventHeader === undefined
      ? undefined
      : typeof def.eventHeader === "string"
        ? { name: def.eventHeader, optional: false }
        : { name: def.eventHeader.name, optional: def.eventHeader.optional === true };
  return Object.freeze({ ...def, body: def.body ?? json(), eventHeader: header, eventTypes });
}

/** Declares an option: `option("Only these branches", parse.csvList)`. */
export function option<T>(
  label: string,
  parse: (raw: string) => T,
  extra: { default?: T } = {},
): OptionSpec<T> {
  return extra.default === undefined ? { label, parse } : { label, parse, default: extra.default };
}

/** Common option parsers. Each throws an Error with a readable reason. */
export const parse = {
  string: (raw: string): string => raw,
  bool: (raw: string): boolean => {
    const v = raw.trim().toLowerCase();
    if (v === "true" || v === "1" || v === "yes") return true;
    if (v === "false" || v === "0" || v === "no" || v === "") return false;
    throw new Error("is not a boolean");
  },
  csvList: (raw: string): string[] =>
    raw
      .split(",")
      .map((s) => s.trim())
      .filter((s) => s !== ""),
};
