/**
 * Where domain services publish Zulip events. The event-queue system (src/domain/events/) implements
 * it; services never know about queues. `send` must not block: fan-out happens after the caller's
 * write has committed, and costs O(recipients).
 *
 * Publish the event in its wire form (without `id`: each queue numbers its own events). Keys that
 * start with `_` are internal: the queues read them and strip them before delivery, at the top level
 * and inside `message`:
 * - `_raw_content` (top level or in `message`): the Markdown source of a `message` event whose
 *   `message.content` is the rendered HTML; queues registered with apply_markdown=false get it as
 *   `content` (content_type "text/x-markdown").
 * - `message._avatar_uploaded: true`: keep `avatar_url` for client_gravatar queues.
 * - `_public_stream: true` on a stream `message` event: also delivered, with flags [], to the
 *   all_public_streams queues of users who are not recipients.
 * - `_sender_queue_id` + `_local_id`: the sending client's queue gets `local_message_id`.
 * A recipient's `flags` become the event's `flags` in that user's queues (message, update_message).
 * `delete_message` events carry `message_ids`; queues without bulk_message_deletion get one event
 * per id. `update_message_flags` events are coalesced per queue while undelivered.
 */
export type ZulipEvent = Record<string, unknown> & { type: string };

/*
 * What the messages service (src/domain/messages/) publishes, after each write commits:
 * - `message`: `{type, message: <GET /messages dict with content = rendered HTML, content_type
 *   "text/html", avatar_url set>, _raw_content: <Markdown>}` plus `_public_stream: true` for public
 *   streams and `_sender_queue_id`/`_local_id` for local echo; recipients are `{id, flags}`.
 * - `update_message`: Zulip's fields (core-api §4.2) without `flags`; recipients are `{id, flags}`
 *   (users with the message, plus `["read"]` for subscribers of shared-history streams).
 * - `delete_message`: the bulk form `{message_ids, message_type, stream_id?, topic?}`; bare ids.
 * - `update_message_flags`: `{op, operation, flag, messages, all}` to the one user; only the ids
 *   that changed, none when nothing changed (mark_all_as_read always sends `all: true`).
 */

/** A recipient with per-user data (message flags); a bare number means no per-user data. */
export interface EventRecipient {
  id: number;
  flags?: readonly string[];
}

export interface EventSink {
  send(event: ZulipEvent, recipients: Iterable<number | EventRecipient>): void;
}

/** Drops every event: for tools and tests that do not look at events. */
export const nullEventSink: EventSink = { send: () => undefined };
