export { Wild } from "./wild.js";
export { defineIntegration, option, parse } from "./define-integration.js";
export type {
  Handler,
  HandlerResult,
  Integration,
  IntegrationDefinition,
  OptionSpec,
  SignatureScheme,
  WebhookContext,
  WebhookMessage,
} from "./define-integration.js";
export { dispatchWebhook, isEventWanted, unquote } from "./dispatch.js";
export type { DispatchOutcome, WebhookRequest } from "./dispatch.js";
export { wildcardMatch } from "./wildcard.js";
export { caseBody, caseQuery, caseRequest, loadCases } from "./cases.js";
export type { WebhookCase } from "./cases.js";
export { fixtureRequest, fixturesDir, listFixtures } from "./fixtures.js";
