/**
 * The bot server's HTTP side: Zulip's outgoing-webhook receiver. `POST /` takes the chat server's
 * payload, finds the bot by `bot_email`, checks the token in constant time and runs the bot;
 * replies go through the chat API, so the answer is always `{"response_not_required": true}`.
 */
import Router from "@koa/router";
import { Ajv } from "ajv";
import type { ErrorObject } from "ajv";
import Koa from "koa";
import { createHash, timingSafeEqual } from "node:crypto";
import {
  BadRequestError,
  InvalidJsonError,
  JsonableError,
  MethodNotAllowedError,
  NotFoundError,
  RequestTooLargeError,
  RequestVariableMissingError,
} from "../../src/errors.js";
import type { Bot, BotHandler, BotMessage } from "../kit/index.js";
import { dispatchBotMessage } from "../kit/index.js";
import { BotTokenMismatchError, UnknownBotEmailError } from "./errors.js";

/** A configured bot ready to take messages. */
export interface RunningBot {
  /** The config section name. */
  name: string;
  bot: Bot;
  handler: BotHandler;
  /** The bot's email: outgoing webhooks are matched on it. */
  email: string;
  /** The outgoing-webhook token of the bot's service. */
  token: string;
}

export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string, err?: unknown): void;
}

/** Writes to stderr (the bot server's only output besides its exit code). */
export const stderrLogger: Logger = {
  info: (message) => process.stderr.write(`botserver: ${message}\n`),
  warn: (message) => process.stderr.write(`botserver: warning: ${message}\n`),
  error: (message, err) =>
    process.stderr.write(
      `botserver: error: ${message}${err instanceof Error ? `\n${err.stack ?? err.message}` : ""}\n`,
    ),
};

export const silentLogger: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };

export interface BotServerAppOptions {
  logger?: Logger;
  /** Largest accepted request body (default 1 MiB). */
  maxBodyBytes?: number;
  /** Path prefix of the routes (default none: `POST /`, `GET /health`). */
  prefix?: string;
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

async function readJson(ctx: Koa.Context, maxBytes: number): Promise<unknown> {
  // Hosted inside another Koa app, a body parser may have read the body already.
  const parsed = (ctx.request as { body?: unknown }).body;
  if (
    parsed !== undefined &&
    parsed !== null &&
    typeof parsed === "object" &&
    Object.keys(parsed).length > 0
  ) {
    return parsed;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw new RequestTooLargeError(maxBytes);
    chunks.push(chunk);
  }
  // Like Zulip's bot server: JSON whatever the Content-Type says.
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown;
  } catch {
    throw new InvalidJsonError();
  }
}

/** Constant-time comparison that does not leak the length either (both sides hashed first). */
export function tokensMatch(expected: string, given: string): boolean {
  const digest = (s: string): Buffer => createHash("sha256").update(s, "utf8").digest();
  return timingSafeEqual(digest(expected), digest(given));
}

/** Writes every error as the chat API does: `{"result": "error", "msg": …, "code": …}`. */
export function errorMiddleware(logger: Logger): Koa.Middleware {
  return async function botServerErrorMiddleware(ctx, next) {
    try {
      await next();
      if (ctx.body === undefined || ctx.body === null) {
        if (ctx.status === 405) {
          throw new MethodNotAllowedError(
            ctx.response
              .get("Allow")
              .split(",")
              .map((m) => m.trim())
              .filter((m) => m !== ""),
          );
        }
        if (ctx.status === 404) throw new NotFoundError();
      }
    } catch (err) {
      const error = err instanceof JsonableError ? err : undefined;
      if (!error) logger.error(`${ctx.method} ${ctx.path} failed`, err);
      ctx.status = error?.httpStatus ?? 500;
      ctx.set(error?.headers() ?? {});
      ctx.body = error?.toJSON() ?? { result: "error", msg: "Internal server error" };
    }
  };
}

/** The routes alone, for a host app that already has an error middleware writing {@link JsonableError}s. */
export function botServerRouter(bots: readonly RunningBot[], options: BotServerAppOptions = {}): Router {
  const logger = options.logger ?? stderrLogger;
  const maxBytes = options.maxBodyBytes ?? 1024 * 1024;
  const router = new Router(options.prefix ? { prefix: options.prefix } : {});

  router.post("/", async (ctx) => {
    const payload = await readJson(ctx, maxBytes);
    if (!validateEvent(payload)) throw payloadError(validateEvent.errors?.[0]);
    const running = bots.find((b) => b.email === payload.bot_email);
    if (!running) throw new UnknownBotEmailError(payload.bot_email);
    if (!tokensMatch(running.token, payload.token)) throw new BotTokenMismatchError(payload.bot_email);
    const outcome = await dispatchBotMessage(
      running.bot,
      running.handler,
      payload.message,
      payload.trigger ?? "",
      payload.bot_full_name,
    );
    if (outcome !== "handled")
      logger.info(`[${running.name}] message ${payload.message.id} not handled: ${outcome}`);
    ctx.body = { response_not_required: true };
  });

  router.get("/health", (ctx) => {
    ctx.body = { result: "success", msg: "", bots: bots.map((b) => b.name) };
  });

  return router;
}

/** The bot server as a Koa app: mount its `callback()` on any HTTP server, or use {@link startBotServer}. */
export function createBotServerApp(bots: readonly RunningBot[], options: BotServerAppOptions = {}): Koa {
  const logger = options.logger ?? stderrLogger;
  const router = botServerRouter(bots, { ...options, logger });
  const app = new Koa();
  app.silent = true;
  app.use(errorMiddleware(logger));
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}
