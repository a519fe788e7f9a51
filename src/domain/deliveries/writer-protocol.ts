/**
 * The messages between the server's thread and the delivery log's writer thread (plain,
 * structured-cloneable data; writer-client.ts and writer-thread.ts).
 */
import type { DeliveryQuery } from "../../store/deliveries-repo.js";
import type { IncomingCapture, OutgoingCapture } from "./entries.js";
import type { DeliveryLogConfig, NewDelivery } from "./types.js";

/** What the writer thread is started with. */
export interface WriterData {
  /** The log's SQLite file, and the main store's (whose old entries are copied on creation). */
  file: string;
  mainFile: string;
  config: DeliveryLogConfig;
  /** The server clock's time when the thread was started (age pruning uses the server's clock). */
  nowMs: number;
}

/** One queued entry: a capture to build there, or an entry already built. */
export type Handover = { incoming: IncomingCapture } | { outgoing: OutgoingCapture } | { entry: NewDelivery };

export type Call =
  | { op: "list"; query: DeliveryQuery }
  | { op: "byId"; botId: number; id: number }
  | { op: "insert"; entry: NewDelivery }
  | { op: "flush" }
  /** Entries the thread holds and has not written yet. */
  | { op: "backlog" }
  | { op: "close" };

export type ToWriter =
  /** Entries handed over in one turn of the server's event loop. */
  | { type: "batch"; nowMs: number; items: Handover[] }
  /** A request answered by a "reply" (in order: after every batch posted before it). */
  | { type: "call"; id: number; nowMs: number; call: Call };

export type FromWriter =
  /** The file is open (and old entries copied): handed-over entries will be written. */
  | { type: "ready"; imported: number }
  | { type: "reply"; id: number; ok: true; value: unknown }
  | { type: "reply"; id: number; ok: false; error: string }
  | { type: "warn"; msg: string; fields: Record<string, unknown> };
