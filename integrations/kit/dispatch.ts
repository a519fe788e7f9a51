import { dispatchWebhook as dispatchStages } from "../../src/domain/webhooks/stages.js";
import type { DispatchOutcome, WebhookRequest } from "../../src/domain/webhooks/stages.js";
import type { AnyIntegration } from "./define-integration.js";

/** What the registry holds (an integration of any option and event types). */
export type RegisteredIntegration = AnyIntegration;

/**
 * The pure pipeline (event header → body → options → classify → filter → render) for one request:
 * what the HTTP endpoint would post, without a server. For tests; the server runs the same stages.
 */
export function dispatchWebhook(integration: AnyIntegration, req: WebhookRequest): DispatchOutcome {
  return dispatchStages(integration, req);
}
