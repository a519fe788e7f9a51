import type { EgressPolicy } from "../egress/egress-policy.js";
import { egressPost } from "../egress/egress-request.js";
import {
  FETCH_JSON_MAX_BYTES,
  FETCH_JSON_TIMEOUT_MS,
  ServiceApiError,
} from "../../../integrations/kit/service-api.js";
import type { JsonFetcher } from "../../../integrations/kit/stages.js";

/**
 * `ctx.fetchJson` of the integrations that declare `needs: ["http"]` (src/services.ts wires it):
 * a GET under the egress policy every request of the server goes through (public addresses only
 * unless `--outgoing-webhook-allow` covers the target, no redirects), the answer read up to 1 MiB
 * within 5 s. Anything but a 2xx JSON answer rejects with ServiceApiError, whose message says why.
 */
export function egressJsonFetcher(
  policy: EgressPolicy,
  limits: { timeoutMs: number; maxResponseBytes: number } = {
    timeoutMs: FETCH_JSON_TIMEOUT_MS,
    maxResponseBytes: FETCH_JSON_MAX_BYTES,
  },
): JsonFetcher {
  return async (url, headers) => {
    const outcome = await egressPost(policy, {
      url,
      method: "GET",
      headers: { accept: "application/json", "user-agent": "ChatServer-Webhooks", ...headers },
      body: "",
      ...limits,
    });
    switch (outcome.kind) {
      case "response": {
        if (outcome.status < 200 || outcome.status >= 300) {
          throw new ServiceApiError(`${url} answered HTTP ${outcome.status}`, url, outcome.status);
        }
        try {
          return JSON.parse(outcome.body.toString("utf8")) as unknown;
        } catch {
          throw new ServiceApiError(`${url} did not answer with JSON`, url, outcome.status);
        }
      }
      case "failed":
        throw new ServiceApiError(`${url}: ${outcome.reason}`, url, outcome.status);
      case "timeout":
        throw new ServiceApiError(`${url} did not answer within ${limits.timeoutMs} ms`, url);
      case "connection":
        throw new ServiceApiError(`${url} could not be reached: ${outcome.reason}`, url);
      case "exception":
        throw new ServiceApiError(`${url}: ${outcome.name}: ${outcome.message}`, url);
      case "aborted":
        throw new ServiceApiError(`${url}: the request was aborted`, url);
    }
  };
}
