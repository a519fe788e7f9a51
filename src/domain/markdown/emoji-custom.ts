/**
 * Custom (realm) emoji in Markdown and reactions: the port the messages area reads them through,
 * the names a message may use, and Zulip's `<img>` markup for `:name:`.
 */

/** A custom emoji as rendering and reactions see it (src/domain/emoji owns them). */
export interface CustomEmojiRef {
  /** Zulip's emoji id as a string: reactions' `emoji_code`. */
  id: string;
  name: string;
  /** Where the image is served (`/user_avatars/<realm>/emoji/images/<file>`). */
  sourceUrl: string;
  deactivated: boolean;
}

/** What the messages area needs of the custom-emoji area. */
export interface CustomEmojiSource {
  /** The active custom emoji among `names`. */
  activeNamed(names: readonly string[]): Promise<CustomEmojiRef[]>;
  /** One custom emoji by its id (deactivated ones too), or undefined. */
  byCode(code: string): Promise<CustomEmojiRef | undefined>;
}

/** `:name:` as the renderer reads it (the same characters as Zulip's emoji pattern). */
const EMOJI_SYNTAX = /:([\w+-]+):/g;

/** The names written as `:name:` in `content` (a superset: code is not excluded). */
export function emojiNameCandidates(content: string): string[] {
  if (!content.includes(":")) return [];
  const names = new Set<string>();
  for (const m of content.matchAll(EMOJI_SYNTAX)) names.add(m[1] ?? "");
  return [...names];
}

function escapeAttr(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/**
 * Zulip's markup for an active custom emoji written `:name:` (markdown's make_realm_emoji: `alt`
 * is the syntax, `title` the name with spaces for underscores), or undefined when `name` is not
 * one of `custom` (the renderer then tries the Unicode names). Custom emoji win over Unicode ones.
 */
export function customEmojiHtml(
  custom: readonly CustomEmojiRef[] | undefined,
  name: string,
): string | undefined {
  const emoji = custom?.find((e) => e.name === name && !e.deactivated);
  if (emoji === undefined) return undefined;
  return `<img alt=":${escapeAttr(name)}:" class="emoji" src="${escapeAttr(emoji.sourceUrl)}" title="${escapeAttr(name.replace(/_/g, " "))}">`;
}
