/** `@`-mention typeahead: what is being typed, who matches, and the text after picking someone. */

export interface MentionQuery {
  /** Where the `@` is in the text. */
  start: number;
  query: string;
}

/** The mention being typed just before the caret, if any (`@ham`, `@**ham`). */
export function mentionAt(text: string, caret: number): MentionQuery | undefined {
  const before = text.slice(0, caret);
  const match = /(^|\s)@(\*\*)?([^\s*@]*(?: [^\s*@]+)?)$/.exec(before);
  if (!match) return undefined;
  const start = before.length - match[0].length + (match[1]?.length ?? 0);
  return { start, query: match[3] ?? "" };
}

export interface Mentionable {
  full_name: string;
  email: string;
  is_bot: boolean;
}

/** People and bots whose name (any word) or email starts with the query; at most `limit`. */
export function matchMentions<T extends Mentionable>(people: Iterable<T>, query: string, limit = 8): T[] {
  const q = query.toLowerCase();
  const out: T[] = [];
  for (const p of people) {
    const words = p.full_name.toLowerCase().split(/\s+/);
    if (
      q === "" ||
      p.full_name.toLowerCase().startsWith(q) ||
      words.some((w) => w.startsWith(q)) ||
      p.email.toLowerCase().startsWith(q)
    ) {
      out.push(p);
    }
  }
  out.sort((a, b) => a.full_name.localeCompare(b.full_name));
  return out.slice(0, limit);
}

/** The text with the typed mention replaced by `@**Full Name** `, and where the caret goes. */
export function insertMention(text: string, caret: number, at: MentionQuery, fullName: string) {
  const inserted = `@**${fullName}** `;
  const next = text.slice(0, at.start) + inserted + text.slice(caret);
  return { text: next, caret: at.start + inserted.length };
}
