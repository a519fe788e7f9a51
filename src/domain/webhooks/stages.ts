import {
  JsonableError,
  MissingHttpEventHeaderError,
  UnsupportedWebhookEventTypeError,
  WebhookError,
} from "../../errors.js";
import type {
  AnyIntegration,
  Handler,
  Params,
  Reply,
  WebhookContext,
  WebhookMessage,
} from "../../../integrations/kit/define-integration.js";
import {
  compileWildcard,
  wildcardMatch,
  wildcardPatternsProblem,
} from "../../../integrations/kit/wildcard.js";
import type { Wild } from "../../../integrations/kit/wild.js";

/**
 * The pure stages of the incoming-webhook pipeline (no I/O): read the event header and the body,
 * parse the options, classify, filter, render. `pipeline.ts` adds authentication, signatures,
 * handshakes and delivery around them; the kit's test helpers run them directly.
 */

/** The parts of an HTTP request the pure stages see. Header names are lower-case. */
export interface WebhookRequest {
  headers: Readonly<Record<string, string | undefined>>;
  /** Query-string and form parameters merged (form wins), without `api_key`. */
  params: Params;
  rawBody: Buffer;
  /** Parsed form fields when the body was urlencoded or multipart. */
  form?: Params | undefined;
  /** The realm's user directory (email → full name); absent: nobody is known. */
  userFullName?: ((email: string) => string | undefined) | undefined;
  /** The bot's config_data (the template integration's templates); absent: empty. */
  botConfig?: (() => Readonly<Record<string, string>>) | undefined;
}

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

function isReply(value: unknown): value is Reply {
  return typeof value === "object" && value !== null && !Array.isArray(value) && "reply" in value;
}

/** Stage "render": runs the handler; the URL's `topic` overrides every message's topic. */
export function render(
  handler: Handler<Record<string, unknown>>,
  payload: Wild,
  ctx: WebhookContext<Record<string, unknown>>,
): { messages: WebhookMessage[]; reply: Readonly<Record<string, unknown>> | undefined } {
  const answer = handler(payload, ctx);
  const result = isReply(answer) ? answer.result : answer;
  const fields = isReply(answer) ? answer.reply : undefined;
  if (result === null) return { messages: [], reply: fields };
  const messages = (Array.isArray(result) ? result : [result]).map((m) => ({
    topic: ctx.customTopic ?? m.topic,
    body: m.body,
    ...(m.directTo !== undefined ? { directTo: m.directTo } : {}),
    ...(m.stream !== undefined ? { stream: m.stream } : {}),
  }));
  return { messages, reply: fields };
}

/** Names the integration on webhook errors that do not name one yet (the one place it is stamped). */
export function stampWebhookName(err: unknown, integration: { displayName: string }): unknown {
  if (err instanceof WebhookError && err.webhookName === "") err.webhookName = integration.displayName;
  return err;
}

/**
 * The pure part of the pipeline: event header → read body → options → classify → route → filter
 * → render. Throws JsonableErrors (webhook ones named after the integration).
 */
export function dispatchWebhook(integration: AnyIntegration, req: WebhookRequest): DispatchOutcome {
  try {
    const header = readEventHeader(integration, req);
    const payload = readBody(integration, req);
    const options = parseOptions(integration, req.params);
    const event = classifyEvent(integration, { header, payload, options, req });
    const handler = routeEvent(integration, event);
    if (handler === "ignored") return { kind: "ignored", event };
    if (!(integration.unfilteredEvents ?? []).includes(event) && !isEventWanted(req.params, event)) {
      return { kind: "filtered", event };
    }
    const lookup = req.userFullName;
    const ctx: WebhookContext<Record<string, unknown>> = {
      options,
      customTopic: customTopicOf(req.params),
      event,
      eventHeader: header,
      header: (name) => req.headers[name.toLowerCase()],
      params: req.params,
      rawBody: req.rawBody.toString("utf8"),
      userFullName: (email) => (lookup === undefined ? undefined : lookup(email)),
      wanted: (name) => isEventWanted(req.params, name),
      botConfig: () => (req.botConfig === undefined ? {} : req.botConfig()),
    };
    const { messages, reply } = render(handler, payload, ctx);
    const extra = reply === undefined ? {} : { reply };
    return messages.length === 0
      ? { kind: "ignored", event, ...extra }
      : { kind: "messages", event, messages, ...extra };
  } catch (err) {
    throw stampWebhookName(err, integration);
  }
}
