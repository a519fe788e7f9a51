/** A custom emoji as register's `realm_emoji` and `realm_emoji` events describe it. */
export interface CustomEmoji {
  id: string;
  name: string;
  source_url: string;
  deactivated: boolean;
}

/** The active custom emoji of a `realm_emoji` dict, by name (deactivated ones cannot be picked). */
export function activeCustomEmoji(dict: unknown): Map<string, CustomEmoji> {
  const out = new Map<string, CustomEmoji>();
  const all = Object.values((dict ?? {}) as Record<string, CustomEmoji>).sort((a, b) =>
    a.name.localeCompare(b.name),
  );
  for (const e of all) if (!e.deactivated) out.set(e.name, e);
  return out;
}

/** Inserts `:name:` at the caret (with a space before it when it would touch a word). */
export function insertEmoji(text: string, caret: number, name: string): { text: string; caret: number } {
  const before = text.slice(0, caret);
  const syntax = `${before === "" || /\s$/.test(before) ? "" : " "}:${name}: `;
  return { text: before + syntax + text.slice(caret), caret: caret + syntax.length };
}

/** The character(s) of a Unicode emoji code as Zulip writes it (`1f389`, `1f636-200d-1f32b`). */
export function emojiChar(code: string): string {
  const points = code.split("-").map((h) => Number.parseInt(h, 16));
  return points.every((p) => Number.isInteger(p) && p > 0 && p <= 0x10ffff)
    ? String.fromCodePoint(...points)
    : "";
}

/** Every Unicode emoji name → code, loaded on first use (the picker), so the first screen stays small. */
let unicodeTable: Promise<Readonly<Record<string, string>>> | undefined;
export function unicodeEmoji(): Promise<Readonly<Record<string, string>>> {
  unicodeTable ??= import("../../../src/domain/markdown/emoji.js").then((m) => m.EMOJI_CODEPOINTS);
  return unicodeTable;
}

/** Names matching a search (prefix of the name or of one of its words first), at most `limit`. */
export function searchEmoji(names: readonly string[], query: string, limit = 48): string[] {
  const q = query.trim().toLowerCase().replace(/^:|:$/g, "");
  if (q === "") return names.slice(0, limit);
  const starts = names.filter((n) => n.startsWith(q));
  const words = names.filter((n) => !n.startsWith(q) && n.split(/[_-]/).some((w) => w.startsWith(q)));
  return [...starts, ...words].slice(0, limit);
}
