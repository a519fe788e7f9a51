import MarkdownIt from "markdown-it";
import type { User } from "../users/types.js";
import { isAdmin, isGuest } from "../users/types.js";
import { STREAM_ASSIGNMENT_COLORS } from "./types.js";
import type { Stream } from "./types.js";

/** Zulip's pick_color: the first palette colour the user has not used yet. */
export function pickColor(used: ReadonlySet<string>): string {
  const available = STREAM_ASSIGNMENT_COLORS.find((c) => !used.has(c));
  return available ?? STREAM_ASSIGNMENT_COLORS[used.size % STREAM_ASSIGNMENT_COLORS.length] ?? "#c2c2c2";
}

const markdown = new MarkdownIt({ html: false, linkify: true });

/** A stream description rendered as Zulip does (Markdown → HTML; empty stays empty). */
export function renderDescription(description: string): string {
  return description === "" ? "" : markdown.render(description).trim();
}

/** Users who may see the stream's subscriber list: private → subscribers and admins; public → every non-guest and the subscribers. */
export function peersOf(stream: Stream, subscribers: readonly number[], everyone: readonly User[]): number[] {
  const extra = stream.inviteOnly ? everyone.filter((u) => isAdmin(u)) : everyone.filter((u) => !isGuest(u));
  return union(
    extra.map((u) => u.id),
    subscribers,
  );
}

export function union(a: readonly number[], b: readonly number[]): number[] {
  return [...new Set([...a, ...b])].sort((x, y) => x - y);
}

export function uniqueStreams(streams: readonly Stream[]): Stream[] {
  const seen = new Map<number, Stream>();
  for (const s of streams) if (!seen.has(s.id)) seen.set(s.id, s);
  return [...seen.values()];
}

/** Python's default string order (by code point), which Zulip sorts stream names with. */
export function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
