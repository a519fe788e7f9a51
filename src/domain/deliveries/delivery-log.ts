import type { Clock } from "../../clock.js";
import type { Logger } from "../../lib/logger.js";
import { openDeliveriesFile } from "../../store/deliveries-db.js";
import type { DeliveriesFile, DeliveriesLocation } from "../../store/deliveries-db.js";
import type { DeliveryQuery } from "../../store/deliveries-repo.js";
import type { IncomingCapture, OutgoingCapture } from "./entries.js";
import { LocalLog } from "./local-log.js";
import type { PendingDelivery } from "./local-log.js";
import type { Delivery, DeliveryLogConfig, NewDelivery } from "./types.js";
import { WriterClient } from "./writer-client.js";

export type { PendingDelivery } from "./local-log.js";

/**
 * The durable delivery log (docs/integration-operations.md, "The delivery log's cost"). A request
 * only queues what it has to log; entries are built (redacted, truncated, serialised) and written
 * in batches after the request, with their pruning by count per bot and by age (LocalLog).
 *
 * - SQLite file store: the log has its own file next to the main one (`deliveries.sqlite3`,
 *   store/deliveries-db.ts), owned by a writer thread (writer-thread.ts). The server's thread
 *   hands the captures over once per turn of its event loop and does nothing else for an entry;
 *   reads first have the thread write everything handed over before them.
 * - PostgreSQL and in-memory SQLite (tests): in the server's thread, in the main store, as before.
 *
 * Reads see every answered request. An entry is lost only if the process dies before it is written
 * (within `flushDelayMs` plus the writer's queue, a few milliseconds).
 */
export class DeliveryLog {
  private readonly local: LocalLog | undefined;
  private readonly thread: WriterClient | undefined;
  /** A log file opened in this thread (a file store with the log off: reads only). */
  private readonly ownFile: Promise<DeliveriesFile> | undefined;

  /** `writerScript`: the writer thread's script (tests: one that cannot start, to see the fallback). */
  constructor(
    where: DeliveriesLocation,
    readonly config: DeliveryLogConfig,
    clock: Clock,
    logger: Logger,
    writerScript?: URL,
  ) {
    const warn = (msg: string, fields: Record<string, unknown>): void => logger.warn(msg, fields);
    if (where.kind === "main-store") {
      this.local = new LocalLog(Promise.resolve(where.store), config, clock, warn);
    } else if (config.enabled) {
      this.thread = new WriterClient(where, config, clock, logger, writerScript);
    } else {
      this.ownFile = openDeliveriesFile(where.file, where.mainFile);
      this.ownFile.catch(() => undefined);
      this.local = new LocalLog(
        this.ownFile.then((f) => f.store),
        config,
        clock,
        warn,
      );
    }
  }

  get enabled(): boolean {
    return this.config.enabled;
  }

  /** Queues an entry built later (in this thread; prefer recordIncoming, built by the writer). */
  record(entry: PendingDelivery): void {
    if (!this.config.enabled) return;
    if (this.thread !== undefined) this.thread.record(entry);
    else this.local!.record(entry);
  }

  /** Queues an incoming request's entry, built (redacted) where it is written: no work now. */
  recordIncoming(capture: IncomingCapture): void {
    if (!this.config.enabled) return;
    if (this.thread !== undefined) this.thread.recordIncoming(capture);
    else this.local!.record({ incoming: capture });
  }

  /**
   * Queues an outgoing attempt's entry: `capture` is called after the request (at the end of the
   * event-loop turn), the entry built (redacted) where it is written.
   */
  recordOutgoing(capture: () => OutgoingCapture): void {
    if (!this.config.enabled) return;
    if (this.thread !== undefined) this.thread.recordOutgoing(capture);
    else this.local!.record({ outgoing: capture });
  }

  /** Writes an entry now and returns its id (replays answer with the new entry). */
  recordNow(entry: NewDelivery): Promise<number> {
    return this.thread !== undefined ? this.thread.recordNow(entry) : this.local!.recordNow(entry);
  }

  /** Entries queued and not yet written (the `chat_delivery_log_backlog` metric). */
  async backlog(): Promise<number> {
    if (!this.config.enabled) return 0;
    return this.thread !== undefined ? this.thread.backlog() : this.local!.backlog();
  }

  /** Writes every queued entry (reads do it first, so they see every answered request). */
  flush(): Promise<void> {
    return this.thread !== undefined ? this.thread.flush() : this.local!.flush();
  }

  list(q: DeliveryQuery): Promise<Delivery[]> {
    return this.thread !== undefined ? this.thread.list(q) : this.local!.list(q);
  }

  byId(botId: number, id: number): Promise<Delivery | undefined> {
    return this.thread !== undefined ? this.thread.byId(botId, id) : this.local!.byId(botId, id);
  }

  /** Writes every queued entry; ends the writer thread, closes the log's own file. */
  async close(): Promise<void> {
    if (this.thread !== undefined) {
      await this.thread.close();
      return;
    }
    await this.local!.flush();
    if (this.ownFile !== undefined) await (await this.ownFile.catch(() => undefined))?.close();
  }
}
