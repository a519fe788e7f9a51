/**
 * The template integration's renderer as `POST /integrations/template/preview` uses it: a topic
 * and a body template rendered against a sample request, or a JsonableError naming the template,
 * line and column. Wired to integrations/template in src/services.ts (rendered off the event loop).
 */
export type TemplatePreview = (
  templates: { topic: string; body: string },
  sample: {
    payload: unknown;
    headers: Readonly<Record<string, string>>;
    query: Readonly<Record<string, string>>;
  },
) => Promise<{ topic: string; body: string }>;
