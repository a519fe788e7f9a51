import type { Migration } from "./types.js";

/**
 * Event queues whose fan-out failed part way (Redis cut, command timed out): the users whose queues
 * must be invalidated, written before the request that caused the event is acknowledged, and
 * removed once a process has deleted those queues (src/domain/events/event-gaps.ts). A NULL user
 * stands for every all_public_streams queue. Empty in normal operation.
 */
export const eventQueueResets: Migration = {
  id: "040-event-queue-resets",
  up: (t) => `
CREATE TABLE event_queue_resets (id ${t.id}, user_id ${t.bigint}, created_at ${t.bigint} NOT NULL)`,
};
