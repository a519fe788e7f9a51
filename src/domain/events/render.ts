import type { ZulipEvent } from "./event-sink.js";
import { matchesNarrow } from "./narrow.js";
import type { QueueOptions, QueuedEvent } from "./types.js";

/** Wire form of one delivered event. */
export type DeliveredEvent = Record<string, unknown> & { id: number; type: string };

/**
 * Internal fields a publisher may put on events (all stripped on delivery, like every key that
 * starts with `_`, at the top level and inside `message`):
 * - `message._raw_content` (or top-level `_raw_content`): the Markdown source; delivered as `content`
 *   to queues registered with apply_markdown=false (content_type "text/x-markdown").
 * - `message._avatar_uploaded: true`: the sender has an uploaded avatar, so client_gravatar does not
 *   null its `avatar_url`.
 * - `_public_stream: true` on a stream message: also delivered (flags []) to all_public_streams queues.
 * - `_sender_queue_id` + `_local_id`: the queue of the sending client gets `local_message_id`.
 */
function stripInternal(obj: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(obj)) if (!k.startsWith("_")) out[k] = obj[k];
  return out;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Whether a queue with `options` takes `event` for a user with `flags` (core-api §2.5). */
export function acceptsEvent(
  options: QueueOptions,
  event: ZulipEvent,
  flags: readonly string[] | undefined,
): boolean {
  const { type } = event;
  if (type === "heartbeat") return true;
  if (options.eventTypes !== null) {
    if (!options.eventTypes.includes(type)) return false;
    if (type === "muted_topics" && options.eventTypes.includes("user_topic")) return false;
  }
  if (
    options.capabilities.userSettingsObject &&
    (type === "update_display_settings" || type === "update_global_notifications")
  ) {
    return false;
  }
  // Typing notifications in streams go only to clients that declared they understand them.
  if (
    type === "typing" &&
    event["message_type"] === "stream" &&
    !options.capabilities.streamTypingNotifications
  ) {
    return false;
  }
  if (type === "message" && options.narrow.length > 0) {
    const message = event["message"];
    if (!isRecord(message)) return false;
    return matchesNarrow(options.narrow, message, flags ?? []);
  }
  return true;
}

/**
 * The events a queue stores for one published event: itself, or for delete_message with several
 * `message_ids` and a queue without bulk_message_deletion, one event per message (`message_id`).
 */
export function eventsForQueue(options: QueueOptions, event: ZulipEvent): ZulipEvent[] {
  if (event.type === "delete_message" && !options.capabilities.bulkMessageDeletion) {
    const ids = event["message_ids"];
    if (Array.isArray(ids)) {
      return ids.map((messageId) => {
        const { message_ids: _ignored, ...rest } = event;
        return { ...rest, message_id: messageId as unknown };
      });
    }
  }
  return [event];
}

/**
 * The coalescing key of an update_message_flags event (`flags/{op}/{flag}`), or undefined when it is
 * not coalesced: `all: true` events and `flags/remove/read` (core-api §2.5).
 */
export function coalesceKeyOf(event: ZulipEvent): string | undefined {
  if (event.type !== "update_message_flags" || event["all"] === true) return undefined;
  const op = typeof event["op"] === "string" ? event["op"] : event["operation"];
  const flag = event["flag"];
  if (typeof op !== "string" || typeof flag !== "string") return undefined;
  if (op === "remove" && flag === "read") return undefined;
  return `flags/${op}/${flag}`;
}

/** Zulip's `realm_empty_topic_display_name`: how the empty topic reaches clients without `empty_topic_name`. */
export const EMPTY_TOPIC_DISPLAY_NAME = "general chat";

/** The topic fields of each event type that carries a stream topic. */
const TOPIC_FIELDS: Readonly<Record<string, readonly string[]>> = {
  update_message: ["topic", "subject", "orig_subject", "orig_topic"],
  delete_message: ["topic"],
  typing: ["topic"],
  user_topic: ["topic_name"],
};

/**
 * For a queue without the `empty_topic_name` capability: the empty topic of a stream message or
 * event shown as EMPTY_TOPIC_DISPLAY_NAME (Zulip 10.0, feature level 334).
 */
function showEmptyTopic(out: Record<string, unknown>, type: string): void {
  if (type === "message") {
    const m = out["message"];
    if (isRecord(m) && m["type"] === "stream" && m["subject"] === "") m["subject"] = EMPTY_TOPIC_DISPLAY_NAME;
    return;
  }
  for (const field of TOPIC_FIELDS[type] ?? []) {
    if (out[field] === "") out[field] = EMPTY_TOPIC_DISPLAY_NAME;
  }
}

/** One queued event as the queue's client receives it. */
export function renderEvent(queued: QueuedEvent, queueId: string, options: QueueOptions): DeliveredEvent {
  const { event } = queued;
  const out = stripInternal(event);
  if (queued.flags !== undefined) out["flags"] = [...queued.flags];
  if (event.type === "message") {
    const message = event["message"];
    if (isRecord(message)) {
      const m = stripInternal(message);
      if (options.applyMarkdown) {
        m["content_type"] = "text/html";
      } else {
        const raw = message["_raw_content"] ?? event["_raw_content"];
        if (typeof raw === "string") m["content"] = raw;
        m["content_type"] = "text/x-markdown";
      }
      if (options.clientGravatar && "avatar_url" in m && message["_avatar_uploaded"] !== true) {
        m["avatar_url"] = null;
      }
      out["message"] = m;
    }
    out["flags"] ??= [];
    const localId = event["_local_id"];
    if (event["_sender_queue_id"] === queueId && localId !== undefined) {
      out["local_message_id"] = localId;
    }
  }
  if (options.capabilities.emptyTopicName !== true) showEmptyTopic(out, event.type);
  out["id"] = queued.id;
  return out as DeliveredEvent;
}
