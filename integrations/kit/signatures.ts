import crypto from "node:crypto";
import { InvalidWebhookSignatureError } from "../../src/errors.js";
import type { AnyIntegration, SignatureScheme, SignedRequest } from "./define-integration.js";
import { constantTimeEqual } from "../../src/lib/constant-time.js";
import {
  WebhookVerificationError,
  verify as verifyStandardWebhook,
} from "../../src/lib/standard-webhooks.js";

/**
 * Signature schemes, verified over the exact raw body bytes with the one constant-time comparison
 * (src/lib/constant-time.ts). Every failure is a 401 INVALID_WEBHOOK_SIGNATURE that says what is
 * wrong, never which bytes differed.
 */

const FAILED = "Webhook signature verification failed.";

function fail(msg = FAILED): never {
  throw new InvalidWebhookSignatureError(msg);
}

function requireHeader(req: SignedRequest, name: string): string {
  const value = req.header(name);
  if (value === undefined || value === "") fail(`Missing the signature header '${name}'`);
  return value;
}

function checkTimestamp(raw: string | undefined, nowSeconds: number, toleranceSeconds: number): void {
  const ts = Number(raw);
  if (raw === undefined || raw.trim() === "" || !Number.isFinite(ts))
    fail("Webhook signature has no timestamp.");
  if (Math.abs(nowSeconds - ts) > toleranceSeconds) {
    fail("Webhook signature timestamp is outside the tolerance.");
  }
}

function hmac(algorithm: string, secret: string, ...parts: (string | Buffer)[]): Buffer {
  const h = crypto.createHmac(algorithm, secret);
  for (const p of parts) h.update(p);
  return h.digest();
}

/** `t=…,v1=…,v1=…` → map of every value of each key. */
function keyedList(value: string): Map<string, string[]> {
  const parts = new Map<string, string[]>();
  for (const item of value.split(",")) {
    const eq = item.indexOf("=");
    if (eq === -1) continue;
    const k = item.slice(0, eq).trim();
    parts.set(k, [...(parts.get(k) ?? []), item.slice(eq + 1).trim()]);
  }
  return parts;
}

function base64UrlDecode(part: string): Buffer {
  return Buffer.from(part.replace(/-/g, "+").replace(/_/g, "/"), "base64");
}

function verifyJws(token: string, secret: string, rawBody: Buffer): void {
  const parts = token.split(".");
  if (parts.length !== 3) fail("Webhook signature is not a JWS.");
  const [head = "", claims = "", sig = ""] = parts;
  let header: unknown;
  let payload: unknown;
  try {
    header = JSON.parse(base64UrlDecode(head).toString("utf8"));
    payload = JSON.parse(base64UrlDecode(claims).toString("utf8"));
  } catch {
    fail("Webhook signature is not a JWS.");
  }
  if (typeof header !== "object" || header === null || (header as { alg?: unknown }).alg !== "HS256") {
    fail("Webhook signature is not an HS256 JWS.");
  }
  const expected = hmac("sha256", secret, `${head}.${claims}`).toString("base64url");
  if (!constantTimeEqual(sig.replace(/=+$/, ""), expected)) fail();
  const bodyHash = crypto.createHash("sha256").update(rawBody).digest("hex");
  const claimed =
    typeof payload === "object" && payload !== null ? (payload as { sha256?: unknown }).sha256 : undefined;
  if (typeof claimed !== "string" || !constantTimeEqual(claimed, bodyHash)) fail();
}

type PayloadHmac = Extract<SignatureScheme, { kind: "payload-hmac" }>;

/** A signature inside the payload, over some of its fields (Dropbox Sign's `event_hash`). */
function verifyPayloadHmac(scheme: PayloadHmac, secret: string, req: SignedRequest): void {
  let fields: { signature: string | undefined; content: string } | undefined;
  try {
    const payload = req.payload?.();
    fields = payload === undefined ? undefined : scheme.read(payload);
  } catch {
    fields = undefined;
  }
  const given = fields?.signature;
  if (fields === undefined || given === undefined || given === "") {
    fail(`Missing the signature field '${scheme.field}'`);
  }
  const digest = hmac(scheme.algorithm, secret, fields.content).toString(scheme.encoding ?? "hex");
  const ok =
    (scheme.encoding ?? "hex") === "hex"
      ? constantTimeEqual(given.trim().toLowerCase(), digest)
      : constantTimeEqual(given.trim(), digest);
  if (!ok) fail();
}

/** Verifies a request against the integration's scheme and the bot's secret; throws a 401 on failure. */
export function verifySignature(
  scheme: SignatureScheme,
  secret: string,
  req: SignedRequest,
  nowSeconds: number,
): void {
  if (scheme.kind === "payload-hmac") {
    verifyPayloadHmac(scheme, secret, req);
    return;
  }
  const value = requireHeader(req, scheme.header);
  switch (scheme.kind) {
    case "token": {
      const prefix = scheme.prefix ?? "";
      if (!value.startsWith(prefix) || !constantTimeEqual(value.slice(prefix.length), secret)) fail();
      return;
    }
    case "hmac": {
      if (scheme.timestampHeader !== undefined) {
        checkTimestamp(req.header(scheme.timestampHeader), nowSeconds, scheme.toleranceSeconds ?? 300);
      }
      const content = scheme.signedContent !== undefined ? scheme.signedContent(req) : req.rawBody;
      const digest = hmac(scheme.algorithm, secret, content).toString(scheme.encoding ?? "hex");
      const prefix = scheme.prefix ?? "";
      if (!value.startsWith(prefix)) fail();
      const given = value.slice(prefix.length).trim();
      // Hex digests compare case-insensitively (some services send upper case).
      const ok =
        (scheme.encoding ?? "hex") === "hex"
          ? constantTimeEqual(given.toLowerCase(), digest)
          : constantTimeEqual(given, digest);
      if (!ok) fail();
      return;
    }
    case "timestamped-hmac": {
      const parts = keyedList(value);
      const t = parts.get("t")?.[0];
      checkTimestamp(t, nowSeconds, scheme.toleranceSeconds);
      const expected = hmac("sha256", secret, `${t ?? ""}.`, req.rawBody).toString("hex");
      let ok = false;
      for (const sig of parts.get("v1") ?? []) ok = constantTimeEqual(sig, expected) || ok;
      if (!ok) fail();
      return;
    }
    case "jws":
      verifyJws(value, secret, req.rawBody);
      return;
    case "standard-webhooks":
      try {
        verifyStandardWebhook(
          secret.split(/\s+/).filter((s) => s.length > 0),
          {
            "webhook-id": req.header("webhook-id"),
            "webhook-timestamp": req.header("webhook-timestamp"),
            "webhook-signature": value,
          },
          req.rawBody,
          { nowMs: nowSeconds * 1000 },
        );
      } catch (err) {
        if (err instanceof WebhookVerificationError)
          fail(`Webhook signature verification failed (${err.code}).`);
        throw err;
      }
      return;
  }
}

/**
 * Headers in which services send the id of a delivery, the same on every retry and redelivery of
 * it: GitHub, Gitea, Gogs, GitLab, Bitbucket Cloud, Linear, Standard Webhooks (and Svix), Shopify.
 */
export const DELIVERY_ID_HEADERS: readonly string[] = [
  "x-github-delivery",
  "x-gitea-delivery",
  "x-gogs-delivery",
  "x-gitlab-event-uuid",
  "x-request-uuid",
  "linear-delivery",
  "webhook-id",
  "svix-id",
  "x-shopify-webhook-id",
];

/** Longest delivery id kept (a longer one is not a service's id: the request is not de-duplicated). */
export const MAX_DELIVERY_ID_LENGTH = 200;

/** The delivery's id, as the integration declares it or from a well-known header; undefined if none. */
export function deliveryIdOf(integration: AnyIntegration, req: SignedRequest): string | undefined {
  let id: string | undefined;
  if (integration.deliveryId !== undefined) {
    try {
      id = integration.deliveryId(req);
    } catch {
      id = undefined; // an unreadable payload has no id; the stages answer it as they would
    }
  } else {
    for (const name of DELIVERY_ID_HEADERS) {
      id = req.header(name);
      if (id !== undefined && id.trim() !== "") break;
    }
  }
  id = id?.trim();
  return id === undefined || id === "" || id.length > MAX_DELIVERY_ID_LENGTH ? undefined : id;
}
