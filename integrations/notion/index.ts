import { defineIntegration } from "../kit/index.js";

/**
 * Notion's webhooks (a workspace's integration → Webhooks): POST /api/v1/external/notion. When a
 * subscription is created, Notion sends a verification request whose token the subscriber must
 * paste back into Notion: it is posted to the stream. Notion's other events carry only ids (the
 * page's title and the author's name need calls to Notion's API) and are answered as unsupported,
 * as Zulip does.
 */
export default defineIntegration({
  name: "notion",
  displayName: "Notion",
  categories: ["productivity"],
  description: "Completes a Notion webhook subscription by posting its verification token.",
  // Notion signs every event with X-Notion-Signature: `sha256=` and the hex HMAC-SHA256 of the body,
  // keyed with the subscription's verification token (set it as the bot's `webhook_secret`).
  signature: { kind: "hmac", header: "X-Notion-Signature", algorithm: "sha256", prefix: "sha256=" },
  classify: ({ payload }) =>
    payload.opt("verification_token") === undefined ? payload.get("type").str() : "verification",
  events: {
    verification: (p) => ({
      topic: "Verification",
      body:
        "Notion webhook has been successfully configured.\n" +
        `Your verification token is: \`${p.get("verification_token").str()}\`\n` +
        "Please copy this token and paste it into your Notion webhook configuration to complete the setup.",
    }),
  },
});
