import { Worker } from "node:worker_threads";
import type { Clock } from "../../clock.js";
import type { Logger } from "../../lib/logger.js";
import { openDeliveriesFile } from "../../store/deliveries-db.js";
import type { DeliveriesFile } from "../../store/deliveries-db.js";
import type { DeliveryQuery } from "../../store/deliveries-repo.js";
import type { IncomingCapture, OutgoingCapture } from "./entries.js";
import { LocalLog, answerCall } from "./local-log.js";
import type { QueuedDelivery } from "./local-log.js";
import type { Delivery, DeliveryLogConfig, NewDelivery } from "./types.js";
import type { Call, FromWriter, Handover, ToWriter, WriterData } from "./writer-protocol.js";

/** The writer thread's script: registers the TypeScript loader, then runs writer-thread.ts. */
export const WRITER_SCRIPT = new URL("../../../bin/deliveries-worker.js", import.meta.url);

interface Outstanding {
  call: Call;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

/** A request body as handed over: a view of a larger buffer (Node's pool) is copied, or cloning would copy all of it. */
function compact(body: Buffer): Buffer {
  if (body.byteOffset === 0 && body.byteLength === body.buffer.byteLength) return body;
  return Buffer.from(new Uint8Array(body).buffer);
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * The server thread's side of the delivery log's writer thread (writer-thread.ts). Entries are
 * collected for one turn of the event loop and posted in one message; calls (reads, `recordNow`,
 * flush, close) are requests answered by the thread after it wrote everything posted before them.
 *
 * If the thread fails (cannot start — a runtime without the loader — or dies), the log says so
 * and goes on in this thread on the same file: entries posted before the thread was ready and
 * calls not yet answered are redone here; entries posted to a thread that was running and died
 * before writing them are lost (as entries queued by a process that dies).
 */
export class WriterClient {
  /** Started when the log is first used: a server that takes no webhooks never pays for it. */
  private worker: Worker | undefined;
  /** Queued in this turn (a late outgoing capture is made when posted). */
  private pending: (Handover | QueuedDelivery)[] = [];
  private posting = false;
  private readonly calls = new Map<number, Outstanding>();
  private nextId = 1;
  private ready = false;
  /** Batches posted before the thread said it was ready: redone here if it never is. */
  private unconfirmed: Handover[][] = [];
  private fallback: { log: LocalLog; file: Promise<DeliveriesFile> } | undefined;
  private closing = false;
  private closed: Promise<void> | undefined;

  constructor(
    private readonly target: { file: string; mainFile: string },
    private readonly config: DeliveryLogConfig,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly script: URL = WRITER_SCRIPT,
  ) {}

  /** The writer thread, started on first use (about 10 MB of memory a server at rest does not hold). */
  private thread(): Worker {
    if (this.worker !== undefined) return this.worker;
    const data: WriterData = { ...this.target, config: this.config, nowMs: this.clock.now() };
    const worker = new Worker(this.script, { workerData: data });
    this.worker = worker;
    // The thread keeps the process alive only while a call waits for its answer.
    worker.unref();
    worker.on("message", (m: FromWriter) => this.receive(m));
    worker.on("error", (err) => this.fail(err));
    worker.on("exit", (code) => {
      if (!this.closing || this.calls.size > 0)
        this.fail(new Error(`the writer thread exited (code ${code})`));
    });
    return worker;
  }

  /** Queues an entry: posted to the thread with the others of this turn of the event loop. */
  record(item: Handover | QueuedDelivery): void {
    if (this.fallback !== undefined) {
      this.fallback.log.record(localItem(item));
      return;
    }
    if (this.closing) {
      this.logger.warn("delivery log: an entry queued after the log closed was dropped", {});
      return;
    }
    this.pending.push(item);
    if (!this.posting) {
      this.posting = true;
      setImmediate(() => this.post());
    }
  }

  recordIncoming(capture: IncomingCapture): void {
    this.record({ incoming: { ...capture, rawBody: compact(capture.rawBody) } });
  }

  recordOutgoing(capture: () => OutgoingCapture): void {
    this.record({ outgoing: capture });
  }

  recordNow(entry: NewDelivery): Promise<number> {
    return this.call({ op: "insert", entry }) as Promise<number>;
  }

  async flush(): Promise<void> {
    await this.call({ op: "flush" });
  }

  /** Entries queued here and in the thread, not yet written. */
  async backlog(): Promise<number> {
    const queuedHere = this.pending.length;
    return queuedHere + ((await this.call({ op: "backlog" })) as number);
  }

  list(query: DeliveryQuery): Promise<Delivery[]> {
    return this.call({ op: "list", query }) as Promise<Delivery[]>;
  }

  byId(botId: number, id: number): Promise<Delivery | undefined> {
    return this.call({ op: "byId", botId, id }) as Promise<Delivery | undefined>;
  }

  /** Writes everything handed over, closes the file and ends the thread (once, however often called). */
  close(): Promise<void> {
    this.closed ??= this.shutDown();
    return this.closed;
  }

  private async shutDown(): Promise<void> {
    if (this.worker === undefined && this.fallback === undefined && this.pending.length === 0) {
      // Never used: no thread and no file to close.
      this.closing = true;
      return;
    }
    if (this.fallback === undefined) {
      const closed = this.call({ op: "close" });
      this.closing = true;
      try {
        await closed;
      } catch (err) {
        this.logger.warn("delivery log: could not close its file", { error: errorText(err) });
      }
    }
    this.closing = true;
    await this.worker?.terminate();
    if (this.fallback !== undefined) {
      await this.fallback.log.flush();
      await (await this.fallback.file).close();
    }
  }

  /** Posts the entries queued in this turn of the event loop. */
  private post(): void {
    this.posting = false;
    if (this.pending.length === 0 || this.fallback !== undefined) return;
    const queued = this.pending;
    this.pending = [];
    const items: Handover[] = [];
    for (const item of queued) {
      try {
        if (typeof item === "function") {
          items.push({ entry: item() });
        } else if ("outgoing" in item) {
          const o = item.outgoing;
          items.push({ outgoing: typeof o === "function" ? o() : o });
        } else {
          items.push(item);
        }
      } catch (err) {
        this.logger.warn("delivery log: could not build an entry", { error: errorText(err) });
      }
    }
    const message: ToWriter = { type: "batch", nowMs: this.clock.now(), items };
    try {
      this.thread().postMessage(message);
      if (!this.ready) this.unconfirmed.push(items);
    } catch (err) {
      this.logger.warn("delivery log: could not hand entries over", {
        count: items.length,
        error: errorText(err),
      });
    }
  }

  private call(call: Call): Promise<unknown> {
    if (this.fallback !== undefined) return answerCall(this.fallback.log, call);
    if (this.closing) return Promise.reject(new Error("the delivery log is closed"));
    this.post();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.calls.set(id, { call, resolve, reject });
      const worker = this.thread();
      worker.ref();
      const message: ToWriter = { type: "call", id, nowMs: this.clock.now(), call };
      worker.postMessage(message);
    });
  }

  private receive(m: FromWriter): void {
    switch (m.type) {
      case "ready":
        this.ready = true;
        this.unconfirmed = [];
        if (m.imported > 0) {
          this.logger.info("delivery log: entries copied from the main store to the log's own file", {
            count: m.imported,
            file: this.target.file,
          });
        }
        return;
      case "warn":
        this.logger.warn(m.msg, m.fields);
        return;
      case "reply": {
        const outstanding = this.calls.get(m.id);
        if (outstanding === undefined) return;
        this.calls.delete(m.id);
        if (this.calls.size === 0) this.worker?.unref();
        if (m.ok) outstanding.resolve(m.value);
        else outstanding.reject(new Error(m.error));
      }
    }
  }

  /** The thread failed: the log goes on in this thread, on the same file. */
  private fail(err: unknown): void {
    if (this.fallback !== undefined) return;
    this.logger.warn("delivery log: its writer thread failed; writing in the server's thread instead", {
      error: errorText(err),
      ready: this.ready,
    });
    const file = openDeliveriesFile(this.target.file, this.target.mainFile);
    const log = new LocalLog(
      file.then((f) => f.store),
      this.config,
      this.clock,
      (msg, fields) => this.logger.warn(msg, fields),
    );
    this.fallback = { log, file };
    void this.worker?.terminate().catch(() => undefined);
    for (const batch of this.unconfirmed) for (const item of batch) log.record(localItem(item));
    this.unconfirmed = [];
    for (const item of this.pending) log.record(localItem(item));
    this.pending = [];
    const calls = [...this.calls.values()];
    this.calls.clear();
    for (const c of calls) answerCall(log, c.call).then(c.resolve, c.reject);
  }
}

/** An item as the log in this thread takes it. */
function localItem(item: Handover | QueuedDelivery): QueuedDelivery {
  if (typeof item === "function" || !("entry" in item)) return item;
  const entry = item.entry;
  return () => entry;
}
