import { JsonableError } from "../../errors.js";

/** A linkifier ready for the renderer: the pattern as a JS RegExp, and its URL template. */
export interface Linkifier {
  regex: RegExp;
  urlTemplate: string;
}

const TEMPLATE_VAR = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * Compiles a Zulip linkifier: Python's `(?P<name>…)` groups become JS named groups; every `{name}`
 * of the URL template must be a group of the pattern. Throws Zulip's errors.
 */
export function compileLinkifier(pattern: string, urlTemplate: string): Linkifier {
  let regex: RegExp;
  try {
    regex = new RegExp(pattern.replace(/\(\?P</g, "(?<"), "gu");
  } catch {
    throw new JsonableError("Bad regular expression: invalid pattern");
  }
  if (!/^https?:\/\/[^\s]+$/.test(urlTemplate.replace(TEMPLATE_VAR, "x"))) {
    throw new JsonableError("Invalid URL template.");
  }
  const groups = new Set([...pattern.matchAll(/\(\?P?<([A-Za-z_][A-Za-z0-9_]*)>/g)].map((m) => m[1]));
  for (const m of urlTemplate.matchAll(TEMPLATE_VAR)) {
    if (!groups.has(m[1])) {
      throw new JsonableError(`Group "${m[1] ?? ""}" in URL template is not present in linkifier pattern.`);
    }
  }
  return { regex, urlTemplate };
}

/** The URL of one match: each `{name}` replaced by the group's text, percent-encoded (RFC 6570). */
export function linkifierUrl(l: Linkifier, groups: Readonly<Record<string, string | undefined>>): string {
  return l.urlTemplate.replace(TEMPLATE_VAR, (_, name: string) => encodeURIComponent(groups[name] ?? ""));
}
