import {
  JsonableError,
  MissingHttpEventHeaderError,
  UnsupportedWebhookEventTypeError,
  WebhookError,
} from "../../src/errors.js";
import type {
  AnyIntegration,
  Handler,
  HandlerResult,
  LifecycleEntry,
  Reply,
  WebhookContext,
  WebhookMessage,
  WebhookNeed,
} from "./define-integration.js";
import type { Params } from "./readers.js";
import { FETCH_JSON_MAX_CALLS, ServiceApiError } from "./service-api.js";
import { compileWildcard, wildcardMatch, wildcardPatternsProblem } from "./wildcard.js";
import type { Wild } from "./wild.js";

/**
 * The pure stages of the incoming-webhook pipeline (no I/O): read the event header and the body,
 * parse the options, classify, filter, render. The server's I/O shell (src/domain/webhooks/)
 * adds authentication, handshakes, signatures and delivery around them; the kit's test helpers run
 * them directly.
 */

/** The parts of an HTTP request the pure stages see. Header names are lower-case. */
export interface WebhookRequest {
  headers: Readonly<Record<string, string | undefined>>;
  /** Query-string and form parameters merged (form wins), without `api_key`. */
  params: Params;
  rawBody: Buffer;
  /** Parsed form fields when the body was urlencoded or multipart. */
  form?: Params | undefined;
  /** The realm's user directory (email → full name), for `needs: ["directory"]`; absent: nobody is known. */
  userFullName?: ((email: string) => string | undefined) | undefined;
  /** Realm users by external account (kind, account → full names), for `needs: ["externalAccounts"]`; absent: nobody. */
  usersByExternalAccount?: ((kind: string, account: string) => readonly string[]) | undefined;
  /** The bot's config_data, for `needs: ["botConfig"]`; absent: empty. */
  botConfig?: (() => Readonly<Record<string, string>>) | undefined;
  /** The template renderer, for `needs: ["templates"]` (the server and test-integration give it). */
  renderTemplates?: TemplateRenderer | undefined;
  /**
   * GETs a JSON document (`ctx.fetchJson`), for `needs: ["http"]`; rejects with ServiceApiError.
   * The server gives one under its egress policy; absent: calling `ctx.fetchJson` fails.
   */
  fetchJson?: JsonFetcher | undefined;
}

/** A GET of a JSON document with these headers: its parsed body, or a ServiceApiError. */
export type JsonFetcher = (url: string, headers: Readonly<Record<string, string>>) => Promise<unknown>;

/** Renders a topic and a body template against a request's payload, headers and query. */
export type TemplateRenderer = (
  templates: { topic: string; body: string },
  payload: unknown,
  ctx: WebhookContext<Record<string, unknown>>,
) => Promise<{ topic: string; body: string }>;

/** `reply`: extra fields of the success response, when the handler gave some (`reply(…)`). */
export type DispatchOutcome =
  | { kind: "messages"; event: string; messages: WebhookMessage[]; reply?: Readonly<Record<string, unknown>> }
  /** A known event the integration deliberately ignores, or one its handler chose not to report. */
  | { kind: "ignored"; event: string; reply?: Readonly<Record<string, unknown>> }
  /** Dropped by the caller's only_events / exclude_events. */
  | { kind: "filtered"; event: string };

/** Stage "event header": its value, or MISSING_HTTP_EVENT_HEADER when it is required and absent. */
export function readEventHeader(integration: AnyIntegration, req: WebhookRequest): string | undefined {
  const header = integration.eventHeader;
  if (header === undefined) return undefined;
  const value = req.headers[header.name.toLowerCase()];
  if (value === undefined && !header.optional) throw new MissingHttpEventHeaderError(header.name);
  return value;
}

/** Stage "read body": the integration's declared reader. */
export function readBody(integration: AnyIntegration, req: WebhookRequest): Wild {
  return integration.body.read({
    rawBody: req.rawBody,
    contentType: req.headers["content-type"],
    form: req.form,
    params: req.params,
  });
}

/** Parses the declared options from the URL/form parameters (a bad value → 400 naming the option). */
export function parseOptions(integration: AnyIntegration, params: Params): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const specs = (integration.options ?? {}) as Record<
    string,
    { label: string; parse: (raw: string) => unknown; default?: unknown }
  >;
  for (const [name, spec] of Object.entries(specs)) {
    const raw = params[name];
    if (raw === undefined) {
      if (spec.default !== undefined) out[name] = spec.default;
      continue;
    }
    try {
      out[name] = spec.parse(raw);
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      throw new JsonableError(`Invalid value for option '${name}' (${spec.label}): ${reason}`);
    }
  }
  return out;
}

/** Stage "classify": the event's name (the classifier's, else the header's, else the only event). */
export function classifyEvent(
  integration: AnyIntegration,
  input: { header: string | undefined; payload: Wild; options: Record<string, unknown>; req: WebhookRequest },
): string {
  if (integration.classify !== undefined) {
    return integration.classify({
      header: input.header,
      payload: input.payload,
      options: input.options,
      params: input.req.params,
      httpHeader: (name) => input.req.headers[name.toLowerCase()],
    });
  }
  if (integration.eventHeader !== undefined) return input.header ?? "default";
  return integration.eventTypes[0] ?? "default";
}

/**
 * Stage "route": the event's handler, `"ignored"` for a name `ignoredEvents` matches, or an
 * UnsupportedWebhookEventTypeError.
 */
export function routeEvent(
  integration: AnyIntegration,
  event: string,
): Handler<Record<string, unknown>> | "ignored" {
  if (Object.prototype.hasOwnProperty.call(integration.events, event)) {
    return integration.events[event] as Handler<Record<string, unknown>>;
  }
  if ((integration.ignoredEvents ?? []).some((p) => wildcardMatch(p, event))) return "ignored";
  throw new UnsupportedWebhookEventTypeError(event, integration.displayName);
}

function jsonListParam(params: Params, name: string): string[] | undefined {
  const raw = params[name];
  if (raw === undefined || raw === "") return undefined;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new JsonableError(`Argument "${name}" is not valid JSON.`);
  }
  if (!Array.isArray(value) || !value.every((v) => typeof v === "string")) {
    throw new JsonableError(`${name} is not a list`);
  }
  const problem = wildcardPatternsProblem(name, value);
  if (problem !== undefined) throw new JsonableError(problem);
  return value;
}

/**
 * Stage "filter": only_events / exclude_events (JSON lists of shell patterns). A pattern matches
 * the event's name or the part before its first ".".
 */
export function isEventWanted(params: Params, event: string): boolean {
  const names = [event, event.split(".")[0] ?? event];
  const matches = (patterns: string[]): boolean =>
    patterns.map(compileWildcard).some((match) => names.some(match));
  const only = jsonListParam(params, "only_events");
  const exclude = jsonListParam(params, "exclude_events");
  if (only !== undefined && !matches(only)) return false;
  if (exclude !== undefined && matches(exclude)) return false;
  return true;
}

/** Python's urllib.parse.unquote: decodes %XX escapes, leaving malformed ones as they are. */
export function unquote(value: string): string {
  return value.replace(/(%[0-9A-Fa-f]{2})+/g, (seq) => {
    try {
      return decodeURIComponent(seq);
    } catch {
      return seq;
    }
  });
}

/**
 * The URL's `topic`, decoded once more (senders such as Jira and Bitbucket escape it twice, and
 * Zulip decodes it again for them; a name with a literal `%XX` is rare enough to apply it to all).
 */
export function customTopicOf(params: Params): string | undefined {
  const raw = params["topic"];
  return raw === undefined || raw === "" ? undefined : unquote(raw);
}

const YES = /^(true|1|yes)$/i;

/**
 * The pipeline's topic-lifecycle options the URL turns on for this integration: `resolve_topics`
 * (it declares `resolvesTopics`) and `edit_status_messages` (it declares `editsStatusMessages`).
 * Both are off when the URL sets a `topic`: that topic holds many objects, not one object's life.
 */
export function lifecycleOptions(
  integration: AnyIntegration,
  params: Params,
): { resolveTopics: boolean; editStatusMessages: boolean } {
  if (customTopicOf(params) !== undefined) return { resolveTopics: false, editStatusMessages: false };
  return {
    resolveTopics: integration.resolvesTopics === true && YES.test(params["resolve_topics"] ?? ""),
    editStatusMessages:
      integration.editsStatusMessages === true && YES.test(params["edit_status_messages"] ?? ""),
  };
}

function isReply(value: unknown): value is Reply {
  return typeof value === "object" && value !== null && !Array.isArray(value) && "reply" in value;
}

type Answer = HandlerResult | Reply;

function isPromise(value: unknown): value is Promise<Answer> {
  return typeof (value as { then?: unknown } | null)?.then === "function";
}

/** Stage "render", after the handler answered: the URL's `topic` overrides every message's topic. */
function messagesOf(
  integration: AnyIntegration,
  answer: Answer,
  ctx: WebhookContext<Record<string, unknown>>,
): { messages: WebhookMessage[]; reply: Readonly<Record<string, unknown>> | undefined } {
  const result = isReply(answer) ? answer.result : answer;
  const fields = isReply(answer) ? answer.reply : undefined;
  if (result === null) return { messages: [], reply: fields };
  // The event's entry of the lifecycle table, for the messages that do not say it themselves.
  const entry = (integration.topicLifecycle as Readonly<Record<string, LifecycleEntry>> | undefined)?.[
    ctx.event
  ];
  const messages = (Array.isArray(result) ? result : [result]).map((m) => {
    const resolves = m.resolves ?? entry?.resolves;
    const statusOnly = m.statusOnly ?? entry?.statusOnly;
    return {
      topic: ctx.customTopic ?? m.topic,
      body: m.body,
      ...(m.directTo !== undefined ? { directTo: m.directTo } : {}),
      ...(m.stream !== undefined ? { stream: m.stream } : {}),
      ...(resolves !== undefined ? { resolves } : {}),
      ...(statusOnly !== undefined ? { statusOnly } : {}),
      ...(m.statusOf !== undefined ? { statusOf: m.statusOf } : {}),
    };
  });
  return { messages, reply: fields };
}

/** Stage "render": runs a synchronous handler (an asynchronous one needs `dispatchWebhookAsync`). */
export function render(
  integration: AnyIntegration,
  handler: Handler<Record<string, unknown>>,
  payload: Wild,
  ctx: WebhookContext<Record<string, unknown>>,
): { messages: WebhookMessage[]; reply: Readonly<Record<string, unknown>> | undefined } {
  const answer = handler(payload, ctx);
  if (isPromise(answer)) {
    answer.catch(() => undefined);
    throw new Error("An asynchronous handler (it returned a Promise) runs through dispatchWebhookAsync");
  }
  return messagesOf(integration, answer, ctx);
}

/**
 * Names the integration on webhook errors that do not name one yet (the one place it is stamped),
 * and gives an error the body the integration's senders read (`errorBody`), if it has its own.
 */
export function stampWebhookName(
  err: unknown,
  integration: Pick<AnyIntegration, "displayName" | "errorBody">,
): unknown {
  if (err instanceof WebhookError && err.webhookName === "") err.webhookName = integration.displayName;
  if (err instanceof JsonableError && integration.errorBody !== undefined && err.wireBody === undefined) {
    err.wireBody = integration.errorBody({ msg: err.message, code: err.code });
  }
  return err;
}

/** A handler read data its integration does not declare in `needs` (a programming error: a 500). */
function undeclaredNeed(integration: AnyIntegration, need: WebhookNeed): Error {
  return new Error(`Integration '${integration.name}' reads '${need}' without declaring needs: ["${need}"]`);
}

/** The stages before the handler runs: its outcome when it need not run, else what it runs with. */
type Prepared =
  | { outcome: DispatchOutcome }
  | {
      event: string;
      handler: Handler<Record<string, unknown>>;
      payload: Wild;
      ctx: WebhookContext<Record<string, unknown>>;
    };

function prepare(integration: AnyIntegration, req: WebhookRequest): Prepared {
  const header = readEventHeader(integration, req);
  const payload = readBody(integration, req);
  const options = parseOptions(integration, req.params);
  const event = classifyEvent(integration, { header, payload, options, req });
  const handler = routeEvent(integration, event);
  if (handler === "ignored") return { outcome: { kind: "ignored", event } };
  if (!(integration.unfilteredEvents ?? []).includes(event) && !isEventWanted(req.params, event)) {
    return { outcome: { kind: "filtered", event } };
  }
  const needs = integration.needs ?? [];
  const lookup = req.userFullName;
  let fetches = 0;
  const ctx: WebhookContext<Record<string, unknown>> = {
    options,
    customTopic: customTopicOf(req.params),
    event,
    lifecycle: (({ resolveTopics, editStatusMessages }) => resolveTopics || editStatusMessages)(
      lifecycleOptions(integration, req.params),
    ),
    eventHeader: header,
    header: (name) => req.headers[name.toLowerCase()],
    headerNames: () => Object.keys(req.headers).filter((name) => req.headers[name] !== undefined),
    params: req.params,
    rawBody: req.rawBody.toString("utf8"),
    userFullName: (email) => {
      if (!needs.includes("directory")) throw undeclaredNeed(integration, "directory");
      return lookup === undefined ? undefined : lookup(email);
    },
    usersByExternalAccount: (kind, account) => {
      if (!needs.includes("externalAccounts")) throw undeclaredNeed(integration, "externalAccounts");
      return req.usersByExternalAccount === undefined ? [] : req.usersByExternalAccount(kind, account);
    },
    wanted: (name) => isEventWanted(req.params, name),
    botConfig: () => {
      if (!needs.includes("botConfig")) throw undeclaredNeed(integration, "botConfig");
      return req.botConfig === undefined ? {} : req.botConfig();
    },
    renderTemplates: (templates) => {
      if (!needs.includes("templates")) return Promise.reject(undeclaredNeed(integration, "templates"));
      if (req.renderTemplates === undefined) {
        return Promise.reject(new Error("No template renderer was given to this dispatch"));
      }
      return req.renderTemplates(templates, payload.value, ctx);
    },
    fetchJson: (url, init = {}) => {
      if (!needs.includes("http")) return Promise.reject(undeclaredNeed(integration, "http"));
      if (req.fetchJson === undefined) {
        return Promise.reject(new Error('No fetchJson was given to this dispatch (needs: ["http"])'));
      }
      fetches += 1;
      if (fetches > FETCH_JSON_MAX_CALLS) {
        return Promise.reject(
          new ServiceApiError(`At most ${FETCH_JSON_MAX_CALLS} API calls are made per event`, url),
        );
      }
      return req.fetchJson(url, init.headers ?? {});
    },
  };
  return { event, handler, payload, ctx };
}

function outcomeOf(
  event: string,
  { messages, reply }: { messages: WebhookMessage[]; reply: Readonly<Record<string, unknown>> | undefined },
): DispatchOutcome {
  const extra = reply === undefined ? {} : { reply };
  return messages.length === 0
    ? { kind: "ignored", event, ...extra }
    : { kind: "messages", event, messages, ...extra };
}

/**
 * The pure part of the pipeline: event header → read body → options → classify → route → filter
 * → render. Throws JsonableErrors (webhook ones named after the integration). For integrations
 * whose handlers are synchronous (all but those that render off the event loop, as the template
 * integration does): the others run through `dispatchWebhookAsync`.
 */
export function dispatchWebhook(integration: AnyIntegration, req: WebhookRequest): DispatchOutcome {
  try {
    const prepared = prepare(integration, req);
    if ("outcome" in prepared) return prepared.outcome;
    return outcomeOf(prepared.event, render(integration, prepared.handler, prepared.payload, prepared.ctx));
  } catch (err) {
    throw stampWebhookName(err, integration);
  }
}

/** `dispatchWebhook` for any integration: a handler may answer with a Promise. The server's path. */
export async function dispatchWebhookAsync(
  integration: AnyIntegration,
  req: WebhookRequest,
): Promise<DispatchOutcome> {
  try {
    const prepared = prepare(integration, req);
    if ("outcome" in prepared) return prepared.outcome;
    const answer = await prepared.handler(prepared.payload, prepared.ctx);
    return outcomeOf(prepared.event, messagesOf(integration, answer, prepared.ctx));
  } catch (err) {
    throw stampWebhookName(err, integration);
  }
}
