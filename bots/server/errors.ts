import { JsonableError } from "../../src/errors.js";

/** `bot_email` of a webhook names no configured bot (Zulip's wording). */
export class UnknownBotEmailError extends JsonableError {
  constructor(readonly botEmail: string) {
    super(
      `Cannot find a bot with email ${botEmail} in the Botserver configuration file. Do the emails in your botserverrc match the bot emails on the server?`,
    );
  }
  override data(): Record<string, unknown> {
    return { bot_email: this.botEmail };
  }
}

/** The webhook's `token` is not the configured one (Zulip's wording). */
export class BotTokenMismatchError extends JsonableError {
  override readonly code = "UNAUTHORIZED";
  override readonly httpStatus = 401;
  constructor(readonly botEmail: string) {
    super(
      `Request token does not match token found for bot ${botEmail} in the Botserver configuration file. Do the outgoing webhooks in Zulip point to the right Botserver?`,
    );
  }
}

/**
 * The webhook's Standard Webhooks signature is missing, stale or does not match a configured
 * `signing_secret`, and the bot's section has `require_signature = true`.
 */
export class BotSignatureError extends JsonableError {
  override readonly code = "UNAUTHORIZED";
  override readonly httpStatus = 401;
  constructor(
    readonly botEmail: string,
    readonly reason: string,
  ) {
    super(
      `Request signature for bot ${botEmail} is not valid (${reason}): the bot server requires signed webhooks.`,
    );
  }
}

/** A bot could not be started: the chat server is unreachable, rejects the bot's key, or the bot's config is incomplete. */
export class BotStartupError extends Error {
  constructor(
    readonly section: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(`Section [${section}]: ${message}`, options);
    this.name = new.target.name;
  }
}

/**
 * The bot's queue is full: 503 with `Retry-After`, so the chat server delivers the webhook again
 * later instead of the reply being lost.
 */
export class BotQueueFullError extends JsonableError {
  override readonly httpStatus = 503;
  constructor(
    readonly botName: string,
    readonly retryAfterSeconds: number,
  ) {
    super(`Bot '${botName}' is busy: its queue is full. Deliver the message again later.`);
  }
  override headers(): Record<string, string> {
    return { "Retry-After": String(this.retryAfterSeconds) };
  }
}
