/** Errors a bot or its handler may raise. They are not HTTP errors of the bot server: a bot that lets one escape gets a 500. */

/** The chat server answered a bot's API call with an error (or not at all). */
export class ChatApiError extends Error {
  constructor(
    message: string,
    /** HTTP status, or 0 when the server could not be reached. */
    readonly status: number,
    /** The chat server's error `code`, when it sent one. */
    readonly code?: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** A storage key that does not exist was read or removed. */
export class BotStorageKeyError extends Error {
  constructor(readonly key: string) {
    super(`key not found: ${key}`);
    this.name = new.target.name;
  }
}

/** Writing bot storage failed. */
export class BotStorageError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** A bot that needs a section of the bot config file was started without one. */
export class NoBotConfigError extends Error {
  constructor(
    readonly botName: string,
    readonly section: string,
  ) {
    super(`Bot '${botName}' needs a [${section}] section in its bot config file (--bot-config-file)`);
    this.name = new.target.name;
  }
}

/** A bot sent or edited more messages than its rate limit allows (a reply loop, most likely). */
export class BotRateLimitError extends Error {
  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {
    super(`Message rate limit reached: more than ${limit} messages in ${windowMs / 1000} seconds`);
    this.name = new.target.name;
  }
}
