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
