import { JsonableError } from "../../src/errors.js";
import { defineIntegration } from "../kit/index.js";
import type { WebhookMessage, Wild } from "../kit/index.js";
import { normalizeBody, truncateTopic } from "../kit/message-text.js";

/** A string, null/absent (undefined), or anything else: Zulip's "Malformed payload". */
function optionalString(p: Wild, key: string): string | undefined {
  const w = p.opt(key);
  if (w === undefined) return undefined;
  if (typeof w.value !== "string") throw new JsonableError("Malformed payload");
  return w.value;
}

/**
 * A message whose topic and content the sender chose: `topic` (or the older `subject`) and
 * `content`, as IFTTT's and Zapier's applets send them. Zulip's checks and error texts.
 */
export function chosenMessage(p: Wild): WebhookMessage {
  if (!p.isObject()) throw new JsonableError("Malformed payload");
  let topic = optionalString(p, "topic");
  const content = optionalString(p, "content");
  if (topic === undefined) {
    topic = optionalString(p, "subject");
    if (topic === undefined) throw new JsonableError("Topic can't be empty");
  }
  if (content === undefined) throw new JsonableError("Content can't be empty");
  return { topic: truncateTopic(topic), body: normalizeBody(content) };
}

/**
 * IFTTT's Webhooks service ("Make a web request"): the applet chooses the topic and the content.
 * Zulip passes no event type, so filters never drop it.
 */
export default defineIntegration({
  name: "ifttt",
  displayName: "IFTTT",
  categories: ["meta-integration"],
  description: "Posts what an IFTTT applet sends: a topic and a content of your choosing.",
  events: { message: (p) => chosenMessage(p) },
  unfilteredEvents: ["message"],
});
