import { JsonableError } from "../../src/errors.js";

/** The largest answer `ctx.fetchJson` reads: 1 MiB (a larger one fails the call). */
export const FETCH_JSON_MAX_BYTES = 1024 * 1024;
/** The whole exchange of one `ctx.fetchJson` call, body included: 5 s. */
export const FETCH_JSON_TIMEOUT_MS = 5_000;
/** How many `ctx.fetchJson` calls one event may make; the next ones fail without a request. */
export const FETCH_JSON_MAX_CALLS = 10;

/**
 * A GET of a service's API on behalf of an integration (`ctx.fetchJson`) failed: refused by the
 * egress policy, unreachable, timed out, answered with a status other than 2xx, or not JSON.
 * Integrations catch it and fall back to what the payload says; one that does not answers the
 * sender 502 with this message.
 */
export class ServiceApiError extends JsonableError {
  override readonly httpStatus = 502;

  constructor(
    msg: string,
    /** The URL asked for. */
    readonly url: string,
    /** The HTTP status the service answered with, when it answered. */
    readonly status?: number,
  ) {
    super(msg);
  }
}
