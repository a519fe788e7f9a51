/** The delivery log's vocabulary (docs/integration-operations.md). */

export type Direction = "incoming" | "outgoing";

/** Incoming: sent, ignored, rejected, failed. Outgoing: delivered, retrying, failed. */
export type Outcome = "sent" | "ignored" | "rejected" | "failed" | "retrying" | "delivered";

export const DIRECTIONS: readonly Direction[] = ["incoming", "outgoing"];
export const OUTCOMES: readonly Outcome[] = [
  "sent",
  "ignored",
  "rejected",
  "failed",
  "retrying",
  "delivered",
];

/**
 * An old credential a request used during a rotation's overlap: an incoming webhook authenticated
 * by the bot's old API key; an outgoing webhook that carried the old token, or (else) that an old
 * signing secret signed too.
 */
export type OldCredential = "api_key" | "token" | "signing_secret";

/** One logged request, as stored (already redacted and truncated). */
export interface Delivery {
  id: number;
  botId: number;
  createdMs: number;
  direction: Direction;
  integration: string;
  event: string | null;
  method: string;
  /** Path and query (incoming) or the called URL (outgoing), secrets removed. */
  url: string;
  requestHeaders: Record<string, string>;
  requestBody: string;
  /** Form fields of an urlencoded or multipart request (secrets removed). */
  requestForm: Record<string, string> | null;
  bodyTruncated: boolean;
  responseStatus: number | null;
  responseBody: string | null;
  outcome: Outcome;
  messageIds: number[];
  attempts: number;
  error: string | null;
  replayOf: number | null;
  /** The old credential the request used, or null. */
  oldCredential: OldCredential | null;
}

/**
 * An entry to write. Its request body may be the bytes the body parser read, when storing them
 * as they are was safe (valid to keep, nothing to redact or cut): SQLite stores them without a
 * round trip through a JS string.
 */
export type NewDelivery = Omit<Delivery, "id" | "requestBody"> & { requestBody: string | Buffer };

/** Retention and size limits of the log. */
export interface DeliveryLogConfig {
  /** Off: nothing is recorded (the bench's baseline). */
  enabled: boolean;
  /** Newest entries kept per bot. */
  maxPerBot: number;
  /** Entries older than this are pruned. */
  maxAgeMs: number;
  /** Request and response bodies are stored up to this many bytes. */
  maxBodyBytes: number;
  /**
   * Buffered entries are written at most this long after the request (one transaction per batch).
   * Default 0: at the end of the event-loop turn. Keeping entries (and the request bodies they
   * hold) alive for 50 ms cost the process more CPU (bench/deliveries.ts: +11–20 % per request
   * against +9–12 % at 0), most of the difference outside the JavaScript thread (presumably the
   * garbage collector's threads).
   */
  flushDelayMs: number;
}

export const DEFAULT_DELIVERY_LOG: DeliveryLogConfig = {
  enabled: true,
  maxPerBot: 200,
  maxAgeMs: 7 * 24 * 60 * 60 * 1000,
  maxBodyBytes: 64 * 1024,
  flushDelayMs: 0,
};
