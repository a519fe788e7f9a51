import type { ZulipEvent } from "./event-sink.js";
import type { NarrowTerm } from "./narrow.js";

/** Zulip's constants (zerver/tornado/event_queue.py). */
export const MAX_QUEUE_TIMEOUT_SECS = 604_800;

/** The `client_capabilities` a queue honours when filtering or shaping events. */
export interface QueueCapabilities {
  /** delete_message events carry `message_ids` (one event) instead of one event per `message_id`. */
  bulkMessageDeletion: boolean;
  /** The queue gets `user_settings` events, not the legacy update_global_notifications/display ones. */
  userSettingsObject: boolean;
  /** Typing notifications for streams. */
  streamTypingNotifications: boolean;
  /**
   * The empty topic ("general chat") arrives as "" (Zulip 10.0, feature level 334); without it, as
   * the realm's `realm_empty_topic_display_name`. Absent in queues made before it existed.
   */
  emptyTopicName?: boolean;
}

/** What a queue was registered with. Immutable after allocation (a Redis store may cache it). */
export interface QueueOptions {
  /** null = every event type; `heartbeat` is never filtered. */
  eventTypes: readonly string[] | null;
  /** Filters message events only; [] = all messages. */
  narrow: readonly NarrowTerm[];
  allPublicStreams: boolean;
  /** true: message `content` as rendered HTML; false: the raw Markdown (`_raw_content`). */
  applyMarkdown: boolean;
  /** true: message `avatar_url` is null (the client computes the Gravatar URL). */
  clientGravatar: boolean;
  capabilities: QueueCapabilities;
}

/** A queue as the store describes it. */
export interface QueueDescriptor {
  id: string;
  userId: number;
  options: QueueOptions;
  /** Idle lifetime: GC'd when no waiter is attached and now − lastConnectionMs ≥ this. */
  lifespanSecs: number;
  lastConnectionMs: number;
  newestPrunedId: number;
  /** Id of the attached long-poll (process-unique), or null. */
  waiterId: string | null;
}

export interface NewQueue {
  id: string;
  userId: number;
  options: QueueOptions;
  lifespanSecs: number;
  nowMs: number;
}

/**
 * An event as queued: the published event object (shared by every queue it went to, never mutated),
 * plus what is particular to this queue's user. Rendering for the queue (apply_markdown,
 * client_gravatar, stripping `_` fields) happens on delivery.
 */
export interface QueuedEvent {
  id: number;
  event: ZulipEvent;
  /** The recipient's flags (message events and other per-user events); undefined = none given. */
  flags: readonly string[] | undefined;
}

/** The outcome of acknowledging `last_event_id` (steps 4–6 of core-api §2.3). */
export type AckResult =
  | { ok: true }
  | { ok: false; reason: "already-pruned" | "not-in-queue" | "no-queue"; newestPrunedId: number };
