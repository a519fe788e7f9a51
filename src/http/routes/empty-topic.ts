import { EMPTY_TOPIC_DISPLAY_NAME } from "../../domain/events/render.js";

/**
 * For a request without `allow_empty_topic_name` (Zulip 10.0, feature level 334): the empty topic
 * of stream messages shown as the realm's `realm_empty_topic_display_name`, as Zulip does for
 * clients that do not know about empty topics.
 */
export function showEmptyTopics<T>(messages: readonly T[]): T[] {
  return messages.map((m) => {
    const r = m as Record<string, unknown>;
    return r["type"] === "stream" && r["subject"] === ""
      ? ({ ...r, subject: EMPTY_TOPIC_DISPLAY_NAME } as T)
      : m;
  });
}

/** A topic name as a client without `allow_empty_topic_name` sees it. */
export function shownTopic(name: string): string {
  return name === "" ? EMPTY_TOPIC_DISPLAY_NAME : name;
}
