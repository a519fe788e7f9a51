import type http from "node:http";
import { ServiceUnavailableError } from "../infra/unavailable.js";

/** What a server still starting waits for: nothing yet (opening), or a backend it cannot reach. */
export interface StartingState {
  waitingFor: "database" | "redis" | undefined;
}

function write(
  res: http.ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, {
    "Content-Type": "application/json",
    "Cache-Control": "no-store",
    ...headers,
  });
  res.end(JSON.stringify(body));
}

/**
 * Answers a request that arrives before the app exists (the store opening, or the server waiting
 * for PostgreSQL or Redis at start-up): `GET /health` is alive, `GET /ready` is not ready, and
 * while a backend cannot be reached every other request gets the same 503 as during an outage.
 * Returns false for a request that should wait for the app (nothing is unreachable yet).
 */
export function answerWhileStarting(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  state: StartingState,
): boolean {
  const path = (req.url ?? "/").split("?")[0];
  if (path === "/health" && (req.method === "GET" || req.method === "HEAD")) {
    write(res, 200, { result: "success", msg: "", status: "alive" });
    return true;
  }
  const waitingFor = state.waitingFor;
  if (path === "/ready" && (req.method === "GET" || req.method === "HEAD")) {
    const what = waitingFor === "redis" ? "Redis" : waitingFor === "database" ? "the database" : undefined;
    write(
      res,
      503,
      {
        result: "error",
        msg: what === undefined ? "Not ready: starting" : `Not ready: starting; ${what} cannot be reached`,
        code: "BAD_REQUEST",
        status: "starting",
      },
      { "Retry-After": "5" },
    );
    return true;
  }
  if (waitingFor === undefined) return false;
  const err = new ServiceUnavailableError(waitingFor);
  write(res, err.httpStatus, err.toJSON(), err.headers());
  return true;
}
