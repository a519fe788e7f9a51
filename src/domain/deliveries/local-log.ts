import type { Clock } from "../../clock.js";
import type { DeliveriesRepo } from "../../store/deliveries-repo.js";
import type { TransactionalRepo } from "../../store/repos.js";
import type { DeliveryQuery } from "../../store/deliveries-repo.js";
import { incomingEntry, outgoingEntry } from "./entries.js";
import type { IncomingCapture, OutgoingCapture } from "./entries.js";
import type { Delivery, DeliveryLogConfig, NewDelivery } from "./types.js";
import type { Call } from "./writer-protocol.js";

/** Rows deleted per pruning statement (pruning works in small steps between requests). */
const PRUNE_BATCH = 500;
/** How often entries are pruned by age. */
const AGE_PRUNE_INTERVAL_MS = 60_000;
/** Entries buffered beyond this are written at once instead of after the delay. */
const MAX_BUFFERED = 512;

/** An entry to write: built (redacted, truncated, serialized) when the batch is written, not on the request. */
export type PendingDelivery = () => NewDelivery;

/**
 * What the log queues: an entry to build, or a capture (built with incomingEntry / outgoingEntry;
 * an outgoing one may itself be made late: it serialises the request).
 */
export type QueuedDelivery =
  PendingDelivery | { incoming: IncomingCapture } | { outgoing: OutgoingCapture | (() => OutgoingCapture) };

/**
 * The log's writing side, in the thread that owns its store: entries are queued, built and written
 * in one transaction `flushDelayMs` later (or at once past MAX_BUFFERED); reads and `recordNow`
 * write the queue first. A bot is pruned to its newest `maxPerBot` entries each time a tenth of
 * that many were written for it (so it may hold up to 10 % more for a while), and once a minute
 * entries older than `maxAgeMs` are deleted, in small batches. Used in process (PostgreSQL, tests'
 * in-memory stores) and in the delivery log's writer thread (writer-thread.ts).
 */
export class LocalLog {
  private readonly repo: Promise<DeliveriesRepo>;
  private buffer: QueuedDelivery[] = [];
  /** Entries queued and not yet written (or given up on): the log's backlog. */
  private unwritten = 0;
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  private lastAgePruneMs = -Infinity;
  /** Entries written per bot since its last pruning (a bot is pruned once enough have piled up). */
  private readonly sincePrune = new Map<number, number>();

  constructor(
    /** The log's repository (its store may still be opening). */
    private readonly store: Promise<TransactionalRepo<DeliveriesRepo>>,
    private readonly config: DeliveryLogConfig,
    private readonly clock: Clock,
    /** A failed write (the log never breaks webhooks: reported and dropped). */
    private readonly warn: (msg: string, fields: Record<string, unknown>) => void,
  ) {
    this.repo = store.then((s) => s.read);
    // A store that cannot be opened fails every write and read; nothing to report before.
    this.repo.catch(() => undefined);
  }

  /** Queues an entry (no I/O now). */
  record(entry: QueuedDelivery): void {
    this.buffer.push(entry);
    this.unwritten += 1;
    if (this.buffer.length >= MAX_BUFFERED) {
      this.schedule(0);
    } else if (this.timer === undefined) {
      this.schedule(this.config.flushDelayMs);
    }
  }

  /** Writes an entry now and returns its id (replays answer with the new entry). */
  async recordNow(entry: NewDelivery): Promise<number> {
    await this.flush();
    const repo = await this.repo;
    const id = await repo.insert(entry);
    await repo.pruneBot(entry.botId, this.config.maxPerBot, PRUNE_BATCH);
    await this.pruneByAge(repo);
    return id;
  }

  /** Writes every queued entry. */
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

  /** Entries queued and not yet written. */
  backlog(): number {
    return this.unwritten;
  }

  async list(q: DeliveryQuery): Promise<Delivery[]> {
    await this.flush();
    return (await this.repo).list(q);
  }

  async byId(botId: number, id: number): Promise<Delivery | undefined> {
    await this.flush();
    return (await this.repo).byId(botId, id);
  }

  private schedule(delayMs: number): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush().catch(() => undefined);
    }, delayMs);
    this.timer.unref();
  }

  private build(item: QueuedDelivery): NewDelivery {
    if (typeof item === "function") return item();
    return "incoming" in item
      ? incomingEntry(item.incoming, this.config.maxBodyBytes)
      : outgoingEntry(
          typeof item.outgoing === "function" ? item.outgoing() : item.outgoing,
          this.config.maxBodyBytes,
        );
  }

  private async write(batch: QueuedDelivery[]): Promise<void> {
    if (batch.length === 0) return;
    const bots = new Set<number>();
    try {
      const entries = batch.map((item) => this.build(item));
      // A bot is pruned once a tenth of its allowance (at least one) was written since the last time.
      const step = Math.max(1, Math.floor(this.config.maxPerBot / 10));
      for (const entry of entries) {
        const n = (this.sincePrune.get(entry.botId) ?? 0) + 1;
        this.sincePrune.set(entry.botId, n);
        if (n >= step) bots.add(entry.botId);
      }
      for (const botId of bots) this.sincePrune.delete(botId);
      const store = await this.store;
      // The batch and its bots' pruning share one transaction (one commit instead of three).
      await store.transaction(async (repo) => {
        await repo.insertMany(entries);
        for (const botId of bots) await repo.pruneBot(botId, this.config.maxPerBot, PRUNE_BATCH);
      });
      await this.pruneByAge(await this.repo);
    } catch (err) {
      this.warn("delivery log: could not write entries", {
        count: batch.length,
        error: err instanceof Error ? err.message : String(err),
      });
    } finally {
      this.unwritten -= batch.length;
    }
  }

  /** Entries older than the maximum age, once a minute at most. */
  private async pruneByAge(repo: DeliveriesRepo): Promise<void> {
    const now = this.clock.now();
    if (now - this.lastAgePruneMs >= AGE_PRUNE_INTERVAL_MS) {
      this.lastAgePruneMs = now;
      await repo.pruneOlderThan(now - this.config.maxAgeMs, PRUNE_BATCH);
    }
  }
}

/**
 * A writer-protocol call answered by a log in the calling thread (the writer thread, or the
 * server's thread when that cannot run). "close" only writes what is queued: closing the file is
 * its owner's part.
 */
export function answerCall(log: LocalLog, call: Call): Promise<unknown> {
  switch (call.op) {
    case "list":
      return log.list(call.query);
    case "byId":
      return log.byId(call.botId, call.id);
    case "insert":
      return log.recordNow(call.entry);
    case "backlog":
      return Promise.resolve(log.backlog());
    case "flush":
    case "close":
      return log.flush();
  }
}
