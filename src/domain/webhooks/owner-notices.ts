import type { User } from "../users/types.js";

/**
 * The private messages the Notification Bot sends a bot's owner when a webhook is misconfigured
 * (Zulip's wording where Zulip has the notice).
 */

/** What a notice needs to know of an integration. */
interface Named {
  displayName: string;
}

const SUPPORT_EMAIL = "the server administrator";

export function missingHeaderMessage(bot: User, path: string, header: string, integration: Named): string {
  return (
    `Hi there!  Your bot ${bot.fullName} just sent an HTTP request to ${path} that\n` +
    `is missing the HTTP ${header} header.  Because this header is how\n` +
    `${integration.displayName} indicates the event type, this usually indicates a configuration\n` +
    "issue, where you either entered the URL for a different integration, or are running\n" +
    "an older version of the third-party service that doesn't provide that header.\n" +
    `Contact ${SUPPORT_EMAIL} if you need help debugging!`
  );
}

export function invalidJsonMessage(integration: Named): string {
  return (
    `Hi there! It looks like you tried to set up the Zulip ${integration.displayName} integration,\n` +
    "but didn't correctly configure the webhook to send data in the JSON format\n" +
    "that this integration expects!"
  );
}

/** Told once a minute at most per event type: the event was answered 200 and dropped. */
export function unsupportedEventMessage(bot: User, integration: Named, eventType: string): string {
  return (
    `Hi there! Your bot ${bot.fullName} just received a ${integration.displayName} event of type ` +
    `\`${eventType}\`, which the ${integration.displayName} integration does not support, so nothing ` +
    "was posted. The request was answered with HTTP 200 so that the service keeps the webhook " +
    `enabled; if you do not need this event, untick it in the webhook's settings in ${integration.displayName}.`
  );
}

/** Told once a minute at most: requests over the bot's webhook rate limit are answered 429. */
export function rateLimitedMessage(bot: User, integration: Named): string {
  return (
    `Hi there! Your bot ${bot.fullName} is receiving ${integration.displayName} webhook requests faster ` +
    "than its rate limit allows, so some were answered with HTTP 429 (too many requests) and nothing " +
    "was posted for them. The service may retry them later; see the bot's delivery log for the " +
    "rejected requests, and raise the limit with the bot's `webhook_rate_limit` setting (`N/SECONDS`) " +
    "if this traffic is expected."
  );
}
