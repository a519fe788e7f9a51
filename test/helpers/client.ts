/** A minimal HTTP client for API tests against a real listening server. */
import { assertZulipSchema } from "./openapi.js";

export interface Credentials {
  email: string;
  apiKey: string;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  // API tests compare whole bodies with literal objects.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON bodies of any shape
  body: any;
  text: string;
}

export type ParamValue = string | number | boolean | null | object;

/** Encodes arguments the Zulip way: strings raw, everything else JSON. */
export function encodeParams(params: Record<string, ParamValue | undefined>): URLSearchParams {
  const out = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined) continue;
    out.append(k, typeof v === "string" ? v : JSON.stringify(v));
  }
  return out;
}

export function basicAuthHeader(c: Credentials): string {
  return "Basic " + Buffer.from(`${c.email}:${c.apiKey}`).toString("base64");
}

export interface RequestOptions {
  as?: Credentials | undefined;
  params?: Record<string, ParamValue | undefined>;
  headers?: Record<string, string>;
  /** Raw body (sent as is). */
  body?: string | Buffer;
  signal?: AbortSignal;
  /**
   * Every response is checked against Zulip's OpenAPI schema of its endpoint (test/helpers/openapi.ts)
   * and a mismatch fails the request. Set only where a test deliberately provokes a nonconforming answer.
   */
  skipSchemaCheck?: boolean;
}

/** A request about to go out; a rewriter may change its URL and headers. */
export interface OutgoingRequest {
  baseUrl: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  as: Credentials | undefined;
}

let rewriter: ((req: OutgoingRequest) => Promise<void>) | undefined;

/**
 * Installs (or removes) a hook that rewrites every request before it is sent: test/web/json-parity
 * runs an API suite through `/json/*` with web sessions this way. The schema check still sees the path.
 */
export function setRequestRewriter(hook: ((req: OutgoingRequest) => Promise<void>) | undefined): void {
  rewriter = hook;
}

export async function request(
  baseUrl: string,
  method: string,
  path: string,
  opts: RequestOptions = {},
): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.as) headers["authorization"] = basicAuthHeader(opts.as);
  let url = baseUrl + path;
  let body: string | Buffer | undefined = opts.body;
  if (opts.params !== undefined) {
    const encoded = encodeParams(opts.params).toString();
    if (method === "GET" || method === "HEAD") {
      url += (url.includes("?") ? "&" : "?") + encoded;
    } else {
      body = encoded;
      headers["content-type"] ??= "application/x-www-form-urlencoded";
    }
  }
  if (rewriter !== undefined) {
    const outgoing: OutgoingRequest = { baseUrl, method, url, headers, as: opts.as };
    await rewriter(outgoing);
    url = outgoing.url;
  }
  const res = await fetch(url, {
    method,
    headers,
    ...(body !== undefined ? { body: typeof body === "string" ? body : new Uint8Array(body) } : {}),
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
  const text = await res.text();
  let parsed: unknown = undefined;
  try {
    parsed = text === "" ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  assertZulipSchema(method, path, res.status, parsed, { skipped: opts.skipSchemaCheck === true });
  return { status: res.status, headers: res.headers, body: parsed, text };
}

/**
 * One request with positional arguments, for the suites that drive several server processes
 * (test/scale, test/cluster); given up when `signal` aborts (30 s unless told). Not checked against
 * the OpenAPI schema: during an outage those suites read 503s and a load balancer's own HTML pages
 * (`body` undefined, `text` kept).
 */
export function call(
  base: string,
  method: string,
  route: string,
  as: Credentials | undefined,
  params: Record<string, string> = {},
  signal: AbortSignal = AbortSignal.timeout(30_000),
): Promise<ApiResponse> {
  return request(base, method, route, { as, params, signal, skipSchemaCheck: true });
}

/** Bound to one server: `api.get("/api/v1/users", { as: users.iago })`. */
export function apiClient(baseUrl: string) {
  return {
    get: (path: string, opts?: RequestOptions) => request(baseUrl, "GET", path, opts),
    post: (path: string, opts?: RequestOptions) => request(baseUrl, "POST", path, opts),
    patch: (path: string, opts?: RequestOptions) => request(baseUrl, "PATCH", path, opts),
    put: (path: string, opts?: RequestOptions) => request(baseUrl, "PUT", path, opts),
    delete: (path: string, opts?: RequestOptions) => request(baseUrl, "DELETE", path, opts),
    request: (method: string, path: string, opts?: RequestOptions) => request(baseUrl, method, path, opts),
  };
}

export type ApiClient = ReturnType<typeof apiClient>;
