import { AsyncLocalStorage } from "node:async_hooks";
import { withSpan } from "../../lib/tracing.js";
import { randomInt, randomUUID } from "node:crypto";
import type { Clock } from "../../clock.js";
import { BadEventQueueIdError, JsonableError } from "../../errors.js";
import type { Logger } from "../../lib/logger.js";
import type { User } from "../users/types.js";
import { isGuest } from "../users/types.js";
import type { EventGaps } from "./event-gaps.js";
import type { EventRecipient, EventSink, ZulipEvent } from "./event-sink.js";
import type { NarrowTerm } from "./narrow.js";
import type { EventQueueStore, SyncFanoutSteps } from "./queue-store.js";
import { flagsOf, hasRecipient, idOf, strictlyAscending } from "./recipients.js";
import { acceptsEvent, coalesceKeyOf, eventsForQueue, renderEvent } from "./render.js";
import type { DeliveredEvent } from "./render.js";
import { MAX_QUEUE_TIMEOUT_SECS } from "./types.js";
import type { QueueCapabilities, QueueDescriptor, QueueOptions, QueuedEvent } from "./types.js";

export interface EventQueueSettings {
  /** A blocked GET /events gets a heartbeat event after this long (Zulip: 45–55 s). */
  heartbeatSeconds: number;
  /** Idle lifetime of a queue registered without queue_lifespan_secs (Zulip: 600 s). */
  queueTimeoutSeconds: number;
  /** GC sweep period (Zulip: 60 s). */
  gcIntervalSeconds: number;
  /** A queue holding more unacknowledged events than this is discarded like a GC'd one. */
  maxQueueEvents: number;
  /**
   * Queues one user may hold (`--max-queues-per-user`); registering one more discards the user's
   * least recently used queue. Absent or 0: no cap.
   */
  maxQueuesPerUser?: number | undefined;
}

/** What POST /register (or GET /events without queue_id) asks for. */
export interface QueueRequest {
  eventTypes: readonly string[] | null;
  narrow: readonly NarrowTerm[];
  /** undefined: the default (false; a bot's default_all_public_streams). */
  allPublicStreams: boolean | undefined;
  applyMarkdown: boolean;
  clientGravatar: boolean;
  /** 0 = the configured default; capped at 7 days. */
  lifespanSecs: number;
  capabilities: Partial<QueueCapabilities>;
}

export interface GetEventsRequest {
  queueId: string;
  /** Acknowledges (prunes) every event up to this id; undefined only for a queue just created. */
  lastEventId: number | undefined;
  dontBlock: boolean;
  /** Aborted when the client disconnects: the waiter is detached and the promise resolves to []. */
  signal?: AbortSignal | undefined;
}

interface Waiter {
  readonly id: string;
  readonly queueId: string;
  readonly options: QueueOptions;
  readonly resolve: (events: DeliveredEvent[]) => void;
  timer: NodeJS.Timeout | undefined;
  detachAbort: (() => void) | undefined;
}

interface Publication {
  event: ZulipEvent;
  /** A bare number is a recipient without per-user data. */
  recipients: readonly (number | EventRecipient)[];
}

const HEARTBEAT: ZulipEvent = Object.freeze({ type: "heartbeat" });

/** The users whose queues a publication may reach (null: the all_public_streams queues). */
function usersOf({ event, recipients }: Publication): (number | null)[] {
  const ids: (number | null)[] = recipients.map(idOf);
  if (event.type === "message" && event["_public_stream"] === true) ids.push(null);
  return ids;
}

/**
 * Event queues with long polling (Zulip's zerver/tornado/event_queue.py), and the EventSink every
 * domain service publishes through.
 *
 * - `send` never blocks the caller: publications are batched and fanned out on a later turn of the
 *   event loop (setImmediate), in order, at O(recipients) through the store's user → queues index.
 * - Waiters (blocked GET /events) live in this process; they are answered on a later turn too.
 * - Call `send` after the write that caused the event has committed (Zulip sends on_commit).
 */
export class EventQueueService implements EventSink {
  private readonly waiters = new Map<string, Waiter>();
  private pending: Publication[] = [];
  private flushScheduled = false;
  private delivering: Promise<void> = Promise.resolve();
  private readonly wakeups = new Set<string>();
  private wakeScheduled = false;
  private waking: Promise<void> = Promise.resolve();
  private gcTimer: NodeJS.Timeout | undefined;
  private waiterSeq = 0;
  /** Makes waiter ids unique across processes and machines (they are shared through a Redis store). */
  private readonly processTag = String(randomInt(1e9, 1e10));
  private closed = false;
  private readonly optionsCache = new Map<string, QueueOptions>();
  /** Set while a request runs under `acknowledgeAfterFanout`: whether it published anything. */
  private readonly requestScope = new AsyncLocalStorage<{ published: boolean }>();

  constructor(
    readonly store: EventQueueStore,
    private readonly settings: EventQueueSettings,
    private readonly clock: Clock,
    private readonly logger: Logger,
    /** With a shared store: what happens when a fan-out fails part way (event-gaps.ts). */
    private readonly gaps?: EventGaps,
  ) {
    store.onEventsAvailable((queueId) => {
      if (queueId !== "") this.scheduleWake(queueId);
      else for (const id of this.waiters.keys()) this.scheduleWake(id);
    });
    // Another process took over a queue whose long poll this process holds: answer it.
    store.onSuperseded((queueId, waiterId) => {
      const waiter = this.waiters.get(queueId);
      if (waiter?.id !== waiterId) return;
      void this.store
        .fetch(queueId)
        .then((events) => {
          this.finish(waiter, this.render(events, queueId, waiter.options));
        })
        .catch(() => {
          this.finish(waiter, []);
        });
    });
  }

  // ---------------------------------------------------------------- registration

  /** Allocates a queue for `user`; returns its id (uuid4). */
  async allocate(user: User, request: QueueRequest): Promise<string> {
    const allPublicStreams = request.allPublicStreams ?? (user.isBot && user.defaultAllPublicStreams);
    if (allPublicStreams && isGuest(user)) throw new JsonableError("User not authorized for this query");
    let narrow = request.narrow;
    if (narrow.length === 0 && user.isBot && user.defaultEventsRegisterStream !== null) {
      narrow = [{ operator: "stream", operand: user.defaultEventsRegisterStream, negated: false }];
    }
    let options: QueueOptions = {
      eventTypes: request.eventTypes,
      narrow,
      allPublicStreams,
      applyMarkdown: request.applyMarkdown,
      clientGravatar: request.clientGravatar,
      capabilities: {
        bulkMessageDeletion: request.capabilities.bulkMessageDeletion ?? false,
        userSettingsObject: request.capabilities.userSettingsObject ?? false,
        streamTypingNotifications: request.capabilities.streamTypingNotifications ?? false,
        emptyTopicName: request.capabilities.emptyTopicName ?? false,
      },
    };
    options = this.intern(options);
    const lifespanSecs =
      request.lifespanSecs > 0
        ? Math.min(request.lifespanSecs, MAX_QUEUE_TIMEOUT_SECS)
        : this.settings.queueTimeoutSeconds;
    const id = randomUUID();
    // Events this process sent before the queue existed must not reach it (the client's state,
    // fetched after register, already has them): finish their fan-out first. With a shared store the
    // fan-out of one event takes several round trips, long enough for a register to overtake it.
    await this.sentSoFar();
    await this.store.allocate({ id, userId: user.id, options, lifespanSecs, nowMs: this.clock.now() });
    await this.collectBeyondCap(user.id, id);
    return id;
  }

  /**
   * Keeps the user within `maxQueuesPerUser`: the queues beyond it that were used least recently
   * (no long poll attached first, then the oldest last connection) are discarded, so their next
   * poll gets BAD_EVENT_QUEUE_ID and the client registers again, as after a GC.
   */
  private async collectBeyondCap(userId: number, newQueueId: string): Promise<void> {
    const cap = this.settings.maxQueuesPerUser ?? 0;
    if (cap <= 0) return;
    const ids = await this.store.queueIdsForUser(userId);
    if (ids.length <= cap) return;
    const others: QueueDescriptor[] = [];
    for (const id of ids) {
      if (id === newQueueId) continue;
      const d = await this.store.describe(id);
      if (d !== undefined) others.push(d);
    }
    others.sort(
      (a, b) =>
        Number(a.waiterId !== null) - Number(b.waiterId !== null) || a.lastConnectionMs - b.lastConnectionMs,
    );
    const excess = others.slice(0, Math.max(0, others.length + 1 - cap));
    for (const d of excess) await this.discard(d.id);
    if (excess.length > 0) {
      this.logger.debug("event queues collected: over the per-user cap", {
        user_id: userId,
        count: excess.length,
      });
    }
  }

  /**
   * Queues registered alike share one options object (clients register with a handful of
   * combinations), which keeps an idle queue small. The cache is bounded.
   */
  private intern(options: QueueOptions): QueueOptions {
    const key = JSON.stringify(options);
    const known = this.optionsCache.get(key);
    if (known !== undefined) return known;
    if (this.optionsCache.size >= 512) this.optionsCache.clear();
    this.optionsCache.set(key, options);
    return options;
  }

  // ---------------------------------------------------------------- publishing

  /**
   * Runs a request's work; when it published events and the store is shared, resolves only once
   * they have reached every queue or their users' queues are logged for invalidation
   * (event-gaps.ts), so an acknowledged write never leaves a silent gap in a live event stream,
   * even if this process dies right after answering. In-process stores need no wait (a process
   * that dies takes its queues with it: every client gets BAD_EVENT_QUEUE_ID).
   */
  async acknowledgeAfterFanout<T>(fn: () => Promise<T>): Promise<T> {
    if (this.store.sync !== undefined) return fn();
    const scope = { published: false };
    const value = await this.requestScope.run(scope, fn);
    if (scope.published) await this.sentSoFar();
    return value;
  }

  send(event: ZulipEvent, recipients: Iterable<number | EventRecipient>): void {
    const scope = this.requestScope.getStore();
    if (scope !== undefined) scope.published = true;
    // A copy of the list (not of its entries: numbers are read as they are during the fan-out).
    const list = Array.isArray(recipients)
      ? (recipients as readonly (number | EventRecipient)[]).slice()
      : Array.from(recipients);
    this.pending.push({ event, recipients: list });
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      const batch = this.pending;
      this.pending = [];
      this.delivering = this.delivering
        .then(() =>
          withSpan("event fan-out", { attributes: { "events.count": batch.length } }, () =>
            this.deliverAll(batch),
          ),
        )
        .catch((err: unknown) => {
          this.logger.error("event fan-out failed", { error: err as Error });
        });
    });
  }

  private async deliverAll(batch: Publication[]): Promise<void> {
    const gaps = this.gaps;
    if (gaps === undefined) {
      for (const p of batch) await this.deliver(p);
      return;
    }
    for (const p of batch) {
      if (gaps.degraded) {
        await gaps.record(usersOf(p));
        continue;
      }
      try {
        await this.deliver(p);
      } catch (err) {
        this.logger.warn("event fan-out failed; the recipients' queues will be invalidated", {
          type: p.event.type,
          error: err as Error,
        });
        await gaps.record(usersOf(p));
      }
    }
  }

  private async deliver({ event, recipients }: Publication): Promise<void> {
    const sync = this.store.sync;
    if (sync !== undefined) {
      this.deliverNow(sync, event, recipients);
      return;
    }
    const seen = new Set<number>();
    for (const r of recipients) {
      const id = idOf(r);
      if (seen.has(id)) continue;
      seen.add(id);
      for (const queueId of await this.store.queueIdsForUser(id)) {
        await this.pushTo(queueId, event, flagsOf(r));
      }
    }
    if (event.type === "message" && event["_public_stream"] === true) {
      for (const queueId of await this.store.allPublicStreamsQueueIds()) {
        const d = await this.store.describe(queueId);
        if (d !== undefined && !seen.has(d.userId)) await this.pushTo(queueId, event, []);
      }
    }
  }

  /**
   * `deliver` for an in-process store: the same steps in the same order, without a promise per
   * recipient and queue (~1.1 µs per recipient went mostly to awaiting already-settled promises).
   * A strictly ascending list (a stream's subscribers) needs no set of the users already seen.
   */
  private deliverNow(
    sync: SyncFanoutSteps,
    event: ZulipEvent,
    recipients: readonly (number | EventRecipient)[],
  ): void {
    const ascending = strictlyAscending(recipients);
    const seen = ascending ? undefined : new Set<number>();
    for (const r of recipients) {
      const id = idOf(r);
      if (seen !== undefined) {
        if (seen.has(id)) continue;
        seen.add(id);
      }
      for (const queueId of sync.queueIdsForUser(id)) this.pushNow(sync, queueId, event, flagsOf(r));
    }
    if (event.type === "message" && event["_public_stream"] === true) {
      for (const queueId of sync.publicQueueIds()) {
        const userId = sync.userIdOf(queueId);
        if (userId === undefined) continue;
        if (seen !== undefined ? seen.has(userId) : hasRecipient(recipients, userId)) continue;
        this.pushNow(sync, queueId, event, []);
      }
    }
  }

  private pushNow(
    sync: SyncFanoutSteps,
    queueId: string,
    event: ZulipEvent,
    flags: readonly string[] | undefined,
  ): void {
    const options = sync.options(queueId);
    if (options === undefined || !acceptsEvent(options, event, flags)) return;
    for (const e of eventsForQueue(options, event)) {
      const size = sync.push(queueId, e, flags, coalesceKeyOf(e));
      if (size !== undefined && size > this.settings.maxQueueEvents) {
        this.logger.warn("event queue discarded: too many unacknowledged events", {
          queue_id: queueId,
          user_id: sync.userIdOf(queueId),
        });
        sync.delete(queueId);
        const waiter = this.waiters.get(queueId);
        if (waiter !== undefined) this.finish(waiter, []);
        return;
      }
    }
  }

  private async pushTo(queueId: string, event: ZulipEvent, flags: readonly string[] | undefined) {
    const d = await this.store.describe(queueId);
    if (d === undefined || !acceptsEvent(d.options, event, flags)) return;
    for (const e of eventsForQueue(d.options, event)) {
      const size = await this.store.push(queueId, e, flags, coalesceKeyOf(e));
      if (size !== undefined && size > this.settings.maxQueueEvents) {
        this.logger.warn("event queue discarded: too many unacknowledged events", {
          queue_id: queueId,
          user_id: d.userId,
        });
        await this.discard(queueId);
        return;
      }
    }
  }

  /** Resolves once every publication made before the call has been fanned out (not later ones). */
  private async sentSoFar(): Promise<void> {
    // A scheduled flush runs on an earlier setImmediate than this one, so it has joined
    // `delivering` by the time this resolves.
    if (this.flushScheduled) await new Promise((resolve) => setImmediate(resolve));
    await this.delivering;
  }

  /** Resolves once every event sent so far has reached its queues and waiters (tests, shutdown). */
  async idle(): Promise<void> {
    for (;;) {
      // A flush that ran while we waited chained a later delivery: wait again until nothing moved.
      const delivering = this.delivering;
      const waking = this.waking;
      await delivering;
      await waking;
      const settled = delivering === this.delivering && waking === this.waking;
      if (settled && !this.flushScheduled && !this.wakeScheduled && this.pending.length === 0) return;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  // ---------------------------------------------------------------- long polling

  /**
   * GET /events for a registered queue (core-api §2.3 steps 3–9): acknowledge, supersede a waiting
   * poll, answer now when there are events or `dontBlock`, else wait for an event or a heartbeat.
   */
  async getEvents(userId: number, req: GetEventsRequest): Promise<DeliveredEvent[]> {
    const { queueId, lastEventId } = req;
    const d = await this.store.describe(queueId);
    if (d === undefined || d.userId !== userId) throw new BadEventQueueIdError(queueId);
    if (lastEventId !== undefined) {
      const ack = await this.store.acknowledge(queueId, lastEventId);
      if (!ack.ok) {
        if (ack.reason === "already-pruned")
          throw new JsonableError(`An event newer than ${lastEventId} has already been pruned!`);
        if (ack.reason === "not-in-queue")
          throw new JsonableError(`Event ${lastEventId} was not in this queue`);
        throw new BadEventQueueIdError(queueId);
      }
    }
    const current = this.waiters.get(queueId);
    const events = await this.store.fetch(queueId);
    const rendered = this.render(events, queueId, d.options);
    if (current !== undefined) this.finish(current, rendered);
    else if (d.waiterId !== null) await this.store.supersede(queueId, d.waiterId);
    if (events.length > 0 || req.dontBlock) {
      await this.store.touch(queueId, this.clock.now());
      return rendered;
    }
    if (req.signal?.aborted === true) return [];
    return this.wait(queueId, d.options, req.signal);
  }

  private wait(queueId: string, options: QueueOptions, signal: AbortSignal | undefined) {
    let resolve!: (events: DeliveredEvent[]) => void;
    const promise = new Promise<DeliveredEvent[]>((r) => (resolve = r));
    const waiter: Waiter = {
      id: `${this.processTag}:${++this.waiterSeq}`,
      queueId,
      options,
      resolve,
      timer: undefined,
      detachAbort: undefined,
    };
    this.waiters.set(queueId, waiter);
    waiter.timer = setTimeout(() => {
      waiter.timer = undefined;
      // With a shared store the push can fail (Redis away): end the poll; the client polls again.
      this.heartbeat(waiter).catch(() => {
        this.finish(waiter, []);
      });
    }, this.settings.heartbeatSeconds * 1000);
    if (signal !== undefined) {
      const onAbort = (): void => {
        this.finish(waiter, []);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      waiter.detachAbort = () => {
        signal.removeEventListener("abort", onAbort);
      };
    }
    void this.store
      .attachWaiter(queueId, waiter.id, this.clock.now())
      .then(() => {
        // An event may have been pushed between fetch() and now: look again on the next turn.
        if (this.waiters.get(queueId) === waiter) this.scheduleWake(queueId);
        else this.detach(queueId, waiter.id);
      })
      .catch((err: unknown) => {
        this.logger.error("attaching a waiter failed", { error: err as Error });
      });
    return promise;
  }

  private async heartbeat(waiter: Waiter): Promise<void> {
    if (this.waiters.get(waiter.queueId) !== waiter) return;
    const size = await this.store.push(waiter.queueId, HEARTBEAT, undefined);
    if (size === undefined) this.finish(waiter, []);
  }

  private scheduleWake(queueId: string): void {
    if (!this.waiters.has(queueId)) return;
    this.wakeups.add(queueId);
    if (this.wakeScheduled) return;
    this.wakeScheduled = true;
    setImmediate(() => {
      this.wakeScheduled = false;
      const ids = [...this.wakeups];
      this.wakeups.clear();
      this.waking = this.waking
        .then(() => this.wakeAll(ids))
        .catch((err: unknown) => {
          this.logger.error("waking event waiters failed", { error: err as Error });
        });
    });
  }

  private async wakeAll(queueIds: string[]): Promise<void> {
    for (const queueId of queueIds) {
      const waiter = this.waiters.get(queueId);
      if (waiter === undefined) continue;
      const events = await this.store.fetch(queueId);
      if (events.length > 0 && this.waiters.get(queueId) === waiter) {
        this.finish(waiter, this.render(events, queueId, waiter.options));
      } else if (events.length === 0 && (await this.store.describe(queueId)) === undefined) {
        // Deleted by another process (DELETE /events, too many events): answer as discard() does.
        this.finish(waiter, []);
      }
    }
  }

  /** Answers a waiter and detaches it (idempotent). */
  private finish(waiter: Waiter, events: DeliveredEvent[]): void {
    if (this.waiters.get(waiter.queueId) !== waiter) return;
    this.waiters.delete(waiter.queueId);
    if (waiter.timer !== undefined) clearTimeout(waiter.timer);
    waiter.detachAbort?.();
    this.detach(waiter.queueId, waiter.id);
    waiter.resolve(events);
  }

  /** Clears the stored waiter id; a failure (Redis away) only leaves it to expire with its lease. */
  private detach(queueId: string, waiterId: string): void {
    this.store.detachWaiter(queueId, waiterId).catch((err: unknown) => {
      this.logger.debug("detaching a waiter failed", { error: err as Error });
    });
  }

  private render(events: QueuedEvent[], queueId: string, options: QueueOptions): DeliveredEvent[] {
    return events.map((e) => renderEvent(e, queueId, options));
  }

  /** Number of blocked GET /events in this process. */
  get waiterCount(): number {
    return this.waiters.size;
  }

  // ---------------------------------------------------------------- deletion and GC

  /** DELETE /events: the user's own queue, else BAD_EVENT_QUEUE_ID. */
  async deleteQueue(userId: number, queueId: string): Promise<void> {
    const d = await this.store.describe(queueId);
    if (d === undefined || d.userId !== userId) throw new BadEventQueueIdError(queueId);
    await this.discard(queueId);
  }

  private async discard(queueId: string): Promise<void> {
    await this.store.delete(queueId);
    const waiter = this.waiters.get(queueId);
    if (waiter !== undefined) this.finish(waiter, []);
  }

  /** One GC sweep: deletes queues idle past their lifespan with no waiter; returns their ids. */
  async gc(): Promise<string[]> {
    const expired = (await this.store.expiredQueueIds(this.clock.now())).filter(
      (id) => !this.waiters.has(id),
    );
    for (const id of expired) await this.store.delete(id);
    if (expired.length > 0) this.logger.debug("event queues collected", { count: expired.length });
    return expired;
  }

  /** Starts the periodic GC sweep (unref'd: it never keeps the process alive). */
  startGc(): void {
    if (this.gcTimer !== undefined || this.closed) return;
    this.gaps?.start();
    this.gcTimer = setInterval(() => {
      this.gc().catch((err: unknown) => {
        this.logger.error("event queue GC failed", { error: err as Error });
      });
    }, this.settings.gcIntervalSeconds * 1000);
    this.gcTimer.unref();
  }

  /** Stops the GC timer and answers every waiter (with no events) so connections can close. */
  async close(): Promise<void> {
    this.closed = true;
    this.gaps?.stop();
    if (this.gcTimer !== undefined) clearInterval(this.gcTimer);
    this.gcTimer = undefined;
    await this.idle();
    for (const waiter of [...this.waiters.values()]) this.finish(waiter, []);
  }
}
