export { Wild } from "./wild.js";
export { defineIntegration, option, parse, reply } from "./define-integration.js";
export type {
  AnyIntegration,
  BodyInput,
  BodyReader,
  ClassifyInput,
  Handler,
  HandlerResult,
  HandshakeRequest,
  HandshakeResponse,
  Integration,
  IntegrationDefinition,
  OptionSpec,
  Params,
  Reply,
  SignatureScheme,
  SignedRequest,
  WebhookContext,
  WebhookMessage,
} from "./define-integration.js";
export { form, json, jsonOrForm, payloadField, text } from "./readers.js";
export { isEventWanted, unquote } from "../../src/domain/webhooks/stages.js";
export type { DispatchOutcome, WebhookRequest } from "../../src/domain/webhooks/stages.js";
export { wildcardMatch } from "./wildcard.js";
export { caseBody, caseQuery, caseRequest, loadCases, multipartFields } from "./cases.js";
export type { WebhookCase } from "./cases.js";
export { fixtureRequest, fixturesDir, listFixtures } from "./fixtures.js";
export { dispatchWebhook } from "./dispatch.js";
