import { defineIntegration } from "../kit/index.js";
import type { Wild } from "../kit/index.js";
import { normalizeBody } from "../kit/message-text.js";

/** The message's text, or (for notes, pins, reminders, to-dos: empty text) Flock's notification line. */
function flockText(p: Wild): string {
  const text = p.opt("text")?.str() ?? "";
  return text !== "" ? text : p.get("notification").str();
}

/**
 * Flock outgoing webhooks: every message of the chosen Flock channel, in the topic "Flock
 * notifications". Zulip passes no event type, so filters never drop them.
 */
export default defineIntegration({
  name: "flock",
  displayName: "Flock",
  categories: ["communication"],
  description: "Mirrors the messages of a Flock channel (text, notes, pins, reminders, to-dos).",
  events: { message: (p) => ({ topic: "Flock notifications", body: normalizeBody(flockText(p)) }) },
  unfilteredEvents: ["message"],
});
