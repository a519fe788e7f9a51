import { BadRequestError, JsonableError } from "../errors.js";

/** A backing service (the database or Redis) cannot be reached: 503, the client should retry. */
export class ServiceUnavailableError extends JsonableError {
  override readonly httpStatus = 503;
  constructor(
    readonly backend: "database" | "redis",
    options?: ErrorOptions,
  ) {
    super(
      `Service temporarily unavailable: ${backend === "redis" ? "Redis" : "the database"} cannot be reached; try again shortly`,
      options,
    );
  }
  override headers(): Record<string, string> {
    return { "Retry-After": "5" };
  }
}

const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENOTFOUND",
  // PostgreSQL: statement_timeout reached, admin/crash shutdown, cannot connect now, connection failures.
  "57014",
  "57P01",
  "57P02",
  "57P03",
  "08000",
  "08001",
  "08003",
  "08006",
]);

/** Whether `err` says the database connection is gone (pg and node errors), not a bad query. */
export function isDatabaseConnectionError(err: unknown): boolean {
  const e = asErrorLike(err);
  if (e === undefined) return false;
  if (typeof e.code === "string" && CONNECTION_CODES.has(e.code)) return true;
  // "Query read timeout": pg's query_timeout (a statement left unanswered).
  return /Connection terminated|connection timeout|Client has encountered a connection error|timeout exceeded when trying to connect|Query read timeout/i.test(
    e.message,
  );
}

interface ErrorLike {
  name: string;
  message: string;
  code?: unknown;
}

/** Errors made by Node itself (socket errors) may come from another realm: no `instanceof Error`. */
function asErrorLike(err: unknown): ErrorLike | undefined {
  if (typeof err !== "object" || err === null) return undefined;
  const e = err as Partial<ErrorLike>;
  return typeof e.message === "string"
    ? { name: String(e.name), message: e.message, code: e.code }
    : undefined;
}

/**
 * Whether `err` is ioredis saying the connection is down (commands are not queued while it is) or
 * that a command went unanswered for its timeout (`RedisCommandTimeoutError`, redis/connection.ts).
 */
export function isRedisConnectionError(err: unknown): boolean {
  const e = asErrorLike(err);
  if (e === undefined) return false;
  if (e.name === "MaxRetriesPerRequestError" || e.name === "RedisCommandTimeoutError") return true;
  return /Connection is closed|enableOfflineQueue|Stream isn't writeable|Reached the max retries/i.test(
    e.message,
  );
}

/**
 * Text PostgreSQL cannot store: a NUL character (`\u0000`) in a string or JSON value (SQLite keeps
 * it). Answered 400 rather than 500; nothing was written (the statement failed as a whole).
 */
export class UnstorableTextError extends BadRequestError {
  constructor(options?: ErrorOptions) {
    super("Invalid characters in request: NUL (\\u0000) is not allowed", options);
  }
}

/** PostgreSQL's "invalid byte sequence" (22021) and "unsupported Unicode escape" (22P05, jsonb \u0000). */
export function isUnstorableTextError(err: unknown): boolean {
  const code = asErrorLike(err)?.code;
  return code === "22021" || code === "22P05";
}

/**
 * A write that lost a race with another request made at the same time: a row with the same unique
 * key was written in between (two requests adding the same thing at once passed the same "is it
 * new?" check), or PostgreSQL ended one of two transactions that waited on each other. Answered 400
 * rather than 500: tried again, the request is answered for the state the other one left.
 */
export class ConcurrentChangeError extends BadRequestError {
  constructor(options?: ErrorOptions) {
    super("Another request changed the same thing at the same time; try again", options);
  }
}

/**
 * PostgreSQL's unique_violation (23505), serialization_failure (40001) and deadlock_detected
 * (40P01); SQLite's unique and primary-key constraint failures.
 */
export function isConcurrentChangeError(err: unknown): boolean {
  const code = asErrorLike(err)?.code;
  return (
    code === "23505" ||
    code === "40001" ||
    code === "40P01" ||
    code === "SQLITE_CONSTRAINT_UNIQUE" ||
    code === "SQLITE_CONSTRAINT_PRIMARYKEY"
  );
}
