/**
 * Redaction of what the delivery log stores: no API key, secret, signature, token or password
 * ever reaches the database (or a log line).
 */

export const REDACTED = "[redacted]";

/** Names (parameters, headers, JSON keys) whose values are credentials. */
const SECRET_NAME = /api[-_]?key|apikey|secret|token|passw(or)?d|signature|authorization|cookie|hmac/i;

/**
 * SECRET_NAME for lower-case text: one pass of one regular expression over a lower-cased body is
 * the cheapest scan found (a case-insensitive expression, or one search per word, cost 2–4 times
 * as much on a 9 KB GitHub payload).
 */
const SECRET_WORD = /api[-_]?key|apikey|secret|token|passw(or)?d|signature|authorization|cookie|hmac/;

/**
 * A JSON `\u` escape of a character that can spell a credential name (an ASCII letter, `_` or
 * `-`): `"to\u006ben"` is the key `token`, which a scan of the text does not see.
 */
const ESCAPED_NAME_CHAR = /\\u00(?:[46][1-9a-f]|[57][0-9a]|5f|2d)/i;

/** Whether a text may hold a credential-named field (false: it certainly holds none). */
export function mayHoldSecrets(text: string): boolean {
  return SECRET_WORD.test(text.toLowerCase()) || (text.includes("\\u") && ESCAPED_NAME_CHAR.test(text));
}

/** Whether a parameter, header or key name holds a credential. */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/**
 * Header names that hold credentials besides SECRET_NAME's (`X-Auth`, `X-Private-Key`,
 * `X-Session`, `X-Credentials`): a dash-separated word, so `X-Author` is not one.
 */
const SECRET_HEADER_WORD = /(?:^|-)(?:auth|private|credentials?|session|key|pass)(?:-|$)/;

/**
 * Credentials recognisable by their form, whatever field or header holds them: PEM private keys,
 * GitHub, GitLab, Slack, Stripe, AWS and Google keys, Standard Webhooks secrets, JSON Web Tokens.
 * Narrow on purpose: what it replaces in a body is gone from a replay of it, so prose must not match.
 */
const CREDENTIAL_PATTERN = new RegExp(
  [
    String.raw`-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----`,
    String.raw`\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,}|glpat-[A-Za-z0-9_-]{20,})`,
    String.raw`\bxox[abeprs]-[A-Za-z0-9-]{10,}`,
    String.raw`\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,}`,
    String.raw`\bwhsec_[A-Za-z0-9+/=]{10,}`,
    String.raw`\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`,
    String.raw`\bAIza[0-9A-Za-z_-]{35}`,
    String.raw`\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`,
  ].join("|"),
  "g",
);

/** In a header's value (any header): an HTTP credential, `Bearer …` or `Basic …`. */
const HTTP_CREDENTIAL = /\b(?:bearer|basic|token)\s+[A-Za-z0-9._~+/=-]{8,}/gi;

/**
 * Credentials in a URL (`scheme://user:password@host`, the scheme a letter then letters, digits,
 * `+`, `.` or `-`, starting a word): the user information is replaced. Found from each `://` (a
 * fast search) rather than by one expression, which tries a scheme at every word of the text
 * (six times as long on a 9 KB GitHub payload).
 */
function redactUrlUserinfo(text: string): string {
  let out = "";
  let copied = 0;
  let at = text.indexOf("://");
  while (at !== -1) {
    USERINFO.lastIndex = at + 3;
    if (USERINFO.test(text) && schemeEndsAt(text, at)) {
      out += `${text.slice(copied, at + 3)}${REDACTED}@`;
      copied = USERINFO.lastIndex;
      at = text.indexOf("://", copied);
    } else {
      at = text.indexOf("://", at + 1);
    }
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** `user:password@`, at the position `lastIndex` says. */
const USERINFO = /[^\s/@:"']+:[^\s/@"']+@/y;

function isAsciiLetter(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** A character of `\w`. */
function isWordChar(c: number): boolean {
  return isAsciiLetter(c) || isDigit(c) || c === 0x5f;
}

/** A character a URL scheme may hold after its first letter: a letter, a digit, `+`, `.` or `-`. */
function isSchemeChar(c: number): boolean {
  return isAsciiLetter(c) || isDigit(c) || c === 0x2b || c === 0x2e || c === 0x2d;
}

/**
 * Whether a URL scheme ends at `end`: the letters, digits, `+`, `.` and `-` before it include a
 * letter that starts a word (the text's start, or a character that is not a letter, digit or `_`
 * before it).
 */
function schemeEndsAt(text: string, end: number): boolean {
  let start = end;
  while (start > 0 && isSchemeChar(text.charCodeAt(start - 1))) start--;
  for (let i = start; i < end; i++) {
    if (isAsciiLetter(text.charCodeAt(i)) && (i === 0 || !isWordChar(text.charCodeAt(i - 1)))) return true;
  }
  return false;
}

/** Known secrets shorter than this are not looked for in text (they would match by chance). */
const MIN_KNOWN_SECRET_LENGTH = 8;

/** The known secrets worth looking for, longest first (a secret that holds another goes first). */
export function knownSecrets(secrets: readonly (string | undefined)[]): string[] {
  const kept = secrets.filter((x): x is string => x !== undefined && x.length >= MIN_KNOWN_SECRET_LENGTH);
  return [...new Set(kept)].sort((a, b) => b.length - a.length);
}

/**
 * A text with every known secret (the bot's API key, its configured secrets) and everything that
 * looks like a credential replaced: redaction by value, whatever the field's name.
 */
export function redactValues(text: string, secrets: readonly string[], inHeader = false): string {
  let out = text;
  if (inHeader) out = out.replace(HTTP_CREDENTIAL, REDACTED);
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  CREDENTIAL_PATTERN.lastIndex = 0;
  if (CREDENTIAL_PATTERN.test(out)) out = out.replace(CREDENTIAL_PATTERN, REDACTED);
  if (out.includes("@")) out = redactUrlUserinfo(out);
  return out;
}

/** Whether `redactValues` would change a text (false: it holds no credential by value). */
export function mayHoldSecretValues(text: string, secrets: readonly string[]): boolean {
  return redactValues(text, secrets) !== text;
}

/** Headers with credentials and signatures replaced, by name and by value (names lower-case). */
export function redactHeaders(
  headers: Readonly<Record<string, string | undefined>>,
  secrets: readonly string[] = [],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const lower = name.toLowerCase();
    out[lower] =
      isSecretName(lower) || SECRET_HEADER_WORD.test(lower) ? REDACTED : redactValues(value, secrets, true);
  }
  return out;
}

/** Parameters with `api_key` dropped and other credentials replaced, by name and by value. */
export function redactParams(
  params: Readonly<Record<string, string>>,
  secrets: readonly string[] = [],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(params)) {
    if (name === "api_key") continue;
    out[name] = isSecretName(name) ? REDACTED : redactValues(value, secrets);
  }
  return out;
}

/** `api_key=…` parameters of a query string (with the `&` before them). */
const API_KEY_PARAM = /(?:^|&)api_key=[^&]*/g;

/** A path with its query string: `api_key` removed, other credentials replaced. */
export function redactUrl(pathAndQuery: string): string {
  const q = pathAndQuery.indexOf("?");
  const base = pathAndQuery.slice(0, q === -1 ? pathAndQuery.length : q).replace(/\/\/[^/@]*@/, "//");
  if (q === -1) return base;
  const search = pathAndQuery.slice(q + 1);
  // The common case: only `api_key` to drop (no parsing, the rest kept byte for byte). A `%` may
  // hide a name (`api%5Fkey`): such a query is decoded and rebuilt.
  if (!search.includes("%") && !mayHoldSecrets(search.replace(API_KEY_PARAM, ""))) {
    const kept = search.replace(API_KEY_PARAM, "").replace(/^&/, "");
    return kept === "" ? base : `${base}?${kept}`;
  }
  const query = new URLSearchParams(search);
  const kept = new URLSearchParams();
  for (const [k, v] of query) {
    if (k === "api_key") continue;
    kept.append(k, isSecretName(k) ? REDACTED : v);
  }
  const s = kept.toString();
  return s === "" ? base : `${base}?${s}`;
}

/** A JSON value with credential-named fields replaced; `found.any` tells whether one was. */
function redactJsonValue(value: unknown, found: { any: boolean }): unknown {
  if (Array.isArray(value)) return value.map((v) => redactJsonValue(v, found));
  if (typeof value === "object" && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (isSecretName(k) && (typeof v === "string" || typeof v === "number")) {
        found.any = true;
        out[k] = REDACTED;
      } else {
        out[k] = redactJsonValue(v, found);
      }
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
      const found = { any: false };
      const redacted = redactJsonValue(JSON.parse(body) as unknown, found);
      // Keep the sender's bytes when nothing was secret (replays then see the same text).
      return found.any ? JSON.stringify(redacted) : body;
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
