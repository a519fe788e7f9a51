/**
 * The definition shape before issue 12, kept only while the 16 first integrations move to
 * `defineIntegration` (define-integration.ts). Do not use it for new integrations.
 */
import type { Wild } from "./wild.js";
import type { HandlerResult, OptionSpec, SignatureScheme } from "./define-integration.js";

/** Everything a handler may know about the request besides the payload. Handlers do no I/O. */
export interface LegacyWebhookContext<O = Record<string, unknown>> {
  /** Parsed values of the integration's declared options. */
  options: O;
  /** The URL's `topic` parameter, when given (some services word their body differently then). */
  customTopic: string | undefined;
  /** The event key that selected the handler (`pull_request.opened`). */
  eventKey: string;
  /** The raw event header value, when the integration declares one. */
  eventHeader: string | undefined;
  /** Case-insensitive request header lookup. */
  header(name: string): string | undefined;
  /** Query-string and form parameters (strings), for integrations that read extra ones. */
  params: Readonly<Record<string, string>>;
  /**
   * The request body as text, for integrations that must see the exact JSON (Python number
   * formatting in the JSON formatter). Absent when the caller does not provide it.
   */
  rawBody?: string;
  /**
   * The full name of the realm's active user with this email, when the pipeline can tell (Zulip's
   * Jira integration names assignees this way); undefined when unknown or not provided.
   */
  userFullName?: (email: string) => string | undefined;
}

export type LegacyHandler<O = Record<string, unknown>> = (
  payload: Wild,
  ctx: LegacyWebhookContext<O>,
) => HandlerResult;

export interface LegacyIntegrationDefinition<O extends Record<string, unknown> = Record<string, unknown>> {
  /** URL slug: /api/v1/external/<name>. Lowercase letters, digits and underscores. */
  name: string;
  displayName: string;
  categories: string[];
  /** Short description for the integrations list and the doc. */
  description?: string;
  /** HTTP header carrying the event type; missing → MISSING_HTTP_EVENT_HEADER + owner notified. */
  eventHeader?: string;
  /** Whether a missing event header is an error (default true when eventHeader is set). */
  eventHeaderRequired?: boolean;
  /**
   * Computes the event key from the header and payload. Default: the header value, plus
   * `.action` when the payload has a string `action`; without a header, "default".
   */
  eventKey?: (header: string | undefined, payload: Wild, params: Readonly<Record<string, string>>) => string;
  /**
   * The name `only_events` / `exclude_events` patterns match: Zulip's `complete_event_type`
   * (GitHub's internal names such as `push_commits`, GitLab's `Merge Request Hook open`). Default:
   * the event key. Return undefined for events that filters never drop (Zulip passes none).
   */
  filterName?: (eventKey: string, payload: Wild) => string | undefined;
  /** Declared options (label, field name = key, validator). */
  options?: { [K in keyof O]: OptionSpec<O[K]> };
  /** Handlers keyed by event key; the pipeline tries the full key, then the part before the first ".". */
  handlers: Record<string, LegacyHandler<O>>;
  /** Known events that are deliberately silent: 200, no message. Shell wildcards allowed. */
  ignoredEvents?: string[];
  /** How the body is read: JSON whatever the Content-Type (default), or form fields. */
  body?: "json" | "form" | "json-or-form";
  /**
   * The payload is JSON text in this form/query parameter (Slack-style `payload=`); missing →
   * REQUEST_VARIABLE_MISSING. With `unlessJsonContentType`, an `application/json` request is read
   * from the raw body instead (Zulip's slack_incoming). Takes precedence over `body`.
   */
  payloadField?: { name: string; unlessJsonContentType?: boolean };
  /** The pipeline provides `ctx.userFullName` (a lookup of the realm's users by email). */
  needsUserDirectory?: boolean;
  /** Extra fields of the success response (slack_incoming answers Slack-style `ok: true`). */
  successData?: Readonly<Record<string, unknown>>;
  /** Authentication accepted besides `api_key`: HTTP Basic (email:api_key). */
  allowBasicAuth?: boolean;
  /** URL-decode `stream` and `topic` once more (jira, bitbucket2 work around double escaping). */
  unquoteUrlParameters?: boolean;
  /** Signature verification, active when the bot has a secret configured for this integration. */
  signature?: SignatureScheme;
  /** Every event key this integration can produce (for docs and only_events); defaults to handler keys. */
  allEventTypes?: string[];
}

export type LegacyIntegration<O extends Record<string, unknown> = Record<string, unknown>> = Readonly<
  LegacyIntegrationDefinition<O>
>;

const SLUG = /^[a-z0-9_]+$/;

/** Checks a definition at import time and returns it typed. */
export function defineLegacyIntegration<O extends Record<string, unknown>>(
  def: LegacyIntegrationDefinition<O>,
): LegacyIntegration<O> {
  if (!SLUG.test(def.name)) throw new Error(`Integration name '${def.name}' must match ${String(SLUG)}`);
  if (Object.keys(def.handlers).length === 0) throw new Error(`Integration '${def.name}' has no handlers`);
  for (const key of def.ignoredEvents ?? []) {
    if (Object.prototype.hasOwnProperty.call(def.handlers, key)) {
      throw new Error(`Integration '${def.name}': event '${key}' is both handled and ignored`);
    }
  }
  return def;
}
