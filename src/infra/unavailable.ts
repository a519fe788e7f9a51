import { JsonableError } from "../errors.js";

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
  // PostgreSQL: admin/crash shutdown, cannot connect now, connection failures.
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
  if (!(err instanceof Error)) return false;
  const code = (err as Error & { code?: unknown }).code;
  if (typeof code === "string" && CONNECTION_CODES.has(code)) return true;
  return /Connection terminated|connection timeout|Client has encountered a connection error|timeout exceeded when trying to connect/i.test(
    err.message,
  );
}

/** Whether `err` is ioredis saying the connection is down (commands are not queued while it is). */
export function isRedisConnectionError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  if (err.name === "MaxRetriesPerRequestError") return true;
  return /Connection is closed|enableOfflineQueue|Stream isn't writeable|Reached the max retries/i.test(
    err.message,
  );
}
