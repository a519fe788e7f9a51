import { defineIntegration } from "../kit/index.js";
import type { WebhookMessage, Wild } from "../kit/index.js";
import { truncateTopic } from "../kit/templates/git.js";

/** A finished sync: status, source, destination, records, bytes, duration (and the error). */
export function syncMessage(d: Wild): WebhookMessage {
  const ok = d.get("success").bool();
  const connection = d.get("connection");
  const link = (w: Wild): string => `[${w.get("name").str()}](${w.get("url").str()})`;
  let body =
    `${ok ? ":green_circle:" : ":red_circle:"} Airbyte sync **${ok ? "succeeded" : "failed"}** ` +
    `for ${link(connection)}.\n\n\n` +
    `* **Source:** ${link(d.get("source"))}\n` +
    `* **Destination:** ${link(d.get("destination"))}\n` +
    `* **Records:** ${d.get("recordsEmitted").text()} emitted, ${d.get("recordsCommitted").text()} committed\n` +
    `* **Bytes:** ${d.get("bytesEmittedFormatted").text()} emitted, ${d.get("bytesCommittedFormatted").text()} committed\n` +
    `* **Duration:** ${d.get("durationFormatted").text()}\n`;
  if (!ok) body += `\n**Error message:** ${d.opt("errorMessage")?.text() ?? ""}`;
  return {
    topic: truncateTopic(`${d.get("workspace").get("name").str()} - ${connection.get("name").str()}`),
    body: body.trimEnd(),
  };
}

/** Airbyte's test notification carries only a `text`. */
export function testMessage(p: Wild): WebhookMessage {
  return { topic: "Airbyte notification", body: p.get("text").str() };
}

/**
 * Airbyte: POST /api/v1/external/airbyte, from a workspace's webhook notifications (sync
 * succeeded / failed). Set-up test notifications carry only a text and are posted as they are.
 */
export default defineIntegration({
  name: "airbyte",
  displayName: "Airbyte",
  categories: ["deployment"],
  description: "Connection syncs succeeded and failed in Airbyte.",
  classify: ({ payload }) => (payload.opt("data") === undefined ? "test" : "sync"),
  // Zulip passes no event type for this integration: only_events / exclude_events never apply.
  unfilteredEvents: ["sync", "test"],
  events: {
    sync: (p) => syncMessage(p.get("data")),
    test: (p) => testMessage(p),
  },
});
