import http from "node:http";
import https from "node:https";
import type { IncomingHttpHeaders } from "node:http";
import type { EgressPolicy } from "./egress-policy.js";
import { EgressDeniedError } from "./types.js";

/** Socket errors that mean "the service is unreachable right now" (retried by the worker). */
const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EPIPE",
  "ECONNABORTED",
]);

const REDIRECTS: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** 1 MiB: the default cap on an answer's body (`--outgoing-webhook-max-response-kb`). */
export const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;

export interface EgressRequest {
  url: string;
  /** POST (the default) sends `body`; GET sends nothing (the image proxy). */
  method?: "GET" | "POST";
  headers: Record<string, string>;
  body: string;
  /** The whole exchange, body included, must end within this time. */
  timeoutMs: number;
  /** A larger answer is not read: the connection is destroyed and the attempt fails. */
  maxResponseBytes: number;
  signal?: AbortSignal | undefined;
  agents?: { http: http.Agent; https: https.Agent } | undefined;
}

/** How one outbound request ended. */
export type EgressOutcome =
  | { kind: "response"; status: number; headers: IncomingHttpHeaders; body: Buffer }
  /** Refused by the server itself: a denied target, a redirect, an answer over the size limit. */
  | { kind: "failed"; reason: string; status?: number }
  | { kind: "timeout" }
  | { kind: "connection"; reason: string }
  | { kind: "exception"; name: string; message: string }
  | { kind: "aborted" };

/**
 * POSTs `body` to a user-given URL under the egress policy: the target checked before connecting
 * and its name resolved by the policy's checked lookup, redirects never followed (a 3xx is a
 * failure and nothing is sent anywhere else), the answer read up to `maxResponseBytes` and the
 * connection destroyed past it (memory stays bounded whatever the service sends), and the whole
 * exchange limited to `timeoutMs`. Never throws for anything the remote side does.
 */
export function egressPost(policy: EgressPolicy, req: EgressRequest): Promise<EgressOutcome> {
  let target;
  try {
    target = policy.target(req.url);
  } catch (err) {
    if (err instanceof EgressDeniedError) return Promise.resolve({ kind: "failed", reason: err.message });
    throw err;
  }
  const secure = target.url.protocol === "https:";
  const { url } = target;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: EgressOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.signal?.removeEventListener("abort", onAbort);
      resolve(outcome);
      request.destroy();
    };
    const options: https.RequestOptions = {
      protocol: url.protocol,
      hostname: target.hostname,
      port: target.port,
      path: `${url.pathname}${url.search}`,
      method: req.method ?? "POST",
      headers: {
        ...req.headers,
        "accept-encoding": "identity",
        ...(req.method === "GET" ? {} : { "content-length": String(Buffer.byteLength(req.body)) }),
      },
      lookup: policy.lookupFor(target),
      ...(url.username === "" && url.password === ""
        ? {}
        : { auth: `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` }),
      ...(req.agents === undefined ? {} : { agent: secure ? req.agents.https : req.agents.http }),
    };
    const request = secure ? https.request(options) : http.request(options);
    const timer = setTimeout(() => finish({ kind: "timeout" }), req.timeoutMs);
    const onAbort = (): void => finish({ kind: "aborted" });
    if (req.signal?.aborted === true) {
      onAbort();
      return;
    }
    req.signal?.addEventListener("abort", onAbort, { once: true });
    request.on("error", (err: Error & { code?: string }) => {
      if (err instanceof EgressDeniedError) finish({ kind: "failed", reason: err.message });
      else if (err.code !== undefined && CONNECTION_CODES.has(err.code))
        finish({ kind: "connection", reason: err.message });
      else finish({ kind: "exception", name: err.name, message: err.message });
    });
    request.on("response", (res) => {
      const status = res.statusCode ?? 0;
      if (REDIRECTS.has(status)) {
        finish({
          kind: "failed",
          status,
          reason: `The service answered with a redirect (HTTP ${status}); redirects are not followed.`,
        });
        return;
      }
      const tooLarge: EgressOutcome = {
        kind: "failed",
        status,
        reason: `The service's answer was larger than ${req.maxResponseBytes} bytes (this server's limit); it was not read.`,
      };
      if (Number(res.headers["content-length"]) > req.maxResponseBytes) {
        finish(tooLarge);
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > req.maxResponseBytes) finish(tooLarge);
        else chunks.push(chunk);
      });
      res.on("end", () =>
        finish({ kind: "response", status, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on("error", (err) => finish({ kind: "connection", reason: err.message }));
      res.on("aborted", () => finish({ kind: "connection", reason: "The connection closed mid-answer" }));
    });
    if (req.method === "GET") request.end();
    else request.end(req.body);
  });
}
