import { defineIntegration } from "../kit/index.js";
import type { HandshakeRequest, HandshakeResponse } from "../kit/index.js";
import { chosenMessage } from "../ifttt/index.js";

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
 * Zapier: a Zap's "Send a Stream Message" action, with the topic and content the Zap chooses: the
 * same format, checks and errors as IFTTT's (chosenMessage). Zulip passes no event type, so filters
 * never drop it.
 */
export default defineIntegration({
  name: "zapier",
  displayName: "Zapier",
  categories: ["meta-integration"],
  description:
    "Posts what a Zap sends (topic and content of your choosing); answers the Zapier app's auth check.",
  handshake: zapierHandshake,
  events: { message: (p) => chosenMessage(p) },
  unfilteredEvents: ["message"],
});
