import { WebhookError } from "../../src/errors.js";
import { dispatchWebhook as dispatchStages } from "../../src/domain/webhooks/stages.js";
import type { DispatchOutcome, WebhookRequest } from "../../src/domain/webhooks/stages.js";
import type { AnyIntegration } from "./define-integration.js";
import { dispatchLegacyWebhook } from "./legacy-dispatch.js";
import type { LegacyDispatchOutcome } from "./legacy-dispatch.js";
import type { LegacyIntegration } from "./legacy.js";

/** An integration of either definition shape (the legacy one goes away with issue 12). */
export type TestedIntegration = AnyIntegration | LegacyIntegration;
/** What the registry holds while both shapes exist. */
export type RegisteredIntegration = TestedIntegration;

export function isLegacy(i: TestedIntegration): i is LegacyIntegration {
  return "handlers" in i;
}

/**
 * The pure pipeline (event header → body → options → classify → filter → render) for one request:
 * what the HTTP endpoint would post, without a server.
 */
export function dispatchWebhook(integration: AnyIntegration, req: WebhookRequest): DispatchOutcome;
export function dispatchWebhook(integration: LegacyIntegration, req: WebhookRequest): LegacyDispatchOutcome;
export function dispatchWebhook(
  integration: TestedIntegration,
  req: WebhookRequest,
): DispatchOutcome | LegacyDispatchOutcome;
export function dispatchWebhook(
  integration: TestedIntegration,
  req: WebhookRequest,
): DispatchOutcome | LegacyDispatchOutcome {
  return isLegacy(integration) ? dispatchLegacyWebhook(integration, req) : dispatchStages(integration, req);
}

/**
 * Either shape, with the outcome in the new form: what the server's pipeline runs while the
 * first integrations still use the legacy definition.
 */
export function dispatchAny(integration: TestedIntegration, req: WebhookRequest): DispatchOutcome {
  if (!isLegacy(integration)) return dispatchStages(integration, req);
  let outcome: LegacyDispatchOutcome;
  try {
    outcome = dispatchLegacyWebhook(integration, req);
  } catch (err) {
    if (err instanceof WebhookError && err.webhookName === "") err.webhookName = integration.displayName;
    throw err;
  }
  const reply = integration.successData === undefined ? {} : { reply: integration.successData };
  if (outcome.kind === "messages")
    return { kind: "messages", event: outcome.eventKey, messages: outcome.messages, ...reply };
  return outcome.kind === "ignored"
    ? { kind: "ignored", event: outcome.eventKey, ...reply }
    : { kind: "filtered", event: outcome.eventKey };
}
