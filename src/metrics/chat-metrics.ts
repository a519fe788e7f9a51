/**
 * The chat server's Prometheus families (`GET /metrics`): HTTP requests by route and status with
 * latency histograms (long polls are `GET /api/v1/events`), incoming webhooks by integration and
 * outcome, and, read when scraped, outgoing-webhook jobs by status and attempt, event queues,
 * blocked long polls and the delivery log's backlog. Node's process metrics (event-loop lag among them) come with the shared helper.
 */
import type { Middleware } from "koa";
import { Counter, Gauge } from "prom-client";
import { HttpMetrics, routeOf } from "../lib/http-metrics.js";

/** What the metrics read from the running server when scraped. */
export interface ChatMetricSources {
  /** Event queues in the queue store (every process's, with Redis). */
  queueCount(): Promise<number>;
  /** `GET /events` requests blocked in this process. */
  longPollWaiters(): number;
  /** Outgoing-webhook jobs grouped by status and attempts made. */
  outgoingJobs(): Promise<{ status: string; attempts: number; count: number }[]>;
  /** Delivery-log entries queued in this process and not yet written. */
  deliveryLogBacklog(): Promise<number>;
}

const WEBHOOK_ROUTE = "/api/v1/external/:integration";

export class ChatMetrics {
  readonly http = new HttpMetrics("chat");
  readonly webhooks: Counter<"integration" | "outcome">;

  constructor(sources: ChatMetricSources) {
    const registers = [this.http.registry];
    this.webhooks = new Counter({
      name: "chat_webhooks_total",
      help: "Incoming webhook requests by integration and outcome (success, or the error code answered)",
      labelNames: ["integration", "outcome"] as const,
      registers,
    });
    new Gauge({
      name: "chat_event_queues",
      help: "Event queues registered (POST /register), in the queue store",
      registers,
      async collect() {
        this.set(await sources.queueCount());
      },
    });
    new Gauge({
      name: "chat_long_polls_waiting",
      help: "GET /events requests blocked waiting for events in this process",
      registers,
      collect() {
        this.set(sources.longPollWaiters());
      },
    });
    new Gauge({
      name: "chat_delivery_log_backlog",
      help: "Delivery-log entries queued in this process and not yet written to the log",
      registers,
      async collect() {
        this.set(await sources.deliveryLogBacklog());
      },
    });
    new Gauge({
      name: "chat_outgoing_webhook_jobs",
      help: "Outgoing-webhook jobs not yet delivered (a delivered job leaves the table), by status (pending, failed, dead) and attempts made",
      labelNames: ["status", "attempts"] as const,
      registers,
      async collect() {
        this.reset();
        for (const row of await sources.outgoingJobs()) {
          this.set({ status: row.status, attempts: String(row.attempts) }, row.count);
        }
      },
    });
  }

  /** Times and counts every request, and classifies incoming webhooks by what was answered. */
  middleware(): Middleware {
    const http = this.http.middleware();
    const webhooks = this.webhooks;
    return async function chatMetricsMiddleware(ctx, next) {
      await http(ctx, async () => {
        try {
          await next();
        } finally {
          if (routeOf(ctx) === WEBHOOK_ROUTE && ctx.method === "POST") {
            const params = (ctx as { params?: Record<string, string> }).params;
            webhooks.inc({ integration: params?.["integration"] ?? "", outcome: outcomeOf(ctx.body) });
          }
        }
      });
    };
  }
}

/** `success`, or the error code of the body answered (`UNSUPPORTED_WEBHOOK_EVENT_TYPE`, …). */
function outcomeOf(body: unknown): string {
  if (typeof body !== "object" || body === null) return "unknown";
  const { result, code } = body as { result?: unknown; code?: unknown };
  if (result === "success") return "success";
  return typeof code === "string" ? code : "error";
}

/** The sources of a running server's services. */
export function chatMetricSources(services: {
  outgoing: { jobCounts(): Promise<{ status: string; attempts: number; count: number }[]> };
  eventQueues: { store: { size(): Promise<number> }; waiterCount: number };
  deliveries: { backlog(): Promise<number> };
}): ChatMetricSources {
  return {
    queueCount: () => services.eventQueues.store.size(),
    longPollWaiters: () => services.eventQueues.waiterCount,
    outgoingJobs: () => services.outgoing.jobCounts(),
    deliveryLogBacklog: () => services.deliveries.backlog(),
  };
}
