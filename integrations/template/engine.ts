import { Drop, Liquid, Tag } from "liquidjs";
import type { Emitter, TagToken, TopLevelToken } from "liquidjs";
import { isSecretName } from "../../src/lib/redact.js";
import { RENDER_LIMIT_MS, TemplateError } from "./render-protocol.js";

/**
 * The template integration's renderer: LiquidJS with every DoS limit set and no file system.
 * Templates come from a bot's config_data (or the preview endpoint), so they are untrusted.
 */

/** Largest template (topic + body), in characters (LiquidJS parseLimit). */
export const PARSE_LIMIT = 20_000;
/**
 * Largest allocation budget of one render (LiquidJS memoryLimit: strings, arrays, ranges), ten
 * times the largest body a template may produce.
 */
export const MEMORY_LIMIT = 100_000;
/** Largest rendered body (Zulip's message length limit). */
export const MAX_BODY_CHARS = 10_000;
/** Largest rendered topic (Zulip's topic length limit). */
export const MAX_TOPIC_CHARS = 60;

/** A template value as text: strings as they are, objects as JSON, nothing as "". */
export function asText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint")
    return String(value);
  return JSON.stringify(value) ?? "";
}

/** Backslash-escapes Markdown's special characters so that text renders as itself. */
export function markdownEscape(value: unknown): string {
  const text = asText(value);
  return text.replace(/[\\`*_{}[\]()<>#+\-.!|~@$:]/g, (c) => `\\${c}`);
}

/** Only http(s) and mailto links; anything else (javascript:, data:) is dropped. */
function safeUrl(value: unknown): string | undefined {
  const url = asText(value).trim();
  if (!/^(https?:\/\/|mailto:)/i.test(url)) return undefined;
  return url.replace(/[\s)]/g, (c) => encodeURIComponent(c));
}

/** `{{ url | link: "text" }}` → `[text](url)`, the text escaped; an unsafe URL gives the text alone. */
export function markdownLink(value: unknown, text?: unknown): string {
  const url = safeUrl(value);
  const label = text === undefined || text === null || text === "" ? asText(value) : asText(text);
  if (url === undefined) return markdownEscape(label);
  return `[${markdownEscape(label)}](${url})`;
}

/** Replaces a tag that would read files (include, render, layout): refused when parsed. */
class NoFileTag extends Tag {
  constructor(token: TagToken, remain: TopLevelToken[], liquid: Liquid) {
    super(token, remain, liquid);
    throw new Error(`the "${token.name}" tag is not available (templates cannot read files)`);
  }
  *render(_ctx: unknown, _emitter: Emitter): Generator<unknown, void, unknown> {
    // never reached: the constructor refuses the tag
  }
}

function engine(): Liquid {
  const liquid = new Liquid({
    // An empty in-memory file system: no lookups reach the disk.
    templates: {},
    relativeReference: false,
    dynamicPartials: false,
    strictFilters: true,
    strictVariables: false,
    ownPropertyOnly: true,
    jsTruthy: false,
    parseLimit: PARSE_LIMIT,
    renderLimit: RENDER_LIMIT_MS,
    memoryLimit: MEMORY_LIMIT,
    cache: false,
  });
  for (const name of ["include", "render", "layout", "block"]) liquid.registerTag(name, NoFileTag);
  liquid.registerFilter("markdown_escape", markdownEscape);
  liquid.registerFilter("link", markdownLink);
  liquid.registerFilter("code", (v: unknown) => {
    const text = asText(v).replace(/`/g, "'");
    return `\`${text}\``;
  });
  liquid.registerFilter("json", (v: unknown) => JSON.stringify(v) ?? "null");
  return liquid;
}

const liquid = engine();

interface LiquidErrorLike {
  message: string;
  token?: { getPosition?: () => [number, number] };
  originalError?: unknown;
}

function reasonOf(err: LiquidErrorLike): string {
  // LiquidJS appends ", line:N, col:M" to its messages: the position is reported on its own.
  const message = err.message.replace(/, line:\d+, col:\d+$/, "");
  return message.replace(/\s+/g, " ").trim();
}

function asTemplateError(template: "topic" | "body", err: unknown): TemplateError {
  if (err instanceof TemplateError) return err;
  const e = err as LiquidErrorLike;
  const position = e.token?.getPosition?.();
  return new TemplateError(template, reasonOf(e), position?.[0], position?.[1]);
}

/** Request headers as templates see them: `headers["x-github-event"]` or `headers.x_github_event`; no credentials. */
export class HeadersDrop extends Drop {
  constructor(private readonly lookup: (name: string) => string | undefined) {
    super();
  }
  override liquidMethodMissing(key: string | number): string | undefined {
    const name = String(key).toLowerCase();
    if (isSecretName(name)) return undefined;
    return this.lookup(name) ?? this.lookup(name.replace(/_/g, "-"));
  }
}

/** What a template sees. */
export interface TemplateScope {
  payload: unknown;
  /** By lower-case name (a Drop that looks headers up, in the integration). */
  headers: Readonly<Record<string, string>> | Drop;
  query: Readonly<Record<string, string>>;
}

function renderOne(template: "topic" | "body", source: string, scope: TemplateScope, max: number): string {
  let out: string;
  try {
    const parsed = liquid.parse(source);
    const rendered: unknown = liquid.renderSync(parsed, { ...scope });
    out = asText(rendered);
  } catch (err) {
    throw asTemplateError(template, err);
  }
  if (out.length > max) {
    throw new TemplateError(template, `the output is longer than ${max} characters`, undefined, undefined);
  }
  return out;
}

/** Renders a topic and a body template against a payload; TemplateError on any failure. */
export function renderTemplates(
  templates: { topic: string; body: string },
  scope: TemplateScope,
): { topic: string; body: string } {
  if (templates.topic.length + templates.body.length > PARSE_LIMIT) {
    throw new TemplateError(
      templates.body.length > templates.topic.length ? "body" : "topic",
      `the templates are longer than ${PARSE_LIMIT} characters`,
      undefined,
      undefined,
    );
  }
  const topic = renderOne("topic", templates.topic, scope, MAX_TOPIC_CHARS * 4)
    .replace(/\s+/g, " ")
    .trim();
  const body = renderOne("body", templates.body, scope, MAX_BODY_CHARS).trim();
  return {
    topic: topic.length > MAX_TOPIC_CHARS ? `${topic.slice(0, MAX_TOPIC_CHARS - 3)}...` : topic,
    body,
  };
}
