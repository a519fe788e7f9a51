import {
  mayHoldSecretValues,
  mayHoldSecrets,
  redactBody,
  redactHeaders,
  redactParams,
  redactUrl,
  redactValues,
  truncateUtf8,
} from "../../lib/redact.js";
import type { Direction, NewDelivery, OldCredential, Outcome } from "./types.js";

/** What the webhook pipeline hands the log about one incoming request (raw; redacted later). */
export interface IncomingCapture {
  botId: number;
  createdMs: number;
  integration: string;
  event: string | undefined;
  method: string;
  /** Path and query as called. */
  url: string;
  headers: Readonly<Record<string, string | undefined>>;
  rawBody: Buffer;
  form: Readonly<Record<string, string>> | undefined;
  responseStatus: number;
  responseBody: string;
  outcome: Outcome;
  messageIds: readonly number[];
  error: string | undefined;
  replayOf: number | null;
  /** Authenticated by the bot's old API key during a rotation's overlap. */
  oldCredential?: OldCredential | null;
  /**
   * Secrets of the bot that may appear in the request (its API key, its configured secrets),
   * longest first (`knownSecrets`): replaced wherever they appear, whatever the field's name.
   */
  secrets?: readonly string[];
}

/** What the outgoing worker hands the log about one attempt. */
export interface OutgoingCapture {
  botId: number;
  createdMs: number;
  integration: string;
  event: string | undefined;
  url: string;
  headers: Readonly<Record<string, string>>;
  body: string;
  contentType: string;
  responseStatus: number | null;
  responseBody: string | null;
  outcome: Outcome;
  messageIds: readonly number[];
  attempts: number;
  error: string | undefined;
  replayOf: number | null;
  /** The request carried the old token during a rotation's overlap. */
  oldCredential?: OldCredential | null;
}

/** PostgreSQL's TEXT holds no NUL character. */
function noNul(text: string): string {
  return text.includes("\u0000") ? text.split("\u0000").join("\uFFFD") : text;
}

function cut(text: string, maxBytes: number): string {
  return noNul(truncateUtf8(text, maxBytes).text);
}

function entry(
  direction: Direction,
  c: {
    botId: number;
    createdMs: number;
    integration: string;
    event: string | undefined;
    url: string;
    responseStatus: number | null;
    responseBody: string | null;
    outcome: Outcome;
    messageIds: readonly number[];
    error: string | undefined;
    replayOf: number | null;
    oldCredential?: OldCredential | null | undefined;
  },
  request: {
    method: string;
    headers: Record<string, string>;
    /** Text to store (redacted, cut here), or raw bytes already known to need neither. */
    body: string | Buffer;
    form: Record<string, string> | null;
    attempts: number;
    /** Known secrets, replaced in the URL too. */
    secrets: readonly string[];
  },
  maxBodyBytes: number,
): NewDelivery {
  const body =
    typeof request.body === "string"
      ? truncateUtf8(noNul(request.body), maxBodyBytes)
      : { text: request.body, truncated: false };
  return {
    botId: c.botId,
    createdMs: c.createdMs,
    direction,
    integration: c.integration,
    event: c.event ?? null,
    method: request.method,
    url: redactValues(redactUrl(c.url), request.secrets),
    requestHeaders: request.headers,
    requestBody: body.text,
    requestForm: request.form,
    bodyTruncated: body.truncated,
    responseStatus: c.responseStatus,
    responseBody: c.responseBody === null ? null : cut(c.responseBody, maxBodyBytes),
    outcome: c.outcome,
    messageIds: [...c.messageIds],
    attempts: request.attempts,
    error: c.error === undefined ? null : cut(c.error, 2000),
    replayOf: c.replayOf,
    oldCredential: c.oldCredential ?? null,
  };
}

/**
 * The raw body itself when it can be stored as it is — not a form (its fields are parsed to be
 * redacted), no credential-named word and no credential by value in it, no NUL, within the size —
 * else undefined. The scan reads the bytes as Latin-1 (no UTF-8 decoding): the words and forms it
 * looks for are ASCII, and no Latin-1 character lower-cases into ASCII. A known secret with
 * non-ASCII characters is looked for in the bytes.
 */
function storableAsIs(
  raw: Buffer,
  contentType: string | undefined,
  maxBytes: number,
  secrets: readonly string[],
): Buffer | undefined {
  if (raw.length > maxBytes || raw.indexOf(0) !== -1) return undefined;
  if ((contentType ?? "").toLowerCase().includes("application/x-www-form-urlencoded")) return undefined;
  if (secrets.some((secret) => raw.includes(secret, 0, "utf8"))) return undefined;
  const text = raw.toString("latin1");
  return mayHoldSecrets(text) || mayHoldSecretValues(text, []) ? undefined : raw;
}

/** The stored form of an incoming request: redacted, bodies cut to `maxBodyBytes`. */
export function incomingEntry(c: IncomingCapture, maxBodyBytes: number): NewDelivery {
  const secrets = c.secrets ?? [];
  const headers = redactHeaders(c.headers, secrets);
  delete headers["content-length"];
  return entry(
    "incoming",
    c,
    {
      method: c.method.toUpperCase(),
      headers,
      body:
        storableAsIs(c.rawBody, c.headers["content-type"], maxBodyBytes, secrets) ??
        redactValues(redactBody(c.rawBody.toString("utf8"), c.headers["content-type"]), secrets),
      form: c.form === undefined ? null : redactParams(c.form, secrets),
      attempts: 1,
      secrets,
    },
    maxBodyBytes,
  );
}

/** The stored form of an outgoing attempt. */
export function outgoingEntry(c: OutgoingCapture, maxBodyBytes: number): NewDelivery {
  return entry(
    "outgoing",
    c,
    {
      method: "POST",
      headers: redactHeaders({ "content-type": c.contentType, ...c.headers }),
      body: redactValues(redactBody(c.body, c.contentType), []),
      form: null,
      attempts: c.attempts,
      secrets: [],
    },
    maxBodyBytes,
  );
}
