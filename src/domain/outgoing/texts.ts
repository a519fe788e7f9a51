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

/** Why an endpoint was disabled. */
export const ENDPOINT_GONE = "it answered 410 Gone";

/** `5 days`, `3 hours`, `90 seconds`: the largest unit that divides evenly enough to read. */
export function formatDuration(ms: number): string {
  const units: [number, string][] = [
    [86_400_000, "day"],
    [3_600_000, "hour"],
    [60_000, "minute"],
    [1000, "second"],
  ];
  for (const [size, name] of units) {
    if (ms >= size) {
      const n = Math.floor(ms / size);
      return `${n} ${name}${n === 1 ? "" : "s"}`;
    }
  }
  return `${ms} ms`;
}

export function endpointFailingFor(durationMs: number, lastError: string | null): string {
  const since = `it has failed for ${formatDuration(durationMs)} without a success`;
  return lastError === null ? since : `${since} (last: ${lastError})`;
}

/** Why a job was parked without an attempt: its endpoint is disabled. */
export function endpointDisabled(reason: string): string {
  return `The endpoint is disabled: ${reason}.`;
}

/** The notice to a bot's owner when its endpoint is disabled. */
export function endpointDisabledNotice(botFullName: string, url: string, reason: string): string {
  return (
    `The outgoing webhook endpoint ${url} of your bot @_**${botFullName}** is disabled: ${reason}. ` +
    "Nothing is sent to it until you re-enable it (**Your bots → Deliveries → Re-enable endpoint**); " +
    "deliveries meanwhile are parked as dead letters, which you can replay once it works again."
  );
}

/** One dead delivery, as the owner's summary names it. */
export interface DeadSummaryItem {
  messageUrl: string;
  error: string;
}

/** How many messages the owner's summary links to at most. */
export const SUMMARY_MAX_LINKS = 20;

/** The one message a bot's owner gets for the deliveries that died within a window. */
export function deadSummaryNotice(botFullName: string, items: readonly DeadSummaryItem[]): string {
  const n = items.length;
  const counts = new Map<string, number>();
  for (const item of items) counts.set(item.error, (counts.get(item.error) ?? 0) + 1);
  const lines = [
    `Your bot @_**${botFullName}** could not deliver ${n} message${n === 1 ? "" : "s"} to its outgoing webhook; ` +
      (n === 1
        ? "it is parked as a dead letter until you replay it "
        : "they are parked as dead letters until you replay them ") +
      "(**Your bots → Deliveries → Replay all**).",
    ...[...counts].map(([error, count]) => `* ${count} × ${error}`),
  ];
  const links = items.slice(0, SUMMARY_MAX_LINKS).map((item, i) => `[${i + 1}](${item.messageUrl})`);
  const more = n > SUMMARY_MAX_LINKS ? ` and ${n - SUMMARY_MAX_LINKS} more` : "";
  lines.push(`Messages: ${links.join(", ")}${more}`);
  return lines.join("\n");
}
