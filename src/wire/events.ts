import type { Reaction } from "../domain/messages/types.js";
import type { MutedTopic, Stream } from "../domain/streams/types.js";
import type { User } from "../domain/users/types.js";
import { streamWire } from "./streams.js";

/** Zulip's event shapes (GET /events), built in one place for every publisher. */
export type WireEvent = Record<string, unknown> & { type: string };

/** `reaction` add/remove (Zulip's notify_reaction_update). */
export function reactionEvent(user: User, op: "add" | "remove", r: Reaction): WireEvent {
  return {
    type: "reaction",
    op,
    user_id: user.id,
    user: { user_id: user.id, email: user.email, full_name: user.fullName, is_mirror_dummy: false },
    message_id: r.messageId,
    emoji_name: r.emojiName,
    emoji_code: r.emojiCode,
    reaction_type: r.reactionType,
  };
}

/** `update_message_flags` (with the deprecated `operation` alias). */
export function flagsEvent(
  op: "add" | "remove",
  flag: string,
  messages: readonly number[],
  all = false,
  messageDetails?: Record<string, Record<string, unknown>>,
): WireEvent {
  const event: WireEvent = {
    type: "update_message_flags",
    op,
    operation: op,
    flag,
    messages: [...messages],
    all,
  };
  if (messageDetails !== undefined) event["message_details"] = messageDetails;
  return event;
}

/** `delete_message` for messages of one conversation. */
export function deleteMessageEvent(
  ids: readonly number[],
  stream: Stream | undefined,
  topic: string,
): WireEvent {
  const event: WireEvent = {
    type: "delete_message",
    message_ids: [...ids],
    message_type: stream === undefined ? "private" : "stream",
  };
  if (stream !== undefined) {
    event["stream_id"] = stream.id;
    event["topic"] = topic;
  }
  return event;
}

/** `stream` create / delete with BasicChannel objects. */
export function streamOpEvent(op: "create" | "delete", streams: readonly Stream[]): WireEvent {
  return { type: "stream", op, streams: streams.map(streamWire) };
}

/** `stream` update of one property. */
export function streamUpdateEvent(
  stream: Stream,
  property: string,
  value: unknown,
  extra: Record<string, unknown> = {},
): WireEvent {
  return { type: "stream", op: "update", property, value, stream_id: stream.id, name: stream.name, ...extra };
}

/** `subscription` remove for one user. */
export function subscriptionRemoveEvent(streams: readonly Stream[]): WireEvent {
  return {
    type: "subscription",
    op: "remove",
    subscriptions: streams.map((s) => ({ name: s.name, stream_id: s.id })),
  };
}

/** `subscription` peer_add / peer_remove. */
export function peerEvent(
  op: "peer_add" | "peer_remove",
  streamIds: readonly number[],
  userIds: readonly number[],
): WireEvent {
  return {
    type: "subscription",
    op,
    stream_ids: [...streamIds],
    user_ids: [...userIds].sort((a, b) => a - b),
  };
}

/** `subscription` update of one property of the user's subscription. */
export function subscriptionUpdateEvent(
  streamId: number,
  property: string,
  value: string | boolean,
): WireEvent {
  return { type: "subscription", op: "update", property, value, stream_id: streamId };
}

/** The full `muted_topics` list. */
export function mutedTopicsEvent(mutedTopics: readonly MutedTopic[]): WireEvent {
  return { type: "muted_topics", muted_topics: [...mutedTopics] };
}
