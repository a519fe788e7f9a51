/**
 * Text of an HTML fragment, as Python's `HTMLParser` collects it with `convert_charrefs` (what
 * Zulip's Intercom integration quotes): tags and comments dropped, character references decoded.
 */
const NAMED: Readonly<Record<string, string>> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: "\u00a0",
  hellip: "\u2026",
  mdash: "\u2014",
  ndash: "\u2013",
  lsquo: "\u2018",
  rsquo: "\u2019",
  ldquo: "\u201c",
  rdquo: "\u201d",
  copy: "\u00a9",
  reg: "\u00ae",
  trade: "\u2122",
  euro: "\u20ac",
};

function decodeReference(ref: string, whole: string): string {
  if (ref.startsWith("#x") || ref.startsWith("#X")) {
    const code = Number.parseInt(ref.slice(2), 16);
    return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  }
  if (ref.startsWith("#")) {
    const code = Number.parseInt(ref.slice(1), 10);
    return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  }
  return NAMED[ref] ?? whole;
}

export function stripTags(html: string): string {
  return html
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(/<\/?[a-zA-Z][^>]*>/g, "")
    .replace(/&(#[0-9]+|#[xX][0-9a-fA-F]+|[a-zA-Z]+);/g, (whole, ref: string) => decodeReference(ref, whole));
}
