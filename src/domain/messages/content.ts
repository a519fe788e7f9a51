import { JsonableError } from "../../errors.js";
import { EMPTY_TOPIC_DISPLAY_NAME } from "../events/render.js";

/** Zulip's limits (core-api §7). */
export const MAX_MESSAGE_LENGTH = 10000;
export const MAX_TOPIC_NAME_LENGTH = 60;
export const MAX_MESSAGES_PER_FETCH = 5000;
export const LARGER_THAN_MAX_MESSAGE_ID = 10000000000000000;
export const MAX_UNREAD_MESSAGES = 50000;

/** The topic older clients send for "no topic" (read as the empty topic from feature level 370). */
export const NO_TOPIC_NAME = "(no topic)";

/** What Zulip puts at the end of content it truncated to MAX_MESSAGE_LENGTH. */
export const TRUNCATION_NOTICE = "\n[message truncated]";

/** Zulip's truncate_content. */
export function truncate(text: string, max: number, suffix: string): string {
  return text.length <= max ? text : text.slice(0, max - suffix.length) + suffix;
}

/** Zulip's normalize_body: strip trailing whitespace and leading newlines; checks; truncation. */
export function normalizeContent(raw: string): string {
  const content = raw.trimEnd().replace(/^\n+/, "");
  if (content === "") throw new JsonableError("Message must not be empty");
  if (content.includes("\0")) throw new JsonableError("Message must not contain null bytes");
  return truncate(content, MAX_MESSAGE_LENGTH, TRUNCATION_NOTICE);
}

/** Zulip's topic checks: blank → error; longer than 60 → 57 characters + "...". */
export function normalizeTopic(raw: string): string {
  const topic = raw.trim();
  if (topic === "") throw new JsonableError("Topic can't be empty");
  return truncate(topic, MAX_TOPIC_NAME_LENGTH, "...");
}

/**
 * Whether a channel message's topic as sent means the empty topic ("general chat"): blank, or, as
 * Zulip reads them from feature level 370, "(no topic)" or `realm_empty_topic_display_name`.
 */
export function isEmptyTopicName(raw: string): boolean {
  const topic = raw.trim();
  return topic === "" || topic === NO_TOPIC_NAME || topic === EMPTY_TOPIC_DISPLAY_NAME;
}

/** A /me message: one line starting with "/me ". */
export const isMe = (content: string): boolean => content.startsWith("/me ") && !content.includes("\n");

export const invalidMessage = (): JsonableError => new JsonableError("Invalid message(s)");

/** Participant ids of a private message (empty for stream messages). */
export function pmIds(m: { pmKey: string | null }): number[] {
  return m.pmKey === null ? [] : m.pmKey.split(",").map(Number);
}

/** Zulip's has_link / has_image / has_attachment, read off the rendered HTML. */
export function messageHas(html: string): { link: boolean; image: boolean; attachment: boolean } {
  return {
    link: /<a\s[^>]*href=/i.test(html),
    image: /<img\s/i.test(html),
    // The plain search first: the full pattern backtracks over every link of a message with many.
    attachment: /\/user_uploads\//i.test(html) && /<a\s[^>]*href="(?:[^"]*)?\/user_uploads\//i.test(html),
  };
}
