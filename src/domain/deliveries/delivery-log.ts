import type { Clock } from "../../clock.js";
import type { Logger } from "../../logger.js";
import type { Db } from "../../store/db.js";
import { DeliveriesRepo } from "../../store/deliveries-repo.js";
import type { DeliveryQuery } from "../../store/deliveries-repo.js";
import type { Delivery, DeliveryLogConfig, NewDelivery } from "./types.js";

/** Rows deleted per pruning statement (pruning works in small steps between requests). */
const PRUNE_BATCH = 500;
/** How often entries are pruned by age. */
const AGE_PRUNE_INTERVAL_MS = 60_000;
/** Entries buffered beyond this are written at once instead of after the delay. */
const MAX_BUFFERED = 512;

/** An entry to write: built (redacted, truncated, serialized) when the batch is written, not on the request. */
export type PendingDelivery = () => NewDelivery;

/**
 * The durable delivery log. The webhook path only appends a closure to a buffer; the buffer is
 * written in one transaction `flushDelayMs` later (or at once past MAX_BUFFERED), so a request
 * never waits for the database. A bot is pruned to its newest `maxPerBot` entries each time a
 * tenth of that many were written for it (so it may hold up to 10 % more for a while), and once a minute entries older than `maxAgeMs` are deleted, in
 * small batches. An entry is lost only if the process dies within the flush delay.
 */
export class DeliveryLog {
  private readonly repo: DeliveriesRepo;
  private buffer: PendingDelivery[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  private lastAgePruneMs = -Infinity;
  /** Entries written per bot since its last pruning (a bot is pruned once enough have piled up). */
  private readonly sincePrune = new Map<number, number>();

  constructor(
    private readonly db: Db,
    readonly config: DeliveryLogConfig,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {
    this.repo = new DeliveriesRepo(db);
  }

  get enabled(): boolean {
    return this.config.enabled;
  }

  /** Queues an entry (no I/O now). */
  record(entry: PendingDelivery): void {
    if (!this.config.enabled) return;
    this.buffer.push(entry);
    if (this.buffer.length >= MAX_BUFFERED) {
      this.schedule(0);
    } else if (this.timer === undefined) {
      this.schedule(this.config.flushDelayMs);
    }
  }

  /** Writes an entry now and returns its id (replays answer with the new entry). */
  async recordNow(entry: NewDelivery): Promise<number> {
    await this.flush();
    const id = await this.repo.insert(entry);
    await this.prune(new Set([entry.botId]));
    return id;
  }

  /** Writes every buffered entry (reads call it first, so they see every answered request). */
  async flush(): Promise<void> {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    const batch = this.buffer;
    this.buffer = [];
    const previous = this.writing;
    this.writing = previous.then(() => this.write(batch));
    await this.writing;
  }

  async list(q: DeliveryQuery): Promise<Delivery[]> {
    await this.flush();
    return this.repo.list(q);
  }

  async byId(botId: number, id: number): Promise<Delivery | undefined> {
    await this.flush();
    return this.repo.byId(botId, id);
  }

  async close(): Promise<void> {
    await this.flush();
  }

  private schedule(delayMs: number): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush().catch(() => undefined);
    }, delayMs);
    this.timer.unref();
  }

  private async write(batch: PendingDelivery[]): Promise<void> {
    if (batch.length === 0) return;
    const bots = new Set<number>();
    try {
      const entries = batch.map((build) => build());
      // A bot is pruned once a tenth of its allowance (at least one) was written since the last time.
      const step = Math.max(1, Math.floor(this.config.maxPerBot / 10));
      for (const entry of entries) {
        const n = (this.sincePrune.get(entry.botId) ?? 0) + 1;
        this.sincePrune.set(entry.botId, n);
        if (n >= step) bots.add(entry.botId);
      }
      for (const botId of bots) this.sincePrune.delete(botId);
      // The batch and its bots' pruning share one transaction (one commit instead of three).
      await this.db.transaction(async (tx) => {
        const repo = new DeliveriesRepo(tx);
        await repo.insertMany(entries);
        for (const botId of bots) await repo.pruneBot(botId, this.config.maxPerBot, PRUNE_BATCH);
      });
      await this.pruneByAge();
    } catch (err) {
      // The log must never break webhooks: a failed write is reported and dropped.
      this.logger.warn("delivery log: could not write entries", {
        count: batch.length,
        error: err instanceof Error ? err.message : String(err),
      });
    }
  }

  private async prune(bots: Set<number>): Promise<void> {
    for (const botId of bots) await this.repo.pruneBot(botId, this.config.maxPerBot, PRUNE_BATCH);
    await this.pruneByAge();
  }

  /** Entries older than the maximum age, once a minute at most. */
  private async pruneByAge(): Promise<void> {
    const now = this.clock.now();
    if (now - this.lastAgePruneMs >= AGE_PRUNE_INTERVAL_MS) {
      this.lastAgePruneMs = now;
      await this.repo.pruneOlderThan(now - this.config.maxAgeMs, PRUNE_BATCH);
    }
  }
}
