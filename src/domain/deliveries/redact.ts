/**
 * Redaction of what the delivery log stores: no API key, secret, signature, token or password
 * ever reaches the database (or a log line).
 */

export const REDACTED = "[redacted]";

/** Names (parameters, headers, JSON keys) whose values are credentials. */
const SECRET_NAME = /api[-_]?key|apikey|secret|token|passw(or)?d|signature|authorization|cookie|hmac/i;

/** Words of credential names, lower-case: a body without any of them needs no parsing. */
const SECRET_WORDS = [
  "api_key",
  "apikey",
  "api-key",
  "secret",
  "token",
  "passw",
  "signature",
  "authorization",
  "cookie",
  "hmac",
];

function mayHoldSecrets(text: string): boolean {
  const lower = text.toLowerCase();
  return SECRET_WORDS.some((w) => lower.includes(w));
}

/** Whether a parameter, header or key name holds a credential. */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/** Headers with credentials and signatures replaced (names lower-case). */
export function redactHeaders(headers: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const lower = name.toLowerCase();
    out[lower] = isSecretName(lower) ? REDACTED : value;
  }
  return out;
}

/** Parameters with `api_key` dropped and other credentials replaced. */
export function redactParams(params: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(params)) {
    if (name === "api_key") continue;
    out[name] = isSecretName(name) ? REDACTED : value;
  }
  return out;
}

/** A path with its query string: `api_key` removed, other credentials replaced. */
export function redactUrl(pathAndQuery: string): string {
  const q = pathAndQuery.indexOf("?");
  const base = pathAndQuery.slice(0, q === -1 ? pathAndQuery.length : q).replace(/\/\/[^/@]*@/, "//");
  if (q === -1) return base;
  const query = new URLSearchParams(pathAndQuery.slice(q + 1));
  const kept = new URLSearchParams();
  for (const [k, v] of query) {
    if (k === "api_key") continue;
    kept.append(k, isSecretName(k) ? REDACTED : v);
  }
  const s = kept.toString();
  return s === "" ? base : `${base}?${s}`;
}

function redactJsonValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactJsonValue);
  if (typeof value === "object" && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] =
        isSecretName(k) && (typeof v === "string" || typeof v === "number") ? REDACTED : redactJsonValue(v);
    }
    return out;
  }
  return value;
}

/**
 * A request body as stored: a JSON body with credential fields replaced (Slack's `token`, an
 * outgoing webhook's `token`), an urlencoded one with its credential fields replaced; other bodies
 * as they are.
 */
export function redactBody(body: string, contentType: string | undefined): string {
  const type = (contentType ?? "").toLowerCase();
  if (type.includes("application/x-www-form-urlencoded")) {
    const params = new URLSearchParams(body);
    let changed = false;
    for (const [k] of [...params]) {
      if (k === "api_key" || isSecretName(k)) {
        changed = true;
        if (k === "api_key") params.delete(k);
        else params.set(k, REDACTED);
      }
    }
    return changed ? params.toString() : body;
  }
  const trimmed = body.trimStart();
  // Most payloads have no credential-named key: a scan of the text spares parsing them.
  if ((trimmed.startsWith("{") || trimmed.startsWith("[")) && mayHoldSecrets(body)) {
    try {
      const parsed = JSON.parse(body) as unknown;
      const redacted = redactJsonValue(parsed);
      // Keep the sender's bytes when nothing was secret (replays then see the same text).
      return JSON.stringify(redacted) === JSON.stringify(parsed) ? body : JSON.stringify(redacted);
    } catch {
      return body;
    }
  }
  return body;
}

/** A text cut to `maxBytes` of UTF-8 (never splitting a character). */
export function truncateUtf8(text: string, maxBytes: number): { text: string; truncated: boolean } {
  if (text.length <= maxBytes / 4 || Buffer.byteLength(text, "utf8") <= maxBytes) {
    return { text, truncated: false };
  }
  const cut = Buffer.from(text, "utf8")
    .subarray(0, maxBytes)
    .toString("utf8")
    .replace(/\uFFFD$/, "");
  return { text: cut, truncated: true };
}
