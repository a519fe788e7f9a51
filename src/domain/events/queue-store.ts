import type { ZulipEvent } from "./event-sink.js";
import type { AckResult, NewQueue, QueueDescriptor, QueuedEvent } from "./types.js";

/**
 * Where event queues live. The in-memory store (memory-queue-store.ts) serves one process; the
 * interface is shaped so that a Redis-backed store can replace it and let any process serve any
 * queue. Every method is async and each one is a single atomic step (a Lua script or MULTI in
 * Redis), so the service never needs a lock spanning two calls.
 *
 * The seams, and how a Redis store would implement them:
 * - allocate   `HSET q:<id> …` (descriptor; options JSON, immutable), `SADD user:<uid>:queues <id>`,
 *              `SADD public-queues <id>` when all_public_streams, `ZADD q:gc <lastConnection> <id>`.
 * - push       one script: `HINCRBY q:<id> next_event_id 1` → id, `RPUSH q:<id>:events <json>`
 *              (or, with a coalesce key, update the pending virtual event `HSET q:<id>:virtual`),
 *              returns the unacknowledged count; then `PUBLISH q-events <id>` (→ onEventsAvailable
 *              in every process, so the process holding the waiter answers it).
 * - acknowledge / fetch (fetch-after)   one script each: LRANGE/LTRIM on `q:<id>:events` using the
 *              descriptor's newest_pruned_id (steps 4–6 of the long-poll algorithm); fetch folds the
 *              virtual (coalesced) events into the list, ordered by id.
 * - attach / detach waiter   `HSET q:<id> waiter <process:request id> last_connection …` and a
 *              compare-and-delete on detach; a superseded waiter in another process is told through
 *              `PUBLISH q-supersede <id>`. The waiter itself (an open HTTP response) stays in the process
 *              that holds the socket; only its id is shared.
 * - GC         `expiredQueueIds`: scan `q:gc` by score for ids with no waiter; `delete` removes all
 *              keys of the queue and its index entries. Several processes may sweep; delete is idempotent.
 * Event objects are shared by reference in memory; a Redis store serialises them (they are JSON).
 * The Redis store is src/infra/redis/redis-queue-store.ts (`serve --redis`).
 */
export interface EventQueueStore {
  /**
   * The same steps answered at once, for a store that lives in this process (the memory store):
   * fan-out then pushes to every recipient's queues in one pass, without a promise per step.
   */
  readonly sync?: SyncFanoutSteps;
  allocate(queue: NewQueue): Promise<void>;
  describe(queueId: string): Promise<QueueDescriptor | undefined>;
  /** The user → queues index used for fan-out (O(recipients)). */
  queueIdsForUser(userId: number): Promise<readonly string[]>;
  /** Queues registered with all_public_streams (they also see public-stream messages they did not receive). */
  allPublicStreamsQueueIds(): Promise<readonly string[]>;
  /**
   * Appends an event, assigning the queue's next event id. With `coalesceKey`, an undelivered event
   * of the same key absorbs it instead (its `messages` extended and its id bumped; core-api §2.5).
   * Returns the number of unacknowledged events afterwards, or undefined when the queue is gone.
   */
  push(
    queueId: string,
    event: ZulipEvent,
    flags: readonly string[] | undefined,
    coalesceKey?: string,
  ): Promise<number | undefined>;
  /** Steps 4–6 of the long-poll algorithm: refuses stale ids, prunes through `lastEventId`. */
  acknowledge(queueId: string, lastEventId: number): Promise<AckResult>;
  /** Every unacknowledged event, ascending id (delivery folds coalesced events into the queue). */
  fetch(queueId: string): Promise<QueuedEvent[]>;
  /** Records a connection that did not block (dont_block or an immediate answer). */
  touch(queueId: string, nowMs: number): Promise<void>;
  /** Attaches a long-poll and records the connection time; returns the waiter it replaced, if any. */
  attachWaiter(queueId: string, waiterId: string, nowMs: number): Promise<string | null>;
  /** Detaches `waiterId` if it is still the queue's waiter. */
  detachWaiter(queueId: string, waiterId: string): Promise<void>;
  /** Removes the queue and its index entries; false if it did not exist. */
  delete(queueId: string): Promise<boolean>;
  /** Queues with no waiter whose idle lifetime has passed at `nowMs`. */
  expiredQueueIds(nowMs: number): Promise<string[]>;
  /** Number of queues (monitoring and tests). */
  size(): Promise<number>;
  /**
   * Called after every push with the queue that has new events, and after a deletion (Redis:
   * pub/sub, so every process hears about every queue and answers the waiters it holds).
   * An empty id means any queue may have events (wake-ups may have been missed while Redis was away).
   */
  onEventsAvailable(listener: (queueId: string) => void): void;
  /** Tells whichever process holds waiter `waiterId` of the queue that a newer poll replaced it. */
  supersede(queueId: string, waiterId: string): Promise<void>;
  onSuperseded(listener: (queueId: string, waiterId: string) => void): void;
}

/** The fan-out steps of an in-process store, synchronous (same meaning as the async ones). */
export interface SyncFanoutSteps {
  /** May be the store's own index (no copy): a queue deleted while iterating is skipped. */
  queueIdsForUser(userId: number): Iterable<string>;
  publicQueueIds(): readonly string[];
  options(queueId: string): QueueDescriptor["options"] | undefined;
  userIdOf(queueId: string): number | undefined;
  push(
    queueId: string,
    event: ZulipEvent,
    flags: readonly string[] | undefined,
    coalesceKey?: string,
  ): number | undefined;
  delete(queueId: string): boolean;
}
