import MarkdownIt from "markdown-it";
import type { StateCore, StateInline, Token } from "markdown-it";
import { EMOJI_CODEPOINTS } from "./emoji.js";
import { customEmojiHtml } from "./emoji-custom.js";
import type { CustomEmojiRef } from "./emoji-custom.js";
import { plainParagraphsHtml, withFastLinkNormalisers } from "./fast-paths.js";
import { MAX_LINKIFIER_LINKS, linkifierMatches } from "./linkifiers.js";
import type { Linkifier, LinkifierMatch } from "./linkifiers.js";

/**
 * Zulip-flavoured Markdown with markdown-it: paragraphs as `<p>…</p>`, single newlines as `<br>`,
 * raw HTML escaped, bare URLs linked, code blocks as Zulip's `codehilite` divs, plus Zulip's
 * inline syntax: user mentions `@**Full Name**` / `@**Full Name|id**`, silent mentions
 * `@_**Name**`, wildcard mentions `@**all**` (`everyone`, `stream`), stream links `#**stream**`
 * and `#**stream>topic**`, and `:emoji:` names. Everything here is pure: the caller looks up the
 * users and streams that the content may name (`mentionCandidates`) and passes them in.
 */

export interface MentionableUser {
  id: number;
  fullName: string;
}

export interface LinkableStream {
  id: number;
  name: string;
}

/** A user group that `@*name*` may mention, with its members. */
export interface MentionableGroup {
  id: number;
  name: string;
  memberIds: readonly number[];
}

export interface RenderContext {
  /** Users that mentions may resolve to (usually those named in `mentionCandidates`). */
  users: readonly MentionableUser[];
  /** User groups that `@*group*` mentions may resolve to (those named in `mentionCandidates`). */
  groups?: readonly MentionableGroup[];
  /** The realm's linkifiers, applied to text outside code and links (src/domain/markdown/linkifiers.ts). */
  linkifiers?: readonly Linkifier[];
  /** Streams that `#**stream**` links may resolve to (only ones the sender may see). */
  streams?: readonly LinkableStream[];
  /** Custom emoji that `:name:` may name (src/domain/markdown/emoji-custom.ts); they win over Unicode names. */
  customEmoji?: readonly CustomEmojiRef[];
  /**
   * The image proxy's URL for a remote image (src/domain/camo): a remote `![alt](url)` renders as an
   * `<img>` of the proxied URL, never of the third-party host; without it, as a plain link.
   */
  proxyImage?: (url: string) => string;
  /**
   * Uploaded images that links to `/user_uploads/<path id>` may preview (by decoded path id), with
   * their size and type: Zulip's `message_inline_image` markup, with the thumbnail's URL.
   */
  uploadedImages?: ReadonlyMap<string, { width: number; height: number; contentType: string }>;
}

export interface MentionResult {
  /**
   * Users mentioned by a (non-silent, non-wildcard) mention, outside code, or members of a group
   * mentioned so (`@*group*`, as Zulip adds them to the message's mentions); ascending, distinct.
   */
  mentionedUserIds: number[];
  /** Users named by a silent mention `@_**Name**` only. */
  silentlyMentionedUserIds: number[];
  /** `@**all**`, `@**everyone**` or `@**stream**` appears (outside code, not silent). */
  wildcard: boolean;
}

export interface Rendered extends MentionResult {
  html: string;
  linkedStreamIds: number[];
}

export const WILDCARD_MENTIONS: readonly string[] = ["all", "everyone", "stream"];

interface Env {
  ctx: RenderContext;
  mentioned: Set<number>;
  silent: Set<number>;
  wildcard: boolean;
  streams: Set<number>;
}

const MENTION_RE = /^@(_?)\*\*([^*]+)\*\*/;
const GROUP_MENTION_RE = /^@(_?)\*([^*]+)\*/;
const STREAM_RE = /^#\*\*([^*]+)\*\*/;
const EMOJI_RE = /^:([\w+-]+):/;
/** Zulip's look-behind for mentions and stream links: start, whitespace, quote, paren, comma, colon, `<`. */
const MENTION_PRECEDERS = /[\s'"(,:<]/;

function escapeHtml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** Zulip's hash_util_encode: percent-encoding with "." instead of "%". */
export function hashEncode(s: string): string {
  return encodeURIComponent(s)
    .replace(/[!'()*]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase())
    .replace(/\./g, "%2E")
    .replace(/%/g, ".");
}

/** `/#narrow/stream/<id>-<name>` as Zulip builds it. */
export function streamNarrowUrl(id: number, name: string): string {
  return `/#narrow/stream/${id}-${hashEncode(name.replace(/ /g, "-"))}`;
}

function precededOk(state: StateInline): boolean {
  if (state.pos === 0) return true;
  return MENTION_PRECEDERS.test(state.src.charAt(state.pos - 1));
}

function resolveUser(ctx: RenderContext, text: string): MentionableUser | undefined {
  const idSyntax = /^(.*)\|(\d+)$/.exec(text);
  if (idSyntax) {
    const name = idSyntax[1] ?? "";
    const user = ctx.users.find((u) => u.id === Number(idSyntax[2]));
    if (user === undefined) return undefined;
    if (name !== "" && name.toLowerCase() !== user.fullName.toLowerCase()) return undefined;
    return user;
  }
  const lower = text.toLowerCase();
  const matches = ctx.users.filter((u) => u.fullName.toLowerCase() === lower);
  return matches.length === 1 ? matches[0] : undefined;
}

function html(state: StateInline, content: string): void {
  const token = state.push("html_inline", "", 0);
  token.content = content;
}

function mentionRule(state: StateInline, silentMode: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x40 /* @ */ || !precededOk(state)) return false;
  const m = MENTION_RE.exec(state.src.slice(state.pos));
  if (!m) return groupMentionRule(state, silentMode);
  const env = state.env as Env;
  const silent = m[1] === "_";
  const name = m[2] ?? "";
  let out: string;
  if (WILDCARD_MENTIONS.includes(name)) {
    if (!silent) env.wildcard = true;
    out = `<span class="user-mention${silent ? " silent" : ""}" data-user-id="*">${silent ? "" : "@"}${escapeHtml(name)}</span>`;
  } else {
    const user = resolveUser(env.ctx, name);
    if (user === undefined) return false;
    (silent ? env.silent : env.mentioned).add(user.id);
    out = `<span class="user-mention${silent ? " silent" : ""}" data-user-id="${user.id}">${silent ? "" : "@"}${escapeHtml(user.fullName)}</span>`;
  }
  if (!silentMode) html(state, out);
  state.pos += m[0].length;
  return true;
}

/** `@*group*` (and silent `@_*group*`): Zulip's user-group mention; members count as mentioned. */
function groupMentionRule(state: StateInline, silentMode: boolean): boolean {
  const m = GROUP_MENTION_RE.exec(state.src.slice(state.pos));
  if (!m) return false;
  const env = state.env as Env;
  const silent = m[1] === "_";
  const name = (m[2] ?? "").toLowerCase();
  const group = (env.ctx.groups ?? []).find((g) => g.name.toLowerCase() === name);
  if (group === undefined) return false;
  if (!silent) for (const id of group.memberIds) env.mentioned.add(id);
  if (!silentMode) {
    html(
      state,
      `<span class="user-group-mention${silent ? " silent" : ""}" data-user-group-id="${group.id}">${silent ? "" : "@"}${escapeHtml(group.name)}</span>`,
    );
  }
  state.pos += m[0].length;
  return true;
}

function streamRule(state: StateInline, silentMode: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x23 /* # */ || !precededOk(state)) return false;
  const m = STREAM_RE.exec(state.src.slice(state.pos));
  if (!m) return false;
  const env = state.env as Env;
  const body = m[1] ?? "";
  const gt = body.indexOf(">");
  const streamName = gt === -1 ? body : body.slice(0, gt);
  const topic = gt === -1 ? undefined : body.slice(gt + 1);
  const stream = (env.ctx.streams ?? []).find((s) => s.name.toLowerCase() === streamName.toLowerCase());
  if (stream === undefined) return false;
  env.streams.add(stream.id);
  const url = streamNarrowUrl(stream.id, stream.name);
  const out =
    topic === undefined
      ? `<a class="stream" data-stream-id="${stream.id}" href="${escapeHtml(url)}">#${escapeHtml(stream.name)}</a>`
      : `<a class="stream-topic" data-stream-id="${stream.id}" href="${escapeHtml(`${url}/topic/${hashEncode(topic)}`)}">#${escapeHtml(stream.name)} &gt; ${escapeHtml(topic)}</a>`;
  if (!silentMode) html(state, out);
  state.pos += m[0].length;
  return true;
}

function emojiRule(state: StateInline, silentMode: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x3a /* : */) return false;
  const m = EMOJI_RE.exec(state.src.slice(state.pos));
  if (!m) return false;
  const name = m[1] ?? "";
  const custom = customEmojiHtml((state.env as Env).ctx.customEmoji, name);
  if (custom !== undefined) {
    if (!silentMode) html(state, custom);
    state.pos += m[0].length;
    return true;
  }
  const code = EMOJI_CODEPOINTS[name];
  if (code === undefined) return false;
  const title = escapeHtml(name.replace(/_/g, " "));
  if (!silentMode) {
    html(
      state,
      `<span aria-label="${title}" class="emoji emoji-${code}" role="img" title="${title}">:${escapeHtml(name)}:</span>`,
    );
  }
  state.pos += m[0].length;
  return true;
}

/**
 * The text's linkifier matches, left to right, as Zulip bounds them: each at a word boundary, the
 * earliest first (the first linkifier on a tie), none overlapping an earlier one. Each linkifier's
 * matcher only moves forward (linkifiers.ts), so this is linear in the text for every linkifier.
 */
function linkifierMatchesIn(text: string, linkifiers: readonly Linkifier[], max: number): LinkifierMatch[] {
  let pos = 0;
  const accept = (index: number, end: number): boolean => {
    const before = index === pos ? "" : (text[index - 1] ?? "");
    return (before === "" || MENTION_PRECEDERS.test(before)) && !/\w/.test(text[end] ?? "");
  };
  const next = linkifiers.map((l) => linkifierMatches(l, text));
  const ahead: (LinkifierMatch | undefined)[] = next.map((n) => n(0, accept));
  const out: LinkifierMatch[] = [];
  while (out.length < max) {
    let best: LinkifierMatch | undefined;
    for (const m of ahead) if (m !== undefined && (best === undefined || m.index < best.index)) best = m;
    if (best === undefined) return out;
    out.push(best);
    pos = best.end;
    for (let i = 0; i < ahead.length; i++) {
      const m = ahead[i];
      if (m !== undefined && m.index < pos) ahead[i] = next[i]?.(pos, accept);
    }
  }
  return out;
}

/** Core rule: links the text that a linkifier matches (not inside code or an existing link). */
function linkifierRule(state: StateCore): void {
  const linkifiers = (state.env as Env).ctx.linkifiers ?? [];
  if (linkifiers.length === 0) return;
  let linksLeft = MAX_LINKIFIER_LINKS;
  for (const block of state.tokens) {
    if (block.type !== "inline" || block.children === null) continue;
    const out: Token[] = [];
    let linkDepth = 0;
    for (const token of block.children) {
      if (token.type === "link_open") linkDepth += 1;
      if (token.type === "link_close") linkDepth -= 1;
      const matches =
        token.type !== "text" || linkDepth > 0 || linksLeft === 0
          ? []
          : linkifierMatchesIn(token.content, linkifiers, linksLeft);
      linksLeft -= matches.length;
      if (matches.length === 0) {
        out.push(token);
        continue;
      }
      const text = token.content;
      let done = 0;
      const pushText = (content: string): void => {
        const t = new state.Token("text", "", 0);
        t.content = content;
        out.push(t);
      };
      for (const match of matches) {
        if (match.index > done) pushText(text.slice(done, match.index));
        const open = new state.Token("link_open", "a", 1);
        open.attrs = [
          ["href", match.url],
          ["title", match.url],
        ];
        out.push(open);
        pushText(text.slice(match.index, match.end));
        out.push(new state.Token("link_close", "a", -1));
        done = match.end;
      }
      if (done < text.length) pushText(text.slice(done));
    }
    block.children = out;
  }
}

/**
 * `![alt](url)`: this server's own files (`/user_uploads/...`) load directly; a remote http(s) image
 * loads through the image proxy, so the image's host never sees who views the message (issue 23,
 * finding 6); anything else, or a remote image with no proxy, is a link.
 */
function imageRule(tokens: Token[], idx: number, _options: unknown, env: Env): string {
  const token = tokens[idx];
  const src = token?.attrGet("src") ?? "";
  const alt = token?.content ?? "";
  const altAttr = escapeHtml(alt).replace(/"/g, "&quot;");
  if (/^\/(?![/\\])/.test(src))
    return `<img alt="${altAttr}" src="${escapeHtml(src).replace(/"/g, "&quot;")}">`;
  const proxy = env.ctx.proxyImage;
  if (/^https?:\/\//i.test(src) && proxy !== undefined) {
    return `<img alt="${altAttr}" src="${escapeHtml(proxy(src)).replace(/"/g, "&quot;")}">`;
  }
  const href = escapeHtml(src).replace(/"/g, "&quot;");
  return `<a href="${href}">${escapeHtml(alt === "" ? src : alt)}</a>`;
}

/** A link to a remote image that Zulip previews inline: http(s), its path ending in an image extension. */
const REMOTE_IMAGE_LINK = /^https?:\/\/[^\s?#]+\.(?:png|jpe?g|gif|webp)(?:[?#][^\s]*)?$/i;

/** The thumbnail format previews show (src/domain/uploads/thumbnails.ts). */
const PREVIEW_FORMAT = "840x560.webp";

/** Zulip's preview of an uploaded image: the link, around its thumbnail. */
function previewHtml(
  path: string,
  title: string,
  image: { width: number; height: number; contentType: string },
): string {
  const attr = (v: string): string => escapeHtml(v);
  return (
    `<div class="message_inline_image"><a href="/user_uploads/${attr(path)}" title="${attr(title)}">` +
    `<img data-original-content-type="${attr(image.contentType)}" data-original-dimensions="${image.width}x${image.height}" ` +
    `src="/user_uploads/thumbnail/${attr(path)}/${PREVIEW_FORMAT}"></a></div>`
  );
}

function decodedPath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/**
 * Previews of uploaded images, as Zulip renders them: after the paragraph that links an uploaded
 * image, a `message_inline_image` block per image; a paragraph that is only that link becomes the
 * preview alone.
 */
function imagePreviewRule(state: StateCore): void {
  const ctx = (state.env as Env).ctx;
  const images =
    ctx.uploadedImages ?? new Map<string, { width: number; height: number; contentType: string }>();
  const proxy = ctx.proxyImage;
  if (images.size === 0 && proxy === undefined) return;
  const tokens = state.tokens;
  for (let i = 0; i + 2 < tokens.length; i++) {
    const inline = tokens[i + 1];
    if (tokens[i]?.type !== "paragraph_open" || inline?.type !== "inline") continue;
    const children = inline.children ?? [];
    const previews: string[] = [];
    for (let j = 0; j < children.length; j++) {
      const open = children[j];
      if (open?.type !== "link_open") continue;
      const href = open.attrGet("href") ?? "";
      let title = "";
      for (let k = j + 1; k < children.length && children[k]?.type !== "link_close"; k++) {
        title += children[k]?.content ?? "";
      }
      const m = /^\/user_uploads\/(.+)$/.exec(href);
      const image = m?.[1] === undefined ? undefined : images.get(decodedPath(m[1]));
      if (m?.[1] !== undefined && image !== undefined) {
        previews.push(previewHtml(m[1], title, image));
      } else if (proxy !== undefined && REMOTE_IMAGE_LINK.test(href)) {
        // A link to a remote image: Zulip's inline preview, loaded through the image proxy.
        const titleAttr = title === href ? "" : ` title="${escapeHtml(title)}"`;
        previews.push(
          `<div class="message_inline_image"><a href="${escapeHtml(href)}"${titleAttr}>` +
            `<img src="${escapeHtml(proxy(href))}"></a></div>`,
        );
      }
    }
    if (previews.length === 0) continue;
    const block = new state.Token("html_block", "", 0);
    block.content = previews.join("") + "\n";
    const onlyTheLink =
      previews.length === 1 &&
      children.filter((c) => !(c.type === "text" && c.content.trim() === "")).length === 3 &&
      children.find((c) => c.type !== "text" || c.content.trim() !== "")?.type === "link_open";
    if (onlyTheLink) {
      tokens.splice(i, 3, block);
    } else {
      tokens.splice(i + 3, 0, block);
      i += 3;
    }
  }
}

function createMarkdown(fastLinks: boolean): MarkdownIt {
  const md = new MarkdownIt("default", { html: false, linkify: true, breaks: true });
  if (fastLinks) withFastLinkNormalisers(md);
  md.inline.ruler.before("emphasis", "zulip_mention", mentionRule);
  md.inline.ruler.before("emphasis", "zulip_stream", streamRule);
  md.inline.ruler.before("emphasis", "zulip_emoji", emojiRule);
  md.core.ruler.after("linkify", "zulip_linkifiers", linkifierRule);
  md.core.ruler.push("zulip_image_previews", imagePreviewRule);
  md.renderer.rules.fence = (tokens, idx) =>
    `<div class="codehilite"><pre><span></span><code>${escapeHtml(tokens[idx]?.content ?? "")}</code></pre></div>\n`;
  md.renderer.rules.code_block = md.renderer.rules.fence;
  md.renderer.rules.image = imageRule;
  return md;
}

const md = createMarkdown(true);
let fullMd: MarkdownIt | undefined;

function ascending(s: Set<number>): number[] {
  return [...s].sort((a, b) => a - b);
}

function renderWith(parser: MarkdownIt, content: string, ctx: RenderContext): Rendered {
  const env: Env = { ctx, mentioned: new Set(), silent: new Set(), wildcard: false, streams: new Set() };
  const out = parser.render(content, env);
  let end = out.length;
  while (end > 0 && out.charCodeAt(end - 1) === 0x0a) end--;
  return {
    html: out.slice(0, end),
    mentionedUserIds: ascending(env.mentioned),
    silentlyMentionedUserIds: ascending(new Set([...env.silent].filter((id) => !env.mentioned.has(id)))),
    wildcard: env.wildcard,
    linkedStreamIds: ascending(env.streams),
  };
}

/** Renders message content to Zulip-like HTML and reports what it mentions and links. */
export function renderMarkdown(content: string, ctx: RenderContext): Rendered {
  // Text without markup skips markdown-it (fast-paths.ts; same HTML, nothing mentioned or linked).
  const plain = plainParagraphsHtml(content, ctx.linkifiers ?? []);
  if (plain !== undefined) {
    return {
      html: plain,
      mentionedUserIds: [],
      silentlyMentionedUserIds: [],
      wildcard: false,
      linkedStreamIds: [],
    };
  }
  return renderWith(md, content, ctx);
}

/** The renderer without the shortcuts of fast-paths.ts: what they are tested against. */
export function renderMarkdownFull(content: string, ctx: RenderContext): Rendered {
  fullMd ??= createMarkdown(false);
  return renderWith(fullMd, content, ctx);
}

/**
 * Who `content` mentions, with Zulip's rules: mentions inside code spans and code blocks do not
 * count; silent mentions (`@_**Name**`) are reported apart; wildcards only set `wildcard`. Pure:
 * `users` are the candidates (e.g. every active user, or just the bots to check). Use
 * `mentionedUserIds.includes(bot.id)` for "is this bot mentioned".
 */
export function findMentions(content: string, users: readonly MentionableUser[]): MentionResult {
  const { mentionedUserIds, silentlyMentionedUserIds, wildcard } = renderMarkdown(content, { users });
  return { mentionedUserIds, silentlyMentionedUserIds, wildcard };
}

/**
 * Names and ids the content may mention or link (a superset: code is not excluded), so that the
 * caller can load just those users and streams before rendering.
 */
export function mentionCandidates(content: string): {
  names: string[];
  ids: number[];
  streamNames: string[];
  groupNames: string[];
} {
  const names = new Set<string>();
  const ids = new Set<number>();
  for (const m of content.matchAll(/@_?\*\*([^*]+)\*\*/g)) {
    const text = m[1] ?? "";
    const idSyntax = /^(.*)\|(\d+)$/.exec(text);
    if (idSyntax) ids.add(Number(idSyntax[2]));
    else names.add(text.toLowerCase());
  }
  const streamNames = new Set<string>();
  for (const m of content.matchAll(/#\*\*([^*>]+)(?:>[^*]*)?\*\*/g)) streamNames.add(m[1] ?? "");
  const groupNames = new Set<string>();
  for (const m of content.matchAll(/@_?\*(?!\*)([^*]+)\*/g)) groupNames.add((m[1] ?? "").toLowerCase());
  return { names: [...names], ids: [...ids], streamNames: [...streamNames], groupNames: [...groupNames] };
}
