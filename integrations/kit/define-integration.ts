import { json } from "./readers.js";
import type { BodyReader, Params } from "./readers.js";
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
  /**
   * The event closes (true) or reopens (false) the object the topic is about (an issue, an
   * incident, an alert). With `resolve_topics=true` in the URL, the pipeline marks the topic
   * resolved after posting it, or unresolved before (the integration declares `resolvesTopics`).
   */
  resolves?: boolean;
  /**
   * Only the object's status changed (an incident acknowledged, an alert closed, a check's state).
   * With `edit_status_messages=true` in the URL, the pipeline edits the bot's previous status
   * message in the topic instead of posting, while nobody has posted there since (the integration
   * declares `editsStatusMessages`).
   */
  statusOnly?: boolean;
  /**
   * Whose status it is, when the topic holds several objects (a repository's topic, a commit's
   * checks): only a previous status message of the same object is edited. Default: the topic's.
   */
  statusOf?: string;
}

/**
 * What an event means for the object its topic is about, in an integration's `topicLifecycle`
 * table: closes it (`resolves: true`), reopens it (`false`), changes only its status.
 */
export interface LifecycleEntry {
  resolves?: boolean;
  statusOnly?: boolean;
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
/** Everything a handler may know about the request besides the payload. Handlers do no I/O. */
export interface WebhookContext<O = Record<string, unknown>> {
  /** Parsed values of the integration's declared options (absent when not given and no default). */
  options: Partial<O>;
  /** The URL's `topic` parameter, when given: the pipeline applies the override itself. */
  customTopic: string | undefined;
  /** The classified event name (a key of `events`). */
  event: string;
  /**
   * The URL asks for one object's life per topic (`resolve_topics` or `edit_status_messages`, for
   * an integration that declares them, and no `topic`): an integration whose plain topic holds
   * many objects (Opsgenie's integration name) gives each object a topic of its own.
   */
  lifecycle: boolean;
  /** The raw event header value, when the integration declares one and the request has it. */
  eventHeader: string | undefined;
  /** Case-insensitive request header lookup. */
  header(name: string): string | undefined;
  /** The names of the request's headers, lower-case. */
  headerNames(): string[];
  /** Query-string and form parameters (strings), for integrations that read extra ones. */
  params: Params;
  /** The request body as text (Python number formatting in the JSON formatter, raw XML, …). */
  rawBody: string;
  /**
   * The full name of the realm's active user with this email, or undefined (Zulip's Jira names
   * assignees). Only for integrations that declare `needs: ["directory"]`.
   */
  userFullName(email: string): string | undefined;
  /**
   * The full names of the realm's active users whose external-account profile field of this kind
   * (`github`, `twitter`, …) holds `account` (case-insensitive); Zulip's get_user_by_external_account,
   * for silent mentions of the person who acted. Only for `needs: ["externalAccounts"]`.
   */
  usersByExternalAccount(kind: string, account: string): readonly string[];
  /**
   * Whether `only_events` / `exclude_events` let this name through: for payloads that hold several
   * items each filtered on its own (PagerDuty incidents, Grafana alerts; their event is unfiltered).
   */
  wanted(name: string): boolean;
  /**
   * The bot's config_data entries (the template integration's templates). Only for integrations
   * that declare `needs: ["botConfig"]`.
   */
  botConfig(): Readonly<Record<string, string>>;
  /**
   * Renders LiquidJS templates for the topic and the body as the template integration does (its
   * limits, filters and thread; they see `payload`, `headers` and `query` of this request). Only
   * for integrations that declare `needs: ["templates"]` (a template bot exported as a module).
   */
  renderTemplates(templates: { topic: string; body: string }): Promise<{ topic: string; body: string }>;
  /**
   * GETs a JSON document from the service's API (a Notion page's title, a user's name), for
   * payloads that carry only ids. Only for integrations that declare `needs: ["http"]`. The server
   * sends it under its egress policy (public addresses only unless the operator allows the target
   * with `--outgoing-webhook-allow`; redirects are not followed), reads at most
   * `FETCH_JSON_MAX_BYTES` (1 MiB) within `FETCH_JSON_TIMEOUT_MS` (5 s), and allows
   * `FETCH_JSON_MAX_CALLS` (10) calls per event. Rejects with `ServiceApiError` when the request
   * is refused or fails, the answer is not 2xx or not JSON: catch it and post what the payload
   * alone says, rather than lose the event.
   */
  fetchJson(url: string, init?: { headers?: Readonly<Record<string, string>> }): Promise<unknown>;
}

export type Handler<O = Record<string, unknown>> = (
  payload: Wild,
  ctx: WebhookContext<O>,
) => HandlerResult | Reply | Promise<HandlerResult | Reply>;

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

/**
 * What a handler reads beyond the request, loaded by the server before dispatch: the realm's user
 * directory (`ctx.userFullName`) or the bot's configuration (`ctx.botConfig`); or what it may
 * ask for while it runs: the service's API (`ctx.fetchJson`, `"http"`).
 */
export type WebhookNeed = "directory" | "botConfig" | "externalAccounts" | "templates" | "http";

/** A declared option: a URL/config parameter with a label and a parser that validates it. */
export interface OptionSpec<T> {
  label: string;
  /** Throws an Error whose message says what is wrong (the pipeline names the option). */
  parse: (raw: string) => T;
  default?: T;
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
  /**
   * Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature` with `v1,`/`v1a,`
   * signatures; src/lib/standard-webhooks.ts): the bot's secret may list several, space-separated.
   * Required: without a configured secret the request is refused. Repeated `webhook-id`s are
   * acknowledged without posting again.
   */
  | { kind: "standard-webhooks"; header: "webhook-signature" }
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
  /** Data the handlers read beyond the request, loaded before dispatch (none by default). */
  needs?: readonly WebhookNeed[];
  /** Verified when the bot has a secret (`<name>_secret` or `webhook_secret` in its config). */
  signature?: SignatureScheme;
  /**
   * The service's id of one delivery (the same on its retries and redeliveries), by which a signed
   * request seen before is answered with success and posts nothing. Default: the first of the
   * well-known delivery-id headers (`deliveryIdOf` in signatures.ts).
   */
  deliveryId?: (req: SignedRequest) => string | undefined;
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
  /** Its messages say when the topic's object closes or reopens (`WebhookMessage.resolves`). */
  resolvesTopics?: boolean;
  /**
   * Its messages may be status-only changes (`WebhookMessage.statusOnly`): the URL option
   * `edit_status_messages` is offered.
   */
  editsStatusMessages?: boolean;
  /**
   * `resolves` / `statusOnly` by event name, for the messages of an event that do not set them
   * themselves: one entry per event (`{ Close: { resolves: true, statusOnly: true } }`).
   */
  topicLifecycle?: Readonly<Partial<Record<NoInfer<E>, LifecycleEntry>>>;
  /** Set-up handshake, called after authentication and before anything else; undefined → go on. */
  handshake?: (req: HandshakeRequest) => HandshakeResponse | undefined;
  /**
   * The body of an error its pipeline raises (after authentication; the status stays the
   * error's), for senders that read their own service's error shape: Slack-style incoming
   * webhooks answer `{ ok: false, error: msg }`. Omitted: Zulip's `{ result: "error", msg, code }`.
   */
  errorBody?: (error: { msg: string; code: string }) => Record<string, unknown>;
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
