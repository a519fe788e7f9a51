import { JsonableError } from "../../src/errors.js";
import { defineIntegration } from "../kit/index.js";
import type { HandshakeRequest, HandshakeResponse, WebhookMessage, Wild } from "../kit/index.js";
import { normalizeBody, truncateTopic } from "../kit/message-text.js";

/** A string, null/absent (undefined), or anything else: Zulip's "Malformed payload". */
function optionalString(p: Wild, key: string): string | undefined {
  const w = p.opt(key);
  if (w === undefined) return undefined;
  if (typeof w.value !== "string") throw new JsonableError("Malformed payload");
  return w.value;
}

/** The Zap's topic (`topic`, or the older `subject`) and content, with Zulip's checks and errors. */
function zapMessage(p: Wild): WebhookMessage {
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
 * Zulip's Zapier app checks the connection with `{"type": "auth"}` and labels it with the bot's
 * name and email: the answer is the success response with the bot's `full_name`, `email` and `id`.
 */
export function zapierHandshake(req: HandshakeRequest): HandshakeResponse | undefined {
  if (req.method !== "POST" || req.payload?.opt("type")?.value !== "auth") return undefined;
  return {
    status: 200,
    body: { result: "success", msg: "", full_name: req.bot.fullName, email: req.bot.email, id: req.bot.id },
  };
}

/**
 * Zapier: a Zap's "Send a Stream Message" action, with the topic and content the Zap chooses. Zulip
 * passes no event type, so filters never drop it.
 */
export default defineIntegration({
  name: "zapier",
  displayName: "Zapier",
  categories: ["meta-integration"],
  description:
    "Posts what a Zap sends (topic and content of your choosing); answers the Zapier app's auth check.",
  handshake: zapierHandshake,
  events: { message: (p) => zapMessage(p) },
  unfilteredEvents: ["message"],
});
