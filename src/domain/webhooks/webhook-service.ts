import {
  InvalidJsonError,
  JsonableError,
  MissingHttpEventHeaderError,
  NotFoundError,
  RequestVariableMissingError,
  StreamDoesNotExistError,
  StreamIdDoesNotExistError,
  UnauthorizedError,
} from "../../errors.js";
import type { Clock } from "../../clock.js";
import type { Logger } from "../../logger.js";
import { dispatchWebhook, unquote } from "../../../integrations/kit/dispatch.js";
import type { Integration } from "../../../integrations/kit/index.js";
import type { UserService } from "../users/user-service.js";
import type { User } from "../users/types.js";
import { verifySignature } from "./signatures.js";

/** What the pipeline needs from messaging: send as `sender`, return the message id. */
export type SendMessage = (
  sender: User,
  message: {
    type: "stream" | "private";
    to: string | number | (string | number)[];
    topic?: string;
    content: string;
    client?: string;
  },
) => Promise<number>;

/** Where the per-bot webhook secrets live (bot config keys `webhook_secret` or `<integration>_secret`). */
export type SecretLookup = (bot: User, integration: string) => Promise<string | undefined>;

export interface IncomingWebhookRequest {
  path: string;
  headers: Readonly<Record<string, string | undefined>>;
  params: Readonly<Record<string, string>>;
  rawBody: Buffer;
  form: Readonly<Record<string, string>> | undefined;
  /** Decoded HTTP Basic credentials, when the request had them. */
  basicAuth: [string, string] | undefined;
}

export interface WebhookResult {
  /** Extra fields of the success response (slack_incoming's `ok`). */
  data: Record<string, unknown>;
  /** Ids of the messages sent (empty when ignored, filtered or redirected to the owner). */
  messageIds: number[];
}

/** At most one owner notification of each kind per bot per minute (Zulip's BOT_OWNER_STREAM_ALERT_WAITPERIOD). */
const NOTIFY_INTERVAL_MS = 60_000;

const SUPPORT_EMAIL = "the server administrator";

/**
 * The incoming-webhook pipeline, written once for every integration: authenticate → verify the
 * signature (when the bot has a secret) → dispatch (parse, event header, handler, filters) → send
 * to the stream (`topic` overrides) or privately to the bot's owner → notify the owner of
 * misconfigurations.
 */
export class WebhookService {
  private readonly byName: Map<string, Integration>;
  private readonly lastNotified = new Map<string, number>();

  constructor(
    integrations: readonly Integration[],
    private readonly users: UserService,
    private readonly send: SendMessage,
    private readonly secretFor: SecretLookup,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {
    this.byName = new Map(integrations.map((i) => [i.name, i]));
  }

  list(): Integration[] {
    return [...this.byName.values()];
  }

  get(name: string): Integration | undefined {
    return this.byName.get(name);
  }

  private async authenticate(integration: Integration, req: IncomingWebhookRequest): Promise<User> {
    const key = req.params["api_key"];
    if (key !== undefined) return this.users.authenticateApiKey(key);
    if (integration.allowBasicAuth === true && req.basicAuth !== undefined) {
      const [email, apiKey] = req.basicAuth;
      try {
        const user = await this.users.authenticateApiKey(apiKey);
        if (user.email.toLowerCase() !== email.toLowerCase()) throw new UnauthorizedError("Invalid API key");
        return user;
      } catch (err) {
        if (err instanceof UnauthorizedError) throw err;
        throw new UnauthorizedError(err instanceof JsonableError ? err.message : "Invalid API key");
      }
    }
    throw new RequestVariableMissingError("api_key");
  }

  private async notifyOwner(bot: User, kind: string, content: string, rateLimited: boolean): Promise<void> {
    if (!bot.isBot || bot.botOwnerId === null) return;
    const key = `${bot.id}:${kind}`;
    const now = this.clock.now();
    if (rateLimited && now - (this.lastNotified.get(key) ?? -Infinity) < NOTIFY_INTERVAL_MS) return;
    this.lastNotified.set(key, now);
    try {
      const notifier = await this.users.notificationBot();
      await this.send(notifier, { type: "private", to: [bot.botOwnerId], content, client: "Internal" });
    } catch (err) {
      this.logger.warn("could not notify a bot owner", { bot_id: bot.id, kind, error: err as Error });
    }
  }

  async handle(name: string, req: IncomingWebhookRequest): Promise<WebhookResult> {
    const integration = this.byName.get(name);
    if (integration === undefined) throw new NotFoundError(`Unknown integration '${name}'`);
    const bot = await this.authenticate(integration, req);

    if (integration.signature !== undefined) {
      const secret = await this.secretFor(bot, integration.name);
      if (secret !== undefined && secret !== "") {
        verifySignature(
          integration.signature,
          secret,
          req.rawBody,
          (h) => req.headers[h.toLowerCase()],
          Math.floor(this.clock.now() / 1000),
        );
      }
    }

    let stream = req.params["stream"];
    const params: Record<string, string> = { ...req.params };
    if (integration.unquoteUrlParameters === true && stream !== undefined) {
      stream = unquote(stream);
    }
    delete params["api_key"];

    let userFullName: ((email: string) => string | undefined) | undefined;
    if (integration.needsUserDirectory === true) {
      const names = new Map(
        (await this.users.allUsers())
          .filter((u) => u.isActive)
          .map((u) => [u.email.toLowerCase(), u.fullName]),
      );
      userFullName = (email) => names.get(email.toLowerCase());
    }
    let outcome: ReturnType<typeof dispatchWebhook>;
    try {
      outcome = dispatchWebhook(integration, {
        headers: req.headers,
        params,
        rawBody: req.rawBody,
        form: req.form,
        userFullName,
      });
    } catch (err) {
      if (err instanceof MissingHttpEventHeaderError) {
        await this.notifyOwner(
          bot,
          "missing-header",
          missingHeaderMessage(bot, req.path, err.header, integration),
          true,
        );
      } else if (err instanceof InvalidJsonError) {
        await this.notifyOwner(bot, "invalid-json", invalidJsonMessage(integration), true);
      }
      throw err;
    }
    if (outcome.kind !== "messages") {
      this.logger.debug("webhook event not posted", {
        integration: name,
        event: outcome.eventKey,
        outcome: outcome.kind,
      });
      return { data: { ...(integration.successData ?? {}) }, messageIds: [] };
    }

    const ids: number[] = [];
    for (const message of outcome.messages) {
      if (stream === undefined || stream === "") {
        if (bot.botOwnerId === null)
          throw new JsonableError("This API key has no owner to send a private message to; pass a stream.");
        ids.push(await this.send(bot, { type: "private", to: [bot.botOwnerId], content: message.body }));
        continue;
      }
      const to: string | number = /^\d+$/.test(stream) ? Number(stream) : stream;
      try {
        ids.push(await this.send(bot, { type: "stream", to, topic: message.topic, content: message.body }));
      } catch (err) {
        if (err instanceof StreamDoesNotExistError) {
          await this.notifyOwner(
            bot,
            `no-stream:${stream}`,
            `Your bot \`${bot.email}\` tried to send a message to channel #**${stream}**, but that channel does not exist. Click [here](#channels/new) to create it.`,
            true,
          );
          return { data: { ...(integration.successData ?? {}) }, messageIds: ids };
        }
        if (err instanceof StreamIdDoesNotExistError) {
          await this.notifyOwner(
            bot,
            `no-stream-id:${stream}`,
            `Your bot \`${bot.email}\` tried to send a message to channel ID ${stream}, but there is no channel with that ID.`,
            true,
          );
        }
        throw err;
      }
    }
    return { data: { ...(integration.successData ?? {}) }, messageIds: ids };
  }
}

function missingHeaderMessage(bot: User, path: string, header: string, integration: Integration): string {
  return (
    `Hi there!  Your bot ${bot.fullName} just sent an HTTP request to ${path} that\n` +
    `is missing the HTTP ${header} header.  Because this header is how\n` +
    `${integration.displayName} indicates the event type, this usually indicates a configuration\n` +
    "issue, where you either entered the URL for a different integration, or are running\n" +
    "an older version of the third-party service that doesn't provide that header.\n" +
    `Contact ${SUPPORT_EMAIL} if you need help debugging!`
  );
}

function invalidJsonMessage(integration: Integration): string {
  return (
    `Hi there! It looks like you tried to set up the Zulip ${integration.displayName} integration,\n` +
    "but didn't correctly configure the webhook to send data in the JSON format\n" +
    "that this integration expects!"
  );
}
