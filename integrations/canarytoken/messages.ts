import type { WebhookMessage, Wild } from "../kit/index.js";
import { isoToSeconds, normalizeBody } from "../kit/message-text.js";

/** canarytokens.org's `time` ("2020-06-09 14:04:39", sometimes with " (UTC)"), always UTC. */
export function tokenTime(text: string): string {
  const iso = isoToSeconds(text.replace("(UTC)", "").trim());
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/.test(iso)) return text;
  return `<time:${iso}+00:00>`;
}

/** A canarytokens.org token that was triggered: when, its memo and the link to manage it. */
export function tokenMessage(p: Wild): WebhookMessage {
  return {
    topic: "canarytoken alert",
    body: normalizeBody(
      `**:alert: Canarytoken has been triggered on ${tokenTime(p.get("time").str())}!**\n\n` +
        `${p.get("memo").str()} \n\n` +
        `[Manage this canarytoken](${p.get("manage_url").str()})`,
    ),
  };
}
