import type { AnyIntegration } from "../../../integrations/kit/define-integration.js";
import { parse } from "../../../integrations/kit/define-integration.js";

/**
 * One of Zulip's `url_options` / `config_options` of an incoming-webhook integration (POST
 * /register's `realm_incoming_webhook_bots`): the key, a label, and the name of Zulip's validator
 * hinting at the value's type.
 */
export interface ZulipWebhookOption {
  key: string;
  label: string;
  validator: "check_bool" | "check_string";
}

/** The URL parameters the integration reads (its declared options), as Zulip 11 lists them (feature level 403). */
export function urlOptionsOf(i: AnyIntegration): ZulipWebhookOption[] {
  const declared: ZulipWebhookOption[] = Object.entries(
    (i.options ?? {}) as Record<string, { label: string; parse: unknown }>,
  ).map(([key, spec]) => ({
    key,
    label: spec.label,
    validator: spec.parse === parse.bool ? "check_bool" : "check_string",
  }));
  return [...declared, ...lifecycleOptionsOf(i)];
}

/** The pipeline's topic-lifecycle options an integration declares (`resolvesTopics`, `editsStatusMessages`). */
function lifecycleOptionsOf(i: AnyIntegration): ZulipWebhookOption[] {
  return [
    ...(i.resolvesTopics === true ? [RESOLVE_TOPICS_OPTION] : []),
    ...(i.editsStatusMessages === true ? [EDIT_STATUS_MESSAGES_OPTION] : []),
  ];
}

/** The pipeline's option for integrations whose events close and reopen what a topic is about. */
export const RESOLVE_TOPICS_OPTION: ZulipWebhookOption = {
  key: "resolve_topics",
  label:
    "Mark the topic resolved when what it is about is closed or resolved, and unresolved when it reopens",
  validator: "check_bool",
};

/** The pipeline's option for integrations whose status-only changes can edit the last status message. */
export const EDIT_STATUS_MESSAGES_OPTION: ZulipWebhookOption = {
  key: "edit_status_messages",
  label: "Edit the last status message instead of posting a new one for status-only changes",
  validator: "check_bool",
};

/**
 * What can be set in the bot's `config_data` when it is created: the secret its requests are
 * verified with, for an integration whose service signs them (`<name>_secret`).
 */
export function configOptionsOf(i: AnyIntegration): ZulipWebhookOption[] {
  if (i.signature === undefined) return [];
  return [
    {
      key: `${i.name}_secret`,
      label: `${i.displayName} signing secret (requests without a valid signature are refused)`,
      validator: "check_string",
    },
  ];
}

/** One entry of `GET /api/v1/integrations` and `chat-server integrations`: all from the definition. */
export interface IntegrationSummary {
  name: string;
  display_name: string;
  categories: string[];
  description: string;
  url: string;
  event_header: string | null;
  options: { key: string; label: string; default?: unknown }[];
  /** Zulip 11's shapes of the options and of the bot's configuration (register's realm_incoming_webhook_bots). */
  url_options: ZulipWebhookOption[];
  config_options: ZulipWebhookOption[];
  events: string[];
  ignored_events: string[];
  signature: Record<string, unknown> | null;
}

export function integrationSummary(i: AnyIntegration): IntegrationSummary {
  const header = i.eventHeader?.name ?? null;
  const events = [...i.eventTypes];
  const options = Object.entries(
    (i.options ?? {}) as Record<string, { label: string; default?: unknown }>,
  ).map(([key, spec]) => ({
    key,
    label: spec.label,
    ...(spec.default !== undefined ? { default: spec.default } : {}),
  }));
  for (const o of lifecycleOptionsOf(i)) options.push({ key: o.key, label: o.label, default: false });
  let signature: Record<string, unknown> | null = null;
  if (i.signature !== undefined) {
    // Functions (signedContent) are not data: say that the content is not the raw body alone.
    const { signedContent, ...rest } = i.signature as typeof i.signature & { signedContent?: unknown };
    signature = signedContent === undefined ? { ...rest } : { ...rest, signed_content: "custom" };
  }
  return {
    name: i.name,
    display_name: i.displayName,
    categories: [...i.categories],
    description: i.description ?? "",
    url: `/api/v1/external/${i.name}`,
    event_header: header,
    options,
    url_options: urlOptionsOf(i),
    config_options: configOptionsOf(i),
    events,
    ignored_events: [...(i.ignoredEvents ?? [])],
    signature,
  };
}
