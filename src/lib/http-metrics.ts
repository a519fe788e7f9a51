/**
 * The Prometheus helper both servers share (the chat server's `GET /metrics` and the bot server's):
 * a registry with Node's process metrics (event-loop lag, heap, CPU, RSS), HTTP requests by route
 * and status with a latency histogram, and the operator-only endpoint.
 */
import type { Middleware, ParameterizedContext } from "koa";
import { Counter, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import { AccessDeniedError } from "../errors.js";
import { constantTimeEqual } from "./constant-time.js";

/** Who may read `/metrics`: clients on a loopback address, and whoever presents the token. */
export interface MetricsAccess {
  /** `Authorization: Bearer <token>` grants access from any address (undefined: loopback only). */
  token?: string | undefined;
}

export class HttpMetrics {
  readonly registry = new Registry();
  readonly requests: Counter<"method" | "route" | "status">;
  readonly duration: Histogram<"method" | "route">;

  /** `prefix` names the families (`chat_http_requests_total`, `botserver_http_…`). */
  constructor(prefix: string) {
    this.requests = new Counter({
      name: `${prefix}_http_requests_total`,
      help: "HTTP requests answered, by method, route pattern and status",
      labelNames: ["method", "route", "status"] as const,
      registers: [this.registry],
    });
    this.duration = new Histogram({
      name: `${prefix}_http_request_duration_seconds`,
      help: "Time from a request's arrival to its answer, by method and route pattern (long polls included)",
      labelNames: ["method", "route"] as const,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
      registers: [this.registry],
    });
  }

  /** Counts and times every request; the route is the router's pattern, so labels stay few. */
  middleware(): Middleware {
    const requests = this.requests;
    const duration = this.duration;
    return async function httpMetricsMiddleware(ctx, next) {
      const started = process.hrtime.bigint();
      try {
        await next();
      } finally {
        const route = routeOf(ctx);
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        requests.inc({ method: ctx.method, route, status: String(ctx.status) });
        duration.observe({ method: ctx.method, route }, seconds);
      }
    };
  }

  /** This app's families, then the process's (one set per process, however many apps it runs). */
  async text(): Promise<string> {
    return (await this.registry.metrics()) + "\n" + (await processRegistry().metrics());
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** `GET /metrics`: Prometheus text to an operator (see {@link mayReadMetrics}), else 403. */
  endpoint(access: MetricsAccess): Middleware {
    return async (ctx) => {
      if (!mayReadMetrics(ctx, access)) {
        throw new AccessDeniedError("Metrics are served to loopback clients, or with the metrics token");
      }
      ctx.type = this.contentType;
      ctx.body = await this.text();
    };
  }
}

let processWide: Registry | undefined;

/** Node's own metrics (event-loop lag, GC, heap, CPU, RSS, handles), collected once per process. */
function processRegistry(): Registry {
  if (processWide === undefined) {
    processWide = new Registry();
    collectDefaultMetrics({ register: processWide, eventLoopMonitoringPrecision: 20 });
  }
  return processWide;
}

/** The matched route's pattern (`/api/v1/messages/:id`); unmatched requests share one label. */
export function routeOf(ctx: ParameterizedContext): string {
  const matched = (ctx as { _matchedRoute?: unknown })._matchedRoute;
  if (typeof matched === "string") return matched;
  return ctx.status === 404 ? "(unmatched)" : "(other)";
}

/** Whether the request may read the metrics (see {@link MetricsAccess}). */
export function mayReadMetrics(ctx: ParameterizedContext, access: MetricsAccess): boolean {
  const auth = ctx.get("authorization");
  if (access.token !== undefined && access.token !== "" && auth.startsWith("Bearer ")) {
    return constantTimeEqual(access.token, auth.slice("Bearer ".length).trim());
  }
  return isLoopback(ctx.req.socket.remoteAddress);
}

export function isLoopback(address: string | undefined): boolean {
  if (address === undefined) return false;
  return address === "::1" || address.startsWith("127.") || address.startsWith("::ffff:127.");
}
