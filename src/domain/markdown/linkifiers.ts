import type { RE2JS } from "re2js";
import { JsonableError } from "../../errors.js";

/**
 * A linkifier ready for the renderer: the pattern compiled by RE2JS, a linear-time engine (as Zulip
 * compiles linkifiers with RE2), so no pattern can make matching backtrack; and its URL template.
 */
export interface Linkifier {
  pattern: RE2JS;
  urlTemplate: string;
}

/** One match of a linkifier: where it is in the text and the URL it links to. */
export interface LinkifierMatch {
  index: number;
  end: number;
  url: string;
}

const TEMPLATE_VAR = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * Compiles a Zulip linkifier with RE2's syntax (Python's `(?P<name>…)` groups; no backreferences
 * or lookaround, which RE2 refuses as Zulip's does); every `{name}` of the URL template must be a
 * group of the pattern. Throws Zulip's errors. RE2JS is loaded by the first linkifier (a realm
 * without any never loads it).
 */
export async function compileLinkifier(pattern: string, urlTemplate: string): Promise<Linkifier> {
  const { RE2JS, RE2JSSyntaxException } = await import("re2js");
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(pattern);
  } catch (e) {
    if (e instanceof RE2JSSyntaxException) {
      throw new JsonableError(
        `Bad regular expression: ${e.error ?? "invalid pattern"}: ${e.input ?? pattern}`,
      );
    }
    throw new JsonableError("Bad regular expression: invalid pattern");
  }
  if (!/^https?:\/\/[^\s]+$/.test(urlTemplate.replace(TEMPLATE_VAR, "x"))) {
    throw new JsonableError("Invalid URL template.");
  }
  const groups = compiled.namedGroups();
  for (const m of urlTemplate.matchAll(TEMPLATE_VAR)) {
    if (groups[m[1] ?? ""] === undefined) {
      throw new JsonableError(`Group "${m[1] ?? ""}" in URL template is not present in linkifier pattern.`);
    }
  }
  return { pattern: compiled, urlTemplate };
}

/** Whether the linkifier matches anywhere in `text` (linear in its length). */
export function linkifierMatchesAnywhere(l: Linkifier, text: string): boolean {
  return l.pattern.matcher(text).find();
}

/**
 * How far one search of a linkifier looks: a match starts in the first half of a window of this
 * many characters, so it is at most this long. Each search then costs O(window) whatever the
 * pattern (with RE2JS a pattern such as `a.*b|a` otherwise scanned the whole rest of the text for
 * every match: quadratic), and a text costs O(length + matches × window).
 */
export const LINKIFIER_WINDOW = 256;

/**
 * Linkifier links in one message at most: finding a match with its groups costs RE2JS up to one
 * window, so this bounds the work of any pattern on any message (text past the last link stays text).
 */
export const MAX_LINKIFIER_LINKS = 500;

/**
 * The matches of one linkifier in one text, in order, each found from where the caller asks:
 * `next(from, accept)` is the first non-empty match starting at `from` or later that `accept`s.
 * Searches run over windows of LINKIFIER_WINDOW characters moving forward by half a window, so
 * `^` and `$` also match at a window's edges.
 */
export function linkifierMatches(
  l: Linkifier,
  text: string,
): (from: number, accept: (index: number, end: number) => boolean) => LinkifierMatch | undefined {
  const half = LINKIFIER_WINDOW / 2;
  // The current window and its matcher, reused while the caller moves forward inside it.
  let windowStart = -1;
  let windowEnd = -1;
  let matcher: ReturnType<RE2JS["matcher"]> | undefined;
  return (from, accept) => {
    let start = from;
    if (matcher !== undefined && from >= windowStart && from < windowStart + half) start = windowStart;
    else matcher = undefined;
    for (; start < text.length; start += half) {
      if (matcher === undefined) {
        windowStart = start;
        windowEnd = Math.min(text.length, start + LINKIFIER_WINDOW);
        matcher = l.pattern.matcher(text.slice(windowStart, windowEnd));
      }
      while (matcher.find()) {
        // A match starting in the second half is left to the next window, which holds more of it.
        if (matcher.start() >= half && windowEnd < text.length) break;
        const index = windowStart + matcher.start();
        const matchEnd = windowStart + matcher.end();
        if (index >= from && matchEnd > index && accept(index, matchEnd)) {
          const groups: Record<string, string | undefined> = {};
          for (const name of Object.keys(matcher.namedGroups))
            groups[name] = matcher.group(name) ?? undefined;
          return { index, end: matchEnd, url: linkifierUrl(l, groups) };
        }
      }
      matcher = undefined;
      if (windowEnd >= text.length) break;
    }
    return undefined;
  };
}

/** The URL of one match: each `{name}` replaced by the group's text, percent-encoded (RFC 6570). */
export function linkifierUrl(l: Linkifier, groups: Readonly<Record<string, string | undefined>>): string {
  return l.urlTemplate.replace(TEMPLATE_VAR, (_, name: string) => encodeURIComponent(groups[name] ?? ""));
}
