/** Zulip's texts for outgoing-webhook failures (zerver/lib/outgoing_webhook.py), in one place. */
import { pyBytesRepr, pyStrRepr } from "./python.js";

export const FAILURE_PREFIX = "Failure! ";
export const INVALID_JSON = "Invalid JSON in response";
export const INVALID_FORMAT = "Invalid response format";
export const BOT_UNAVAILABLE = "Bot is unavailable";
export const CONNECTION_ERROR = "A connection error occurred. Is my bot server down?";
export const SLACK_NO_DMS = "Slack outgoing webhooks don't support direct messages.";

export function timedOut(seconds: number): string {
  return `Request timed out after ${seconds} seconds.`;
}

export function thirdPartyResponded(status: number): string {
  return `Third party responded with ${status}`;
}

export function exceptionOccurred(exceptionName: string, command: string): string {
  return `An exception of type *${exceptionName}* occurred for message \`${command}\`! See the Zulip server logs for more information.`;
}

export function responseError(error: string): string {
  return `The outgoing webhook server attempted to send a message in Zulip, but that request resulted in the following error:\n> ${error}`;
}

/** What went wrong, for the owner's notice (Zulip's notify_bot_owner arguments). */
export interface OwnerNoticeDetails {
  statusCode?: number;
  /** Non-2xx: the raw bytes; bad 2xx JSON: the text. Shown as Python repr when non-empty. */
  responseContent?: Buffer | string;
  failureMessage?: string;
  exception?: { name: string; message: string };
}

/** The DM the bot sends its owner when a webhook call failed. */
export function ownerNotice(messageUrl: string, botFullName: string, d: OwnerNoticeDetails): string {
  let text = `[A message](${messageUrl}) to your bot @_**${botFullName}** triggered an outgoing webhook.`;
  if (d.exception !== undefined) {
    text += `\nWhen trying to send a request to the webhook service, an exception of type ${d.exception.name} occurred:\n\`\`\`\n${d.exception.message}\n\`\`\``;
  } else if (d.failureMessage !== undefined && d.failureMessage !== "") {
    text += `\n${d.failureMessage}`;
  } else if (d.statusCode === 407) {
    text += "\nThe URL configured for the webhook is for a private or disallowed network.";
  } else if (d.statusCode !== undefined && d.statusCode !== 0) {
    text += `\nThe webhook got a response with status code *${d.statusCode}*.`;
  }
  const content = d.responseContent;
  if (content !== undefined && content.length > 0) {
    const repr = typeof content === "string" ? pyStrRepr(content) : pyBytesRepr(content);
    text += `\nThe response contains the following payload:\n\`\`\`\n${repr}\n\`\`\``;
  }
  return text;
}
