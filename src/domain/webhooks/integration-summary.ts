import type { AnyIntegration } from "../../../integrations/kit/define-integration.js";

/** One entry of `GET /api/v1/integrations` and `chat-server integrations`: all from the definition. */
export interface IntegrationSummary {
  name: string;
  display_name: string;
  categories: string[];
  description: string;
  url: string;
  event_header: string | null;
  options: { key: string; label: string; default?: unknown }[];
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
    events,
    ignored_events: [...(i.ignoredEvents ?? [])],
    signature,
  };
}
