/** A small structured logger: one line per record on stderr, level-filtered. Never pass secrets. */
import { AsyncLocalStorage } from "node:async_hooks";
import crypto from "node:crypto";

export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

/** `text` (default): `<time> LEVEL msg k=v…`; `json`: one JSON object per line (`time`, `level`, `msg`, fields). */
export type LogFormat = "text" | "json";

export function createLogger(
  level: LogLevel = "info",
  write: (line: string) => void = defaultWrite,
  options: { format?: LogFormat; fields?: Record<string, unknown> } = {},
): Logger {
  const emit = (at: Exclude<LogLevel, "silent">, msg: string, own?: Record<string, unknown>): void => {
    if (ORDER[at] < ORDER[level]) return;
    const context = requestContext.getStore();
    const fields =
      options.fields || context
        ? {
            ...options.fields,
            ...(context && { request_id: context.requestId, trace_id: context.traceId }),
            ...own,
          }
        : own;
    if (options.format === "json") {
      write(jsonRecord(at, msg, fields));
      return;
    }
    const extra = fields
      ? " " +
        Object.entries(fields)
          .map(
            ([k, v]) =>
              `${k}=${typeof v === "string" ? JSON.stringify(v) : v instanceof Error ? JSON.stringify(v.stack ?? v.message) : JSON.stringify(v)}`,
          )
          .join(" ")
      : "";
    write(`${new Date().toISOString()} ${at.toUpperCase()} ${msg}${extra}`);
  };
  return {
    debug: (m, f) => emit("debug", m, f),
    info: (m, f) => emit("info", m, f),
    warn: (m, f) => emit("warn", m, f),
    error: (m, f) => emit("error", m, f),
  };
}

function jsonRecord(level: string, msg: string, fields: Record<string, unknown> = {}): string {
  const record: Record<string, unknown> = { time: new Date().toISOString(), level, msg };
  for (const [k, v] of Object.entries(fields)) {
    record[k] = v instanceof Error ? { name: v.name, message: v.message, stack: v.stack } : v;
  }
  return JSON.stringify(record);
}

function defaultWrite(line: string): void {
  process.stderr.write(line + "\n");
}

export const silentLogger: Logger = createLogger("silent");

/**
 * The request being served (set by the request-log middleware of both servers): every log line
 * written while serving it, in any module, carries its `request_id` and `trace_id`, and the
 * requests it causes (outgoing webhooks, the bot server's replies) pass them on.
 */
export interface RequestContext {
  /** `X-Request-Id`: the caller's, or made here. */
  requestId: string;
  /** W3C trace context: the caller's trace id (`traceparent`), or a new one. */
  traceId: string;
  /** This server's span for the request: the parent id of the requests it makes. */
  spanId: string;
  /**
   * Whether the trace is sampled (`traceparent`'s flag): the caller's decision, or tracing's
   * sampler (`OTEL_TRACES_SAMPLER`) for a trace that starts here; passed on to the requests it makes.
   */
  sampled: boolean;
}

export const requestContext = new AsyncLocalStorage<RequestContext>();

const REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** The context of a request that arrived with these headers (invalid or missing ones are replaced). */
export function contextFromHeaders(
  requestId: string | undefined,
  traceparent: string | undefined,
): RequestContext {
  const trace = traceparent === undefined ? null : TRACEPARENT.exec(traceparent.trim());
  // The caller's trace, unless its id is all zeros (invalid).
  const caller = trace !== null && !/^0+$/.test(trace[1]!) ? trace : undefined;
  return {
    requestId: requestId !== undefined && REQUEST_ID.test(requestId) ? requestId : crypto.randomUUID(),
    traceId: caller?.[1] ?? randomHex(16),
    spanId: randomHex(8),
    sampled: caller === undefined || (parseInt(caller[3]!, 16) & 1) === 1,
  };
}

/**
 * Random bytes as hex, taken from a pool filled 4 KB at a time: `crypto.randomBytes` costs about
 * 5 µs a call (a request made two), the pool a twentieth of that.
 */
const randomPool = Buffer.allocUnsafe(4096);
let randomOffset = randomPool.length;
function randomHex(bytes: number): string {
  if (randomOffset + bytes > randomPool.length) {
    crypto.randomFillSync(randomPool);
    randomOffset = 0;
  }
  const hex = randomPool.toString("hex", randomOffset, randomOffset + bytes);
  randomOffset += bytes;
  return hex;
}

/** Headers that carry the current request's ids to a request it causes (none outside a request). */
export function propagationHeaders(): Record<string, string> {
  const context = requestContext.getStore();
  if (context === undefined) return {};
  const flags = context.sampled ? "01" : "00";
  return {
    "x-request-id": context.requestId,
    traceparent: `00-${context.traceId}-${context.spanId}-${flags}`,
  };
}
