/**
 * Standard Webhooks signing and verification (https://www.standardwebhooks.com, spec 1.0.0): the one
 * implementation shared by the chat server (signing outgoing webhooks, verifying the
 * `standardwebhooks` integration), the bot server and the bot kit (verifying what we send).
 *
 * A request carries `webhook-id`, `webhook-timestamp` (Unix seconds) and `webhook-signature`, a
 * space-separated list of `v1,<base64 HMAC-SHA256>` and/or `v1a,<base64 Ed25519>` signatures over
 * `{id}.{timestamp}.{body}`. Several signatures at once let a receiver accept either side of a secret
 * rotation.
 */
import crypto from "node:crypto";
import { constantTimeEqual } from "./constant-time.js";

export const WEBHOOK_ID_HEADER = "webhook-id";
export const WEBHOOK_TIMESTAMP_HEADER = "webhook-timestamp";
export const WEBHOOK_SIGNATURE_HEADER = "webhook-signature";

/** The prefix of a symmetric (HMAC-SHA256) secret. */
export const SECRET_PREFIX = "whsec_";
/** The prefixes of an Ed25519 key pair (the spec's `whsk_` secret key, `whpk_` public key). */
export const ED25519_SECRET_PREFIX = "whsk_";
export const ED25519_PUBLIC_PREFIX = "whpk_";

/** The default tolerance between a request's timestamp and the receiver's clock. */
export const DEFAULT_TOLERANCE_SECONDS = 5 * 60;

/** The three headers of a signed request. */
export type StandardWebhookHeaders = {
  "webhook-id": string;
  "webhook-timestamp": string;
  "webhook-signature": string;
};

/** Why a request failed verification (a code, so callers classify without reading messages). */
export type VerificationFailure =
  "missing_headers" | "bad_timestamp" | "stale_timestamp" | "future_timestamp" | "no_matching_signature";

export class WebhookVerificationError extends Error {
  constructor(
    readonly code: VerificationFailure,
    message: string,
  ) {
    super(message);
    this.name = "WebhookVerificationError";
  }
}

/** A new random `whsec_` secret (24 bytes, as Svix makes them). */
export function generateSecret(): string {
  return SECRET_PREFIX + crypto.randomBytes(24).toString("base64");
}

/**
 * A new Ed25519 key pair, serialised as the specification says ("standard ed25519 key pair, base64
 * encoded"): the `whsk_` secret key is the 32-byte seed followed by the 32-byte public key (the
 * common 64-byte form), the `whpk_` public key the raw 32 bytes. The secret key signs (`v1a`), the
 * public key verifies.
 */
export function generateEd25519KeyPair(): { secretKey: string; publicKey: string } {
  const { privateKey } = crypto.generateKeyPairSync("ed25519");
  const jwk = privateKey.export({ format: "jwk" });
  const seed = Buffer.from(jwk.d!, "base64url");
  const pub = Buffer.from(jwk.x!, "base64url");
  return {
    secretKey: ED25519_SECRET_PREFIX + Buffer.concat([seed, pub]).toString("base64"),
    publicKey: ED25519_PUBLIC_PREFIX + pub.toString("base64"),
  };
}

/** The `whpk_` public key of a `whsk_` secret key. */
export function ed25519PublicKeyOf(secretKey: string): string {
  const key = crypto.createPublicKey(ed25519PrivateKey(secretKey));
  const pub = Buffer.from(key.export({ format: "jwk" }).x!, "base64url");
  return ED25519_PUBLIC_PREFIX + pub.toString("base64");
}

/**
 * A `whsk_` secret key as Node's key object: 64 bytes (seed and public key), 32 (the seed alone),
 * or, as this project wrote them before, a DER PKCS#8 key.
 */
function ed25519PrivateKey(secretKey: string): crypto.KeyObject {
  const raw = Buffer.from(secretKey.slice(ED25519_SECRET_PREFIX.length), "base64");
  if (raw.length !== 64 && raw.length !== 32)
    return crypto.createPrivateKey({ key: raw, format: "der", type: "pkcs8" });
  // PKCS#8 wrapping of a raw Ed25519 seed (RFC 8410): a fixed 16-byte prefix.
  const der = Buffer.concat([Buffer.from("302e020100300506032b657004220420", "hex"), raw.subarray(0, 32)]);
  return crypto.createPrivateKey({ key: der, format: "der", type: "pkcs8" });
}

/** A `whpk_` public key as Node's key object: the raw 32 bytes, or a DER SPKI key (this project's earlier form). */
function ed25519PublicKey(publicKey: string): crypto.KeyObject {
  const raw = Buffer.from(publicKey.slice(ED25519_PUBLIC_PREFIX.length), "base64");
  if (raw.length === 32)
    return crypto.createPublicKey({
      key: { kty: "OKP", crv: "Ed25519", x: raw.toString("base64url") },
      format: "jwk",
    });
  return crypto.createPublicKey({ key: raw, format: "der", type: "spki" });
}

/** The key bytes of a `whsec_` secret (a secret without the prefix is taken as base64 too, as the reference libraries do). */
function hmacKey(secret: string): Buffer {
  const raw = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  return Buffer.from(raw, "base64");
}

function signedContent(id: string, timestamp: number | string, body: string | Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(`${id}.${timestamp}.`, "utf8"),
    Buffer.isBuffer(body) ? body : Buffer.from(body, "utf8"),
  ]);
}

/** One signature: `v1,…` for a `whsec_` secret, `v1a,…` for a `whsk_` Ed25519 secret key. */
export function signOne(secret: string, id: string, timestamp: number, body: string | Buffer): string {
  const content = signedContent(id, timestamp, body);
  if (secret.startsWith(ED25519_SECRET_PREFIX)) {
    return `v1a,${crypto.sign(null, content, ed25519PrivateKey(secret)).toString("base64")}`;
  }
  return `v1,${crypto.createHmac("sha256", hmacKey(secret)).update(content).digest("base64")}`;
}

/**
 * The three headers for a request signed with every given secret (one signature each; during a
 * rotation both the old and the new secret sign, so a receiver holding either accepts it).
 */
export function signHeaders(
  secrets: readonly string[],
  id: string,
  timestamp: number,
  body: string | Buffer,
): StandardWebhookHeaders {
  return {
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": secrets.map((s) => signOne(s, id, timestamp, body)).join(" "),
  };
}

/** Reads a header from Node's lower-cased header map (first value of a repeated header). */
function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export interface VerifyOptions {
  /** Seconds of clock difference accepted each way (default 300). */
  toleranceSeconds?: number;
  /** The receiver's clock, in ms (default Date.now()). */
  nowMs?: number;
}

/**
 * Verifies a request against any of the given secrets (`whsec_` HMAC secrets and/or `whpk_` Ed25519
 * public keys): the timestamp must be within the tolerance and one signature must match, compared in
 * constant time. Returns the secret that matched (its index), so a caller can tell an old secret's use
 * during a rotation. Throws {@link WebhookVerificationError}.
 */
export function verify(
  secrets: readonly string[],
  headers: Record<string, string | string[] | undefined>,
  body: string | Buffer,
  options: VerifyOptions = {},
): { id: string; timestamp: number; secretIndex: number } {
  const id = header(headers, WEBHOOK_ID_HEADER);
  const ts = header(headers, WEBHOOK_TIMESTAMP_HEADER);
  const sigs = header(headers, WEBHOOK_SIGNATURE_HEADER);
  if (!id || !ts || !sigs) {
    throw new WebhookVerificationError("missing_headers", "Missing Standard Webhooks headers");
  }
  if (!/^\d+$/.test(ts)) throw new WebhookVerificationError("bad_timestamp", "Invalid webhook-timestamp");
  const timestamp = Number(ts);
  const now = Math.floor((options.nowMs ?? Date.now()) / 1000);
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (timestamp < now - tolerance) {
    throw new WebhookVerificationError("stale_timestamp", "Message timestamp too old");
  }
  if (timestamp > now + tolerance) {
    throw new WebhookVerificationError("future_timestamp", "Message timestamp too new");
  }
  const content = signedContent(id, ts, body);
  const offered = sigs.split(" ").filter((s) => s.length > 0);
  for (let i = 0; i < secrets.length; i++) {
    const secret = secrets[i]!;
    if (secret.startsWith(ED25519_PUBLIC_PREFIX)) {
      let key: crypto.KeyObject;
      try {
        key = ed25519PublicKey(secret);
      } catch {
        continue; // not a public key: it verifies nothing
      }
      for (const sig of offered) {
        if (!sig.startsWith("v1a,")) continue;
        const bytes = Buffer.from(sig.slice(4), "base64");
        if (bytes.length === 64 && crypto.verify(null, content, key, bytes))
          return { id, timestamp, secretIndex: i };
      }
      continue;
    }
    const expected = crypto.createHmac("sha256", hmacKey(secret)).update(content).digest("base64");
    for (const sig of offered) {
      if (sig.startsWith("v1,") && constantTimeEqual(sig.slice(3), expected))
        return { id, timestamp, secretIndex: i };
    }
  }
  throw new WebhookVerificationError("no_matching_signature", "No matching signature found");
}
