/** The web app's calls to the server: `/json/...` with the session cookie and the CSRF token. */

/** A string field of a JSON answer, or the fallback. */
export function text(value: unknown, fallback = ""): string {
  return typeof value === "string" ? value : typeof value === "number" ? String(value) : fallback;
}

export type Params = Record<string, string | number | boolean | object | null | undefined>;

/** An error answer from the server (Zulip's error JSON). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body: Record<string, unknown>,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/** The CSRF token the server put in the readable `csrftoken` cookie. */
export function csrfToken(cookie: string = document.cookie): string {
  for (const part of cookie.split(";")) {
    const [name, value] = part.trim().split("=");
    if (name === "csrftoken" && value !== undefined) return value;
  }
  return "";
}

/** Zulip's argument encoding: strings as they are, everything else as JSON. */
export function encodeParams(params: Params): URLSearchParams {
  const out = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined) continue;
    out.append(k, typeof v === "string" ? v : JSON.stringify(v));
  }
  return out;
}

/** Called when the session is gone (401): the app goes back to the sign-in page. */
let onSignedOut: () => void = () => undefined;
export function setSignedOutHandler(handler: () => void): void {
  onSignedOut = handler;
}

async function send(
  method: string,
  path: string,
  params: Params = {},
  signal?: AbortSignal,
): Promise<Record<string, unknown>> {
  const encoded = encodeParams(params);
  let url = path;
  const init: RequestInit = { method, credentials: "same-origin", headers: {} };
  if (signal) init.signal = signal;
  if (method === "GET") {
    const qs = encoded.toString();
    if (qs !== "") url += (url.includes("?") ? "&" : "?") + qs;
  } else {
    init.body = encoded;
    init.headers = { "X-CSRFToken": csrfToken() };
  }
  const res = await fetch(url, init);
  let body: Record<string, unknown> = {};
  try {
    body = (await res.json()) as Record<string, unknown>;
  } catch {
    body = { result: "error", msg: `HTTP ${res.status}` };
  }
  if (!res.ok || body["result"] !== "success") {
    if (res.status === 401 && path.startsWith("/json/")) onSignedOut();
    throw new ApiError(res.status, text(body["code"], "BAD_REQUEST"), text(body["msg"]), body);
  }
  return body;
}

export const api = {
  get: (path: string, params?: Params, signal?: AbortSignal) => send("GET", `/json${path}`, params, signal),
  post: (path: string, params?: Params) => send("POST", `/json${path}`, params),
  patch: (path: string, params?: Params) => send("PATCH", `/json${path}`, params),
  delete: (path: string, params?: Params) => send("DELETE", `/json${path}`, params),
  /** Public endpoints outside `/json` (the integrations list). */
  getPublic: (path: string) => send("GET", path),
  /** Public form posts outside `/json` (an invitation link's account). */
  postPublic: (path: string, params: Params) => send("POST", path, params),
  /** Sign-in and sign-out (not under `/json`). */
  login: (username: string, password: string) => send("POST", "/login", { username, password }),
  logout: () => send("POST", "/logout"),
};
