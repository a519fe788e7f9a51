/**
 * Where domain services publish Zulip events. The event-queue system (src/domain/events/) implements
 * it; services never know about queues. `send` must not block: fan-out happens after the caller's
 * write has committed, and costs O(recipients).
 */
export type ZulipEvent = Record<string, unknown> & { type: string };

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
