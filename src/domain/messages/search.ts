/**
 * Full-text search terms (the `search` narrow): the operand split into words and "quoted
 * phrases", as Zulip's search box does, and the highlighting of matches that Zulip returns as
 * `match_content` / `match_subject`.
 */

/** A search operand's words and phrases, lower-cased; punctuation-only pieces are dropped. */
export function searchTerms(operand: string): string[] {
  const out: string[] = [];
  const re = /"([^"]*)"|(\S+)/g;
  for (let m = re.exec(operand); m !== null; m = re.exec(operand)) {
    const piece = (m[1] ?? m[2] ?? "").toLowerCase();
    const words = piece.match(/[\p{L}\p{N}_]+/gu);
    if (words !== null) out.push(words.join(" "));
  }
  return out;
}

const escapeHtml = (s: string): string =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A regex for the terms' words at word starts (stemmed forms like "deploys" for "deploy" match too). */
function termPattern(terms: readonly string[]): RegExp | undefined {
  const words = [...new Set(terms.flatMap((t) => t.split(" ")).filter((w) => w !== ""))];
  if (words.length === 0) return undefined;
  words.sort((a, b) => b.length - a.length);
  return new RegExp(`(?<![\\p{L}\\p{N}_])(${words.map(escapeRe).join("|")})[\\p{L}\\p{N}_]*`, "giu");
}

const wrap = (text: string): string => `<span class="highlight">${text}</span>`;

/** Rendered HTML with matching words in text (never inside tags) wrapped in highlight spans. */
export function highlightHtml(html: string, terms: readonly string[]): string {
  const re = termPattern(terms);
  if (re === undefined) return html;
  return html
    .split(/(<[^>]*>)/)
    .map((part) => (part.startsWith("<") ? part : part.replace(re, (w) => wrap(w))))
    .join("");
}

/** A topic, HTML-escaped, with matching words highlighted. */
export function highlightText(text: string, terms: readonly string[]): string {
  const escaped = escapeHtml(text);
  return highlightHtml(escaped, terms);
}
