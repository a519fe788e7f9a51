import { defineIntegration } from "../kit/index.js";
import type { WebhookMessage, Wild } from "../kit/index.js";
import { truncateTopic } from "../kit/templates/git.js";

/** "The build [name](url) on branch main " followed by what happened. */
function deployMessage(p: Wild, what: string): WebhookMessage {
  const branch = p.get("branch").str();
  return {
    topic: truncateTopic(branch),
    body: `The build [${p.get("name").str()}](${p.get("url").str()}) on branch ${branch} ${what}`,
  };
}

const nowInState = (p: Wild): WebhookMessage => deployMessage(p, `is now ${p.get("state").str()}.`);

/**
 * Netlify: POST /api/v1/external/netlify, from a site's deploy notifications ("HTTP POST
 * request"). The event is the `X-Netlify-Event` header.
 */
export default defineIntegration({
  name: "netlify",
  displayName: "Netlify",
  categories: ["continuous-integration", "deployment"],
  description: "Deploys started, succeeded, failed, locked and unlocked on Netlify.",
  eventHeader: "X-Netlify-Event",
  // Netlify's "JWS secret token": X-Webhook-Signature is an HS256 JWS whose sha256 claim is the body's.
  signature: { kind: "jws", header: "X-Webhook-Signature" },
  events: {
    deploy_building: nowInState,
    deploy_created: nowInState,
    deploy_failed: (p) => deployMessage(p, p.opt("error_message")?.text() ?? "failed."),
    deploy_locked: (p) => deployMessage(p, "is now locked."),
    deploy_unlocked: (p) => deployMessage(p, "is now unlocked."),
  },
});
