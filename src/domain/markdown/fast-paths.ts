import type MarkdownIt from "markdown-it";
import { linkifierMatchesAnywhere } from "./linkifiers.js";
import type { Linkifier } from "./linkifiers.js";

/**
 * Shortcuts through the Markdown renderer for the commonest inputs, each giving exactly what the
 * full path gives (test/unit/markdown-fast-paths.test.ts checks both against the full renderer on
 * generated inputs):
 *
 * - `plainParagraphsHtml`: text without any markup → `<p>` paragraphs with `<br>` line breaks,
 *   without running markdown-it at all;
 * - `withFastLinkNormalisers`: markdown-it's `normalizeLink` / `normalizeLinkText` parse every link
 *   (mdurl), punycode its host and percent-encode it again; for an `http(s)` URL made only of
 *   characters those steps leave alone, the answer is the URL itself, so it is returned at once.
 *   Links were ~18 % of the time to render a GitHub push message.
 */

/**
 * One line the plain path can take: starts with a letter (so no list marker, heading, quote, code
 * indentation, thematic break or setext underline), then letters, marks, digits, spaces and
 * `, . ' ? ! ( ) -` only (no emphasis, code, link, HTML, entity, escape, mention, stream link,
 * emoji or strikethrough character), and no trailing space (which would make a hard break).
 */
const PLAIN_LINE = /^\p{L}[\p{L}\p{M}\p{N} ,.'?!()-]*$/u;
/** A full stop followed by a character (`example.com`): linkify may find a host name there. */
const DOT_BEFORE_CHAR = /\.[^ ]/;

/**
 * The HTML of `content` when it has no markup at all, else undefined. Blank lines separate
 * paragraphs; a single newline is a `<br>` (the renderer's `breaks: true`). `linkifiers` (the
 * realm's) must not match any line, or the full renderer is needed.
 */
export function plainParagraphsHtml(content: string, linkifiers: readonly Linkifier[]): string | undefined {
  if (content.length === 0) return undefined;
  const lines = content.split("\n");
  if (lines[0] === "" || lines[lines.length - 1] === "") return undefined;
  for (const line of lines) {
    if (line === "") continue;
    if (line.endsWith(" ") || !PLAIN_LINE.test(line) || DOT_BEFORE_CHAR.test(line)) return undefined;
    for (const l of linkifiers) if (linkifierMatchesAnywhere(l, line)) return undefined;
  }
  let html = "";
  let open = false;
  for (const line of lines) {
    if (line === "") {
      if (open) html += "</p>\n";
      open = false;
    } else if (open) {
      html += "<br>\n" + line;
    } else {
      html += "<p>" + line;
      open = true;
    }
  }
  return html + "</p>";
}

const LABEL = "[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?";
/**
 * `http(s)://host[path][?query][#fragment]` where the host is dot-separated LDH labels (at most 63
 * characters each) and the rest holds only characters that mdurl's encoder keeps as they are
 * (letters, digits and `;/?:@&=+$,-_.!~*'()#`) or, for `normalizeLink` only, `%XX` escapes.
 * No user info, no port, no IPv6, no whitespace.
 */
const SIMPLE_LINK = new RegExp(
  `^https?://${LABEL}(?:\\.${LABEL})*(?:[/?#](?:[A-Za-z0-9;/?:@&=+$,\\-_.!~*'()#]|%[0-9A-Fa-f]{2})*)?$`,
);
const SIMPLE_LINK_TEXT = new RegExp(
  `^https?://${LABEL}(?:\\.${LABEL})*(?:[/?#][A-Za-z0-9;/?:@&=+$,\\-_.!~*'()#]*)?$`,
);

/** mdurl drops host names longer than 255 characters; punycode decodes `xn--` labels. */
function hostIsPlain(url: string, forText: boolean): boolean {
  const start = url.indexOf("//") + 2;
  let end = start;
  while (end < url.length) {
    const c = url.charCodeAt(end);
    if (c === 0x2f || c === 0x3f || c === 0x23) break; // / ? #
    end++;
  }
  if (end - start > 255) return false;
  return !forText || !/(?:^|\.)xn--/i.test(url.slice(start, end));
}

export function fastNormalizeLink(full: (url: string) => string): (url: string) => string {
  return (url) => (SIMPLE_LINK.test(url) && hostIsPlain(url, false) ? url : full(url));
}

export function fastNormalizeLinkText(full: (url: string) => string): (url: string) => string {
  return (url) => (SIMPLE_LINK_TEXT.test(url) && hostIsPlain(url, true) ? url : full(url));
}

/** Installs the link shortcuts on `md` (its own normalisers stay the fallback). */
export function withFastLinkNormalisers(md: MarkdownIt): MarkdownIt {
  md.normalizeLink = fastNormalizeLink(md.normalizeLink.bind(md));
  md.normalizeLinkText = fastNormalizeLinkText(md.normalizeLinkText.bind(md));
  return md;
}
