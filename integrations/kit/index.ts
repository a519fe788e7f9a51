export { Wild } from "./wild.js";
export { defineIntegration, option, parse, reply } from "./define-integration.js";
export type {
  AnyIntegration,
  ClassifyInput,
  Handler,
  HandlerResult,
  HandshakeRequest,
  HandshakeResponse,
  Integration,
  IntegrationDefinition,
  LifecycleEntry,
  OptionSpec,
  Reply,
  SignatureScheme,
  SignedRequest,
  WebhookContext,
  WebhookMessage,
  WebhookNeed,
} from "./define-integration.js";
export { form, json, jsonOrForm, payloadField, text } from "./readers.js";
export type { BodyInput, BodyReader, Params } from "./readers.js";
export { isEventWanted, unquote } from "./stages.js";
export type { DispatchOutcome, JsonFetcher, WebhookRequest } from "./stages.js";
export {
  FETCH_JSON_MAX_BYTES,
  FETCH_JSON_MAX_CALLS,
  FETCH_JSON_TIMEOUT_MS,
  ServiceApiError,
} from "./service-api.js";
export { wildcardMatch } from "./wildcard.js";
export { pythonRepr, pythonStr } from "./python-json.js";
export { caseBody, caseQuery, caseRequest, loadCases, multipartFields } from "./cases.js";
export type { WebhookCase } from "./cases.js";
export { fixtureRequest, fixturesDir, integrationFolder, listFixtures } from "./fixtures.js";
export { dispatchWebhook, dispatchWebhookAsync } from "./stages.js";
export { branchesOption, isBranchNotifiable } from "./branches.js";
