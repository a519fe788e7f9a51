import {
  InvalidJsonError,
  JsonableError,
  MissingHttpEventHeaderError,
  RequestVariableMissingError,
  UnsupportedWebhookEventTypeError,
} from "../../src/errors.js";
import type { WebhookMessage } from "./define-integration.js";
import type { LegacyIntegration as Integration, LegacyWebhookContext as WebhookContext } from "./legacy.js";
import { wildcardMatch } from "./wildcard.js";
import { Wild } from "./wild.js";

/** The parts of an HTTP request an integration sees. Header names are lower-case. */
export interface LegacyWebhookRequest {
  headers: Readonly<Record<string, string | undefined>>;
  /** Query-string and form parameters merged (form wins). */
  params: Readonly<Record<string, string>>;
  rawBody: Buffer;
  /** Parsed form fields when the body was urlencoded or multipart. */
  form?: Readonly<Record<string, string>> | undefined;
  /** Looks up the full name of the realm's active user with an email (see WebhookContext). */
  userFullName?: ((email: string) => string | undefined) | undefined;
}

export type LegacyDispatchOutcome =
  | { kind: "messages"; eventKey: string; messages: WebhookMessage[] }
  /** A known event the integration deliberately ignores, or one the handler chose not to report. */
  | { kind: "ignored"; eventKey: string }
  /** Dropped by the caller's only_events / exclude_events. */
  | { kind: "filtered"; eventKey: string };

function isJsonContentType(value: string | undefined): boolean {
  return (value ?? "").split(";")[0]?.trim().toLowerCase() === "application/json";
}

function parseJsonText(text: string): Wild {
  try {
    return new Wild(JSON.parse(text) as unknown);
  } catch {
    throw new InvalidJsonError();
  }
}

function parsePayload(integration: Integration, req: LegacyWebhookRequest): Wild {
  const mode = integration.body ?? "json";
  const text = req.rawBody.toString("utf8");
  const field = integration.payloadField;
  if (
    field !== undefined &&
    !(field.unlessJsonContentType === true && isJsonContentType(req.headers["content-type"]))
  ) {
    const urlencoded = (req.headers["content-type"] ?? "")
      .toLowerCase()
      .startsWith("application/x-www-form-urlencoded");
    const value =
      req.form?.[field.name] ??
      req.params[field.name] ??
      // A urlencoded body the caller did not parse into `form`.
      (urlencoded ? (new URLSearchParams(text).get(field.name) ?? undefined) : undefined);
    if (value === undefined) throw new RequestVariableMissingError(field.name);
    return parseJsonText(value);
  }
  if (mode === "form" || (mode === "json-or-form" && req.form !== undefined)) {
    return new Wild(req.form ?? Object.fromEntries(new URLSearchParams(text)));
  }
  return parseJsonText(text);
}

function jsonListParam(params: Readonly<Record<string, string>>, name: string): string[] | undefined {
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
  return value;
}

/** Applies only_events / exclude_events: a pattern matches the full event key or its base. */
export function isEventWanted(params: Readonly<Record<string, string>>, eventKey: string): boolean {
  const keys = [eventKey, eventKey.split(".")[0] ?? eventKey];
  const matches = (patterns: string[]): boolean =>
    patterns.some((p) => keys.some((k) => wildcardMatch(p, k)));
  const only = jsonListParam(params, "only_events");
  const exclude = jsonListParam(params, "exclude_events");
  if (only !== undefined && !matches(only)) return false;
  if (exclude !== undefined && matches(exclude)) return false;
  return true;
}

function parseOptions(
  integration: Integration,
  params: Readonly<Record<string, string>>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(integration.options ?? {})) {
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

/**
 * Turns a request into the messages an integration wants to send: body parsing, event header,
 * event key, handler lookup, ignored events, filters, options and the topic override. Pure: no
 * authentication, no sending (that is the pipeline in src/domain/webhooks).
 */
export function dispatchLegacyWebhook(
  integration: Integration,
  req: LegacyWebhookRequest,
): LegacyDispatchOutcome {
  const header = integration.eventHeader;
  const headerValue = header === undefined ? undefined : req.headers[header.toLowerCase()];
  if (header !== undefined && headerValue === undefined && integration.eventHeaderRequired !== false) {
    const err = new MissingHttpEventHeaderError(header);
    err.webhookName = integration.displayName;
    throw err;
  }
  const payload = parsePayload(integration, req);
  const eventKey = integration.eventKey
    ? integration.eventKey(headerValue, payload, req.params)
    : defaultEventKey(headerValue, payload);

  const base = eventKey.split(".")[0] ?? eventKey;
  const handler = integration.handlers[eventKey] ?? integration.handlers[base];
  if (handler === undefined) {
    const ignored = (integration.ignoredEvents ?? []).some(
      (p) => wildcardMatch(p, eventKey) || wildcardMatch(p, base),
    );
    if (ignored) return { kind: "ignored", eventKey };
    throw new UnsupportedWebhookEventTypeError(eventKey, integration.displayName);
  }
  const filterName = integration.filterName ? integration.filterName(eventKey, payload) : eventKey;
  if (filterName !== undefined && !isEventWanted(req.params, filterName))
    return { kind: "filtered", eventKey };

  const rawTopic = req.params["topic"];
  const customTopic =
    rawTopic !== undefined && integration.unquoteUrlParameters === true ? unquote(rawTopic) : rawTopic;
  const ctx: WebhookContext = {
    options: parseOptions(integration, req.params),
    customTopic: customTopic === undefined || customTopic === "" ? undefined : customTopic,
    eventKey,
    eventHeader: headerValue,
    header: (name) => req.headers[name.toLowerCase()],
    params: req.params,
    rawBody: req.rawBody.toString("utf8"),
  };
  if (req.userFullName !== undefined) ctx.userFullName = req.userFullName;
  const result = handler(payload, ctx);
  if (result === null) return { kind: "ignored", eventKey };
  const messages = (Array.isArray(result) ? result : [result]).map((m) => ({
    topic: ctx.customTopic ?? m.topic,
    body: m.body,
  }));
  return messages.length === 0 ? { kind: "ignored", eventKey } : { kind: "messages", eventKey, messages };
}

function defaultEventKey(header: string | undefined, payload: Wild): string {
  const action = payload.isObject() ? payload.opt("action") : undefined;
  const base = header ?? "default";
  return action !== undefined && typeof action.value === "string" ? `${base}.${action.value}` : base;
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
