import { defineIntegration, jsonOrForm } from "../kit/index.js";
import { normalizeBody } from "../kit/message-text.js";
import { BODY_KEY, render } from "../template/index.js";
import type { WebhookContext } from "../kit/index.js";

/** The bot's templates when it has any (as the Template integration), else the payload as indented JSON. */
function post(payload: unknown, ctx: WebhookContext) {
  const config = ctx.botConfig();
  if (Object.keys(config).some((k) => k === BODY_KEY || k.startsWith(`${BODY_KEY}.`)))
    return render(payload, ctx);
  return { topic: "Webhook", body: normalizeBody("```json\n" + JSON.stringify(payload, null, 2) + "\n```") };
}

/**
 * Any Standard Webhooks sender (Svix and the services built on it, and anyone following
 * standardwebhooks.com): the signature is verified with the bot's `whsec_` secret, a repeated
 * `webhook-id` is acknowledged without posting again, and the message comes from the bot's templates
 * (as in the Template integration) or, without them, is the payload as formatted JSON.
 */
export default defineIntegration({
  name: "standardwebhooks",
  displayName: "Standard Webhooks",
  categories: ["misc"],
  description:
    "Posts the webhooks of any Standard Webhooks sender (Svix-based services and others), verified with the bot's whsec_ secret, through your templates or as formatted JSON.",
  body: jsonOrForm(),
  needs: ["botConfig"],
  signature: { kind: "standard-webhooks", header: "webhook-signature" },
  unfilteredEvents: ["default"],
  events: {
    default: (p, ctx) => post(p.value, ctx),
  },
});
