/**
 * The bot server's HTTP side: Zulip's outgoing-webhook receiver. `POST /` takes the chat server's
 * payload, finds the bot by `bot_email`, checks the token in constant time and queues the message
 * for the bot (503 when the bot's queue is full, so the chat server delivers it again later); the
 * bot replies through the chat API, so the answer is always `{"response_not_required": true}`.
 * `GET /health` and `GET /metrics` (Prometheus) are for operators.
 */
import Router from "@koa/router";
import { Ajv } from "ajv";
import type { ErrorObject } from "ajv";
import Koa from "koa";
import { constantTimeEqual } from "../../src/lib/constant-time.js";
import { checkWebhookSignature } from "../kit/signature.js";
import type { VerificationFailure } from "../../src/lib/standard-webhooks.js";
import type { JsonableError } from "../../src/errors.js";
import {
  BadRequestError,
  InvalidJsonError,
  RequestTooLargeError,
  RequestVariableMissingError,
} from "../../src/errors.js";
import { errorHandler } from "../../src/lib/error-handler.js";
import { createLogger } from "../../src/lib/logger.js";
import { inRequestContext } from "../../src/lib/tracing.js";
import type { LogFormat, LogLevel, Logger } from "../../src/lib/logger.js";
import type { BotMessage } from "../kit/index.js";
import {
  BotQueueFullError,
  BotSignatureError,
  BotTokenMismatchError,
  UnknownBotEmailError,
} from "./errors.js";
import { BotHost } from "./host.js";
import type { RunningBot } from "./host.js";
import { BotServerMetrics } from "./metrics.js";

export type { RunningBot } from "./host.js";
export type { Logger } from "../../src/lib/logger.js";

/** The bot server's logger: stderr, with `component=botserver` on every record. */
export function botServerLogger(options: { format?: LogFormat; level?: LogLevel } = {}): Logger {
  return createLogger(options.level ?? "info", (line) => process.stderr.write(line + "\n"), {
    format: options.format ?? "text",
    fields: { component: "botserver" },
  });
}

/** Writes to stderr (the bot server's only output besides its exit code). */
export const stderrLogger: Logger = botServerLogger();

export const silentLogger: Logger = createLogger("silent");

export interface BotServerAppOptions {
  logger?: Logger;
  /** Largest accepted request body (default 1 MiB). */
  maxBodyBytes?: number;
  /** Path prefix of the routes (default none: `POST /`, `GET /health`, `GET /metrics`). */
  prefix?: string;
  /** Per-bot queue size (default 1000): beyond it, webhooks are answered 503. */
  queueCapacity?: number;
  /** Conversations one bot works on at once (default 4). */
  concurrency?: number;
  metrics?: BotServerMetrics;
  /** Bearer token that may read GET /metrics from any address (default: loopback clients only). */
  metricsToken?: string | undefined;
}

/** The outgoing-webhook payload, as far as the bot server reads it. */
interface WebhookEvent {
  bot_email: string;
  token: string;
  message: BotMessage;
  trigger?: string;
  bot_full_name?: string;
  data?: string;
}

const ajv = new Ajv({ allErrors: false, allowUnionTypes: true });
const validateEvent = ajv.compile<WebhookEvent>({
  type: "object",
  required: ["bot_email", "token", "message"],
  properties: {
    bot_email: { type: "string" },
    token: { type: "string" },
    trigger: { type: "string" },
    bot_full_name: { type: "string" },
    data: { type: "string" },
    message: {
      type: "object",
      required: ["content"],
      properties: {
        id: { type: "integer" },
        content: { type: "string" },
        type: { type: "string" },
        subject: { type: "string" },
        sender_email: { type: "string" },
        display_recipient: { type: ["string", "array"] },
      },
    },
  },
});

const TYPE_NAMES: Record<string, string> = {
  object: "an object",
  string: "a string",
  integer: "an integer",
  array: "a list",
  "string,array": "a string or a list",
};

/** Zulip-style messages for a payload that fails the schema: "Missing 'token' argument", "message.content is not a string". */
function payloadError(error: ErrorObject | undefined): JsonableError {
  if (!error) return new BadRequestError("Malformed payload");
  const where = error.instancePath.slice(1).replaceAll("/", ".");
  if (error.keyword === "required") {
    const missing = (error.params as { missingProperty: string }).missingProperty;
    return new RequestVariableMissingError(where ? `${where}.${missing}` : missing);
  }
  if (error.keyword === "type") {
    const type = String((error.params as { type: string | string[] }).type);
    return new BadRequestError(`${where || "Payload"} is not ${TYPE_NAMES[type] ?? type}`);
  }
  return new BadRequestError(`${where || "Payload"} is invalid`);
}

/** The request's JSON, and its raw bytes when this app read them (needed to check a signature). */
async function readJson(ctx: Koa.Context, maxBytes: number): Promise<{ json: unknown; raw?: Buffer }> {
  // Hosted inside another Koa app, a body parser may have read the body already.
  const parsed = (ctx.request as { body?: unknown }).body;
  if (
    parsed !== undefined &&
    parsed !== null &&
    typeof parsed === "object" &&
    Object.keys(parsed).length > 0
  ) {
    return { json: parsed };
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw new RequestTooLargeError(maxBytes);
    chunks.push(chunk);
  }
  // Like Zulip's bot server: JSON whatever the Content-Type says.
  const raw = Buffer.concat(chunks);
  try {
    return { json: JSON.parse(raw.toString("utf8")) as unknown, raw };
  } catch {
    throw new InvalidJsonError();
  }
}

/**
 * Same check as everywhere in the project: constant time (only the length may leak). `expected`
 * may list several tokens, space- or comma-separated (`token = new old` during a rotation with
 * an overlap): any of them matches. Every one is compared, whichever matches.
 */
export function tokensMatch(expected: string, given: string): boolean {
  const tokens = expected.split(/[\s,]+/).filter((t) => t.length > 0);
  if (tokens.length === 0) return constantTimeEqual(expected, given);
  let match = false;
  for (const token of tokens) if (constantTimeEqual(token, given)) match = true;
  return match;
}

/**
 * Checks the Standard Webhooks headers against the bot's secrets (src/lib/standard-webhooks.ts:
 * 5-minute tolerance, constant time, any of several secrets). "ok", or why not.
 */
function checkSignature(
  running: RunningBot,
  headers: Record<string, string | string[] | undefined>,
  raw: Buffer | undefined,
): "ok" | VerificationFailure | "not_configured" | "body_already_parsed" {
  const secrets = running.signingSecrets ?? [];
  if (secrets.length === 0) return "not_configured";
  if (raw === undefined) return "body_already_parsed";
  return checkWebhookSignature(secrets, headers, raw);
}

/** A host for the bots, or the bots themselves (a host is made for them). */
export function botHost(bots: readonly RunningBot[] | BotHost, options: BotServerAppOptions = {}): BotHost {
  if (bots instanceof BotHost) return bots;
  return new BotHost(bots, {
    logger: options.logger ?? stderrLogger,
    metrics: options.metrics ?? new BotServerMetrics(),
    ...(options.queueCapacity === undefined ? {} : { queueCapacity: options.queueCapacity }),
    ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
  });
}

/** The routes alone, for a host app that already has an error middleware writing {@link JsonableError}s. */
export function botServerRouter(
  bots: readonly RunningBot[] | BotHost,
  options: BotServerAppOptions = {},
): Router {
  const host = botHost(bots, options);
  const metrics = host.metrics;
  const maxBytes = options.maxBodyBytes ?? 1024 * 1024;
  const router = new Router(options.prefix ? { prefix: options.prefix } : {});

  router.post("/", async (ctx) => {
    let payload: unknown;
    let raw: Buffer | undefined;
    try {
      ({ json: payload, raw } = await readJson(ctx, maxBytes));
    } catch (err) {
      metrics.requests.inc({ bot: "", outcome: "bad_request" });
      throw err;
    }
    if (!validateEvent(payload)) {
      metrics.requests.inc({ bot: "", outcome: "bad_request" });
      throw payloadError(validateEvent.errors?.[0]);
    }
    const running = host.byEmail(payload.bot_email);
    if (!running) {
      metrics.requests.inc({ bot: "", outcome: "unknown_bot" });
      throw new UnknownBotEmailError(payload.bot_email);
    }
    if (!tokensMatch(running.token, payload.token)) {
      metrics.requests.inc({ bot: running.name, outcome: "bad_token" });
      throw new BotTokenMismatchError(payload.bot_email);
    }
    const signature = checkSignature(running, ctx.headers, raw);
    if (signature !== "ok" && running.requireSignature === true) {
      metrics.requests.inc({ bot: running.name, outcome: "bad_signature" });
      throw new BotSignatureError(payload.bot_email, signature);
    }
    if (host.isReplyLoop(running, payload.message)) {
      metrics.requests.inc({ bot: running.name, outcome: "reply_loop" });
      ctx.body = { response_not_required: true };
      return;
    }
    const accepted = host.accept(running, {
      message: payload.message,
      trigger: payload.trigger ?? "",
      botFullName: payload.bot_full_name,
    });
    if (!accepted) {
      metrics.requests.inc({ bot: running.name, outcome: "queue_full" });
      throw new BotQueueFullError(running.name, host.retryAfterSeconds(running.name));
    }
    metrics.requests.inc({ bot: running.name, outcome: "accepted" });
    ctx.body = { response_not_required: true };
  });

  router.get("/health", (ctx) => {
    ctx.body = {
      result: "success",
      msg: "",
      status: "ok",
      bots: host.list().map((b) => b.name),
      queues: Object.fromEntries(host.list().map((b) => [b.name, host.depth(b.name)])),
    };
  });

  router.get("/metrics", metrics.http.endpoint({ token: options.metricsToken }));

  return router;
}

/** The bot server as a Koa app: mount its `callback()` on any HTTP server, or use `startBotServer`. */
export function createBotServerApp(
  bots: readonly RunningBot[] | BotHost,
  options: BotServerAppOptions = {},
): Koa {
  const logger = options.logger ?? stderrLogger;
  const host = botHost(bots, { ...options, logger });
  const router = botServerRouter(host, { ...options, logger });
  const app = new Koa();
  app.silent = true;
  app.use(host.metrics.http.middleware());
  app.use(function requestContextMiddleware(ctx, next) {
    return inRequestContext(ctx, next); // the chat server's X-Request-Id and traceparent, in every log line
  });
  app.use(errorHandler(logger));
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}
