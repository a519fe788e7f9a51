import type { ZulipEvent } from "./event-sink.js";
import type { EventQueueStore, SyncFanoutSteps } from "./queue-store.js";
import type { AckResult, NewQueue, QueueDescriptor, QueuedEvent } from "./types.js";

/** One queue in memory. Kept small: an idle queue is this object, its id and two index entries. */
interface MemoryQueue {
  readonly id: string;
  readonly userId: number;
  readonly options: NewQueue["options"];
  readonly lifespanSecs: number;
  lastConnectionMs: number;
  nextEventId: number;
  newestPrunedId: number;
  waiterId: string | null;
  /** Unacknowledged events, ascending id. */
  events: QueuedEvent[];
  /** Coalesced update_message_flags events not yet delivered, by full type; allocated on first use. */
  virtual: Map<string, QueuedEvent> | null;
}

const NO_QUEUES: ReadonlySet<string> = new Set();

/** The single-process EventQueueStore: plain objects and maps, every call resolves immediately. */
export class MemoryEventQueueStore implements EventQueueStore {
  private readonly queues = new Map<string, MemoryQueue>();
  private readonly byUser = new Map<number, Set<string>>();
  private readonly publicQueues = new Set<string>();
  private readonly listeners: ((queueId: string) => void)[] = [];
  private readonly supersedeListeners: ((queueId: string, waiterId: string) => void)[] = [];

  allocate(q: NewQueue): Promise<void> {
    this.queues.set(q.id, {
      id: q.id,
      userId: q.userId,
      options: q.options,
      lifespanSecs: q.lifespanSecs,
      lastConnectionMs: q.nowMs,
      nextEventId: 0,
      newestPrunedId: -1,
      waiterId: null,
      events: [],
      virtual: null,
    });
    let set = this.byUser.get(q.userId);
    if (set === undefined) this.byUser.set(q.userId, (set = new Set()));
    set.add(q.id);
    if (q.options.allPublicStreams) this.publicQueues.add(q.id);
    return Promise.resolve();
  }

  describe(queueId: string): Promise<QueueDescriptor | undefined> {
    const q = this.queues.get(queueId);
    return Promise.resolve(
      q === undefined
        ? undefined
        : {
            id: q.id,
            userId: q.userId,
            options: q.options,
            lifespanSecs: q.lifespanSecs,
            lastConnectionMs: q.lastConnectionMs,
            newestPrunedId: q.newestPrunedId,
            waiterId: q.waiterId,
          },
    );
  }

  queueIdsForUser(userId: number): Promise<readonly string[]> {
    return Promise.resolve([...this.sync.queueIdsForUser(userId)]);
  }

  /** Fan-out without a promise per step (every step here is synchronous anyway). */
  readonly sync: SyncFanoutSteps = {
    // The index itself: deleting from a Set while iterating it is safe (the entry is skipped).
    queueIdsForUser: (userId) => this.byUser.get(userId) ?? NO_QUEUES,
    publicQueueIds: () => [...this.publicQueues],
    options: (queueId) => this.queues.get(queueId)?.options,
    userIdOf: (queueId) => this.queues.get(queueId)?.userId,
    push: (queueId, event, flags, coalesceKey) => this.pushNow(queueId, event, flags, coalesceKey),
    delete: (queueId) => this.deleteNow(queueId),
  };

  allPublicStreamsQueueIds(): Promise<readonly string[]> {
    return Promise.resolve(this.sync.publicQueueIds());
  }

  push(
    queueId: string,
    event: ZulipEvent,
    flags: readonly string[] | undefined,
    coalesceKey?: string,
  ): Promise<number | undefined> {
    return Promise.resolve(this.pushNow(queueId, event, flags, coalesceKey));
  }

  private pushNow(
    queueId: string,
    event: ZulipEvent,
    flags: readonly string[] | undefined,
    coalesceKey?: string,
  ): number | undefined {
    const q = this.queues.get(queueId);
    if (q === undefined) return undefined;
    const id = q.nextEventId++;
    if (coalesceKey === undefined) {
      q.events.push({ id, event, flags });
    } else {
      q.virtual ??= new Map();
      const pending = q.virtual.get(coalesceKey);
      if (pending === undefined) {
        // A copy of its own: the pending event's `messages` grows with later events.
        const messages = Array.isArray(event["messages"]) ? [...(event["messages"] as unknown[])] : [];
        q.virtual.set(coalesceKey, { id, event: { ...event, messages }, flags });
      } else {
        const more = Array.isArray(event["messages"]) ? (event["messages"] as unknown[]) : [];
        (pending.event["messages"] as unknown[]).push(...more);
        pending.id = id;
      }
    }
    const size = q.events.length + (q.virtual?.size ?? 0);
    for (const listener of this.listeners) listener(queueId);
    return size;
  }

  acknowledge(queueId: string, lastEventId: number): Promise<AckResult> {
    const q = this.queues.get(queueId);
    if (q === undefined) return Promise.resolve({ ok: false, reason: "no-queue", newestPrunedId: -1 });
    if (lastEventId < q.newestPrunedId) {
      return Promise.resolve({ ok: false, reason: "already-pruned", newestPrunedId: q.newestPrunedId });
    }
    let n = 0;
    while (n < q.events.length && q.events[n]!.id <= lastEventId) n++;
    if (n > 0) {
      q.newestPrunedId = q.events[n - 1]!.id;
      q.events.splice(0, n);
    }
    if (lastEventId !== q.newestPrunedId) {
      return Promise.resolve({ ok: false, reason: "not-in-queue", newestPrunedId: q.newestPrunedId });
    }
    return Promise.resolve({ ok: true });
  }

  fetch(queueId: string): Promise<QueuedEvent[]> {
    const q = this.queues.get(queueId);
    if (q === undefined) return Promise.resolve([]);
    if (q.virtual !== null && q.virtual.size > 0) {
      // Delivered coalesced events become ordinary ones: later flag changes start a new event.
      q.events.push(...q.virtual.values());
      q.events.sort((a, b) => a.id - b.id);
      q.virtual = null;
    }
    return Promise.resolve([...q.events]);
  }

  touch(queueId: string, nowMs: number): Promise<void> {
    const q = this.queues.get(queueId);
    if (q !== undefined) q.lastConnectionMs = nowMs;
    return Promise.resolve();
  }

  attachWaiter(queueId: string, waiterId: string, nowMs: number): Promise<string | null> {
    const q = this.queues.get(queueId);
    if (q === undefined) return Promise.resolve(null);
    const previous = q.waiterId;
    q.waiterId = waiterId;
    q.lastConnectionMs = nowMs;
    return Promise.resolve(previous);
  }

  detachWaiter(queueId: string, waiterId: string): Promise<void> {
    const q = this.queues.get(queueId);
    if (q !== undefined && q.waiterId === waiterId) q.waiterId = null;
    return Promise.resolve();
  }

  delete(queueId: string): Promise<boolean> {
    return Promise.resolve(this.deleteNow(queueId));
  }

  private deleteNow(queueId: string): boolean {
    const q = this.queues.get(queueId);
    if (q === undefined) return false;
    this.queues.delete(queueId);
    this.publicQueues.delete(queueId);
    const set = this.byUser.get(q.userId);
    if (set !== undefined) {
      set.delete(queueId);
      if (set.size === 0) this.byUser.delete(q.userId);
    }
    return true;
  }

  expiredQueueIds(nowMs: number): Promise<string[]> {
    const out: string[] = [];
    for (const q of this.queues.values()) {
      if (q.waiterId === null && nowMs - q.lastConnectionMs >= q.lifespanSecs * 1000) out.push(q.id);
    }
    return Promise.resolve(out);
  }

  size(): Promise<number> {
    return Promise.resolve(this.queues.size);
  }

  onEventsAvailable(listener: (queueId: string) => void): void {
    this.listeners.push(listener);
  }

  supersede(queueId: string, waiterId: string): Promise<void> {
    for (const listener of this.supersedeListeners) listener(queueId, waiterId);
    return Promise.resolve();
  }

  onSuperseded(listener: (queueId: string, waiterId: string) => void): void {
    this.supersedeListeners.push(listener);
  }
}
