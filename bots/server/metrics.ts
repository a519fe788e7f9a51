/**
 * The bot server's Prometheus metrics (`GET /metrics`), one registry per bot server, on the helper
 * the chat server uses too (HTTP requests by route and status, latency, Node's process metrics).
 */
import { Counter, Gauge, Histogram } from "prom-client";
import { HttpMetrics } from "../../src/lib/http-metrics.js";
import type { ChatApiObserver } from "../kit/index.js";

/** How a webhook ended: queued for the bot, refused (queue full, unknown bot, bad token, bad payload). */
export type RequestOutcome =
  "accepted" | "queue_full" | "unknown_bot" | "bad_token" | "bad_request" | "reply_loop";

/** How running the bot on one message ended. */
export type HandlerOutcome = "handled" | "skipped" | "failed" | "quit";

export class BotServerMetrics {
  readonly http = new HttpMetrics("botserver");
  readonly registry = this.http.registry;
  readonly requests = new Counter({
    name: "botserver_requests_total",
    help: "Outgoing-webhook requests received, by bot and outcome",
    labelNames: ["bot", "outcome"] as const,
    registers: [this.registry],
  });
  readonly handled = new Counter({
    name: "botserver_messages_handled_total",
    help: "Messages the bots ran on, by bot and outcome (handled, skipped, failed, quit)",
    labelNames: ["bot", "outcome"] as const,
    registers: [this.registry],
  });
  readonly handlerDuration = new Histogram({
    name: "botserver_handler_duration_seconds",
    help: "Time a bot took on one message, chat-API calls and pacing waits included",
    labelNames: ["bot"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [this.registry],
  });
  readonly repliesSent = new Counter({
    name: "botserver_replies_sent_total",
    help: "Messages the bots sent or edited through the chat API",
    labelNames: ["bot"] as const,
    registers: [this.registry],
  });
  readonly queueDepth = new Gauge({
    name: "botserver_queue_depth",
    help: "Messages waiting or running in each bot's queue",
    labelNames: ["bot"] as const,
    registers: [this.registry],
  });
  readonly apiErrors = new Counter({
    name: "botserver_chat_api_errors_total",
    help: "Failed chat-API calls (every failed attempt), by bot and HTTP status (0: unreachable)",
    labelNames: ["bot", "status"] as const,
    registers: [this.registry],
  });
  readonly apiRetries = new Counter({
    name: "botserver_chat_api_retries_total",
    help: "Chat-API calls retried after a transient failure (429 after its Retry-After, 5xx, unreachable)",
    labelNames: ["bot"] as const,
    registers: [this.registry],
  });
  readonly bots = new Gauge({
    name: "botserver_bots",
    help: "Bots served",
    registers: [this.registry],
  });

  /** A chat-API observer that counts one bot's errors, retries and sent messages. */
  observer(bot: string): ChatApiObserver {
    return {
      onError: ({ status }) => this.apiErrors.inc({ bot, status: String(status) }),
      onRetry: () => this.apiRetries.inc({ bot }),
      onSuccess: ({ method, endpoint }) => {
        if (
          (method === "POST" && endpoint === "messages") ||
          (method === "PATCH" && endpoint.startsWith("messages/"))
        )
          this.repliesSent.inc({ bot });
      },
    };
  }

  text(): Promise<string> {
    return this.http.text();
  }
}
