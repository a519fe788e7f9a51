import { defineIntegration, jsonOrForm } from "../kit/index.js";
import type { WebhookContext } from "../kit/index.js";
import { isSecretName } from "../../src/lib/redact.js";
import { templateRenderer } from "./render-pool.js";

/** Config keys (the bot's config_data). */
export const TOPIC_KEY = "template_topic";
export const BODY_KEY = "template_body";
/** Names a request header whose value picks `template_topic.<value>` / `template_body.<value>`. */
export const EVENT_HEADER_KEY = "template_event_header";

/** Used when the bot has no templates: the payload as a JSON code block. */
export const DEFAULT_TOPIC = "Webhook";
export const DEFAULT_BODY = "```json\n{{ payload | json }}\n```";

/** The templates for this request: the event header's pair when the bot has one, else the plain pair. */
export function templatesFor(
  config: Readonly<Record<string, string>>,
  header: (name: string) => string | undefined,
): { topic: string; body: string } {
  const headerName = config[EVENT_HEADER_KEY];
  const value = headerName === undefined || headerName === "" ? undefined : header(headerName);
  const pick = (key: string, fallback: string): string =>
    (value !== undefined ? config[`${key}.${value}`] : undefined) ?? config[key] ?? fallback;
  const hasAny =
    config[BODY_KEY] !== undefined || Object.keys(config).some((k) => k.startsWith(`${BODY_KEY}.`));
  return {
    topic: pick(TOPIC_KEY, hasAny ? "" : DEFAULT_TOPIC),
    body: pick(BODY_KEY, DEFAULT_BODY),
  };
}

/** The request's headers by lower-case name, as the templates may see them (credentials hidden). */
function headersOf(
  rawHeaders: (name: string) => string | undefined,
  names: readonly string[],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) {
    const value = rawHeaders(name);
    if (value !== undefined && !isSecretName(name)) out[name] = value;
  }
  return out;
}

/**
 * Renders a template pair for a request, as the template integration does: in the renderer's
 * thread (the event loop goes on serving requests meanwhile), seeing `payload`, the headers and
 * the query (credentials hidden). Also the kit's `ctx.renderTemplates` (`needs: ["templates"]`).
 */
export function renderTemplates(
  templates: { topic: string; body: string },
  payload: unknown,
  ctx: WebhookContext,
): Promise<{ topic: string; body: string }> {
  const query: Record<string, string> = {};
  for (const [k, v] of Object.entries(ctx.params)) if (k !== "api_key" && !isSecretName(k)) query[k] = v;
  return templateRenderer.render(templates, {
    payload,
    headers: headersOf((name) => ctx.header(name), ctx.headerNames()),
    query,
  });
}

export async function render(payload: unknown, ctx: WebhookContext) {
  const templates = templatesFor(ctx.botConfig(), (name) => ctx.header(name));
  const { topic, body } = await renderTemplates(templates, payload, ctx);
  // An empty body means "nothing to post" (a template may skip events with an `if`).
  return body === "" ? null : { topic, body };
}

/** Any service: the topic and body are LiquidJS templates from the bot's configuration (doc.md). */
export default defineIntegration({
  name: "template",
  displayName: "Template",
  categories: ["misc"],
  description:
    "Posts any service's webhooks through your own LiquidJS templates for the topic and the body, stored in the bot's configuration; no code needed.",
  body: jsonOrForm(),
  needs: ["botConfig"],
  unfilteredEvents: ["default"],
  events: {
    default: (p, ctx) => render(p.value, ctx),
  },
});
