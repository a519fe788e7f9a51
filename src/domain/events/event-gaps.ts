import type { Clock } from "../../clock.js";
import type { Logger } from "../../lib/logger.js";
import type { EventQueueStore } from "./queue-store.js";

/** Where resets wait until a process has carried them out (PostgreSQL: `event_queue_resets`). */
export interface QueueResetLog {
  /** null: every all_public_streams queue. */
  add(userIds: readonly (number | null)[], nowMs: number): Promise<void>;
  pending(limit: number): Promise<{ id: number; userId: number | null }[]>;
  remove(ids: readonly number[]): Promise<void>;
}

/**
 * Zulip's contract for a live event stream: an event is in every queue it belongs to, or the queue
 * is invalidated (the client gets BAD_EVENT_QUEUE_ID and reloads). With a shared store (Redis) the
 * fan-out can fail part way; the users it was for are then written to the reset log (before the
 * request that caused the event is acknowledged), and their queues are deleted as soon as Redis
 * answers, by this process or any other (each looks at the log every `intervalMs`, so resets a
 * killed process left behind are carried out too). While a reset is pending this process does not
 * try the fan-out again (each try could wait for a command timeout): it logs the recipients instead.
 */
export class EventGaps {
  /** Resets the log could not take (the database away too): carried out from memory. */
  private readonly unlogged = new Set<number | null>();
  private degradedSince: number | undefined;
  private timer: NodeJS.Timeout | undefined;
  private repairing: Promise<void> | undefined;

  constructor(
    private readonly store: EventQueueStore,
    private readonly log: QueueResetLog,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly intervalMs = 2000,
  ) {}

  /** Whether a fan-out failed and its resets are not all done yet (skip the fan-out meanwhile). */
  get degraded(): boolean {
    return this.degradedSince !== undefined;
  }

  /** The fan-out of an event to these users (null: the all_public_streams queues) did not complete. */
  async record(userIds: Iterable<number | null>): Promise<void> {
    this.degradedSince ??= this.clock.now();
    const ids = [...new Set(userIds)];
    try {
      await this.log.add(ids, this.clock.now());
    } catch (err) {
      for (const id of ids) this.unlogged.add(id);
      this.logger.error("event queue resets could not be stored; kept in this process", {
        users: ids.length,
        error: err as Error,
      });
    }
    void this.kick();
  }

  /** Looks at the reset log every `intervalMs` (unref'd). */
  start(): void {
    if (this.timer !== undefined) return;
    this.timer = setInterval(() => {
      void this.kick();
    }, this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Runs one repair pass unless one is running; resolves when that pass is over. */
  kick(): Promise<void> {
    this.repairing ??= this.repair()
      .catch((err: unknown) => {
        this.logger.debug("event queue resets postponed", { error: err as Error });
      })
      .finally(() => {
        this.repairing = undefined;
      });
    return this.repairing;
  }

  private async repair(): Promise<void> {
    if (this.unlogged.size > 0) {
      const ids = [...this.unlogged];
      await this.reset(ids);
      for (const id of ids) this.unlogged.delete(id);
    }
    for (;;) {
      const rows = await this.log.pending(500);
      if (rows.length === 0) break;
      await this.reset(rows.map((r) => r.userId));
      await this.log.remove(rows.map((r) => r.id));
    }
    if (this.degradedSince !== undefined && this.unlogged.size === 0) {
      this.logger.warn("event queues missing events were invalidated; fan-out resumes", {
        since: new Date(this.degradedSince).toISOString(),
      });
      this.degradedSince = undefined;
    }
  }

  /** Deletes every queue of these users (their clients get BAD_EVENT_QUEUE_ID and reload). */
  private async reset(userIds: readonly (number | null)[]): Promise<void> {
    let count = 0;
    for (const userId of new Set(userIds)) {
      const queueIds =
        userId === null
          ? await this.store.allPublicStreamsQueueIds()
          : await this.store.queueIdsForUser(userId);
      for (const queueId of queueIds) if (await this.store.delete(queueId)) count += 1;
    }
    if (count > 0)
      this.logger.warn("event queues invalidated after an incomplete fan-out", { queues: count });
  }
}
