/** Errors a bot or its handler may raise. They are not HTTP errors of the bot server: a bot that lets one escape gets a 500. */

/** The chat server answered a bot's API call with an error (or not at all). */
export class ChatApiError extends Error {
  constructor(
    message: string,
    /** HTTP status, or 0 when the server could not be reached. */
    readonly status: number,
    /** The chat server's error `code`, when it sent one. */
    readonly code?: string,
    options?: ErrorOptions & { retryAfterMs?: number },
  ) {
    super(message, options);
    this.name = new.target.name;
    if (options?.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
  }

  /** The `Retry-After` of a 429 (or 503), in ms. */
  readonly retryAfterMs?: number;
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

/**
 * A bot asked to stop (`bot.quit(reason)`, Zulip's `bot_handler.quit`): the bot server stops serving
 * it, `run-bot` exits.
 */
export class BotQuitError extends Error {
  constructor(readonly reason?: string) {
    super(reason === undefined || reason === "" ? "The bot quit" : `The bot quit: ${reason}`);
    this.name = new.target.name;
  }
}

/** The chat server has no `POST /api/v1/user_uploads`. */
export class UploadsNotSupportedError extends Error {
  constructor(readonly site: string) {
    super(
      `The chat server at ${site} does not accept file uploads (POST /api/v1/user_uploads is not available)`,
    );
    this.name = new.target.name;
  }
}

/** A bot asked for a file outside its own folder, or one that does not exist. */
export class BotFileError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}
