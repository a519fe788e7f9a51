import { describe, expect, it } from "@jest/globals";
import crypto from "node:crypto";
import {
  WebhookVerificationError,
  generateEd25519KeyPair,
  generateSecret,
  signHeaders,
  signOne,
  verify,
} from "../../src/lib/standard-webhooks.js";

/**
 * The specification's published test vector (standard-webhooks/standard-webhooks, and the Svix
 * libraries' tests): secret, id, timestamp and body, and the signature every implementation produces.
 */
const VECTOR = {
  secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  id: "msg_p5jXN8AQM9LWM0D4loKWxJek",
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
};

/**
 * An independent receiver, written from the specification's text (not from our helper): "the content
 * to sign is composed by concatenating the id, timestamp and payload, separated by the full-stop
 * character"; "the secret key is base64 encoded and prefixed with whsec_"; the signature header is a
 * space-delimited list of `version,signature`, where `v1` is the base64 HMAC-SHA256; verifiers should
 * reject timestamps too far from their clock.
 */
function specReceiverVerifies(
  secret: string,
  headers: Record<string, string>,
  body: string,
  nowSeconds: number,
): boolean {
  const id = headers["webhook-id"];
  const ts = headers["webhook-timestamp"];
  const sigHeader = headers["webhook-signature"];
  if (id === undefined || ts === undefined || sigHeader === undefined) return false;
  if (Math.abs(nowSeconds - Number(ts)) > 300) return false;
  const key = Buffer.from(secret.split("_")[1] ?? "", "base64");
  const mac = crypto
    .createHmac("sha256", key)
    .update(id + "." + ts + "." + body)
    .digest();
  return sigHeader.split(" ").some((entry) => {
    const [version, value] = entry.split(",");
    if (version !== "v1" || value === undefined) return false;
    const got = Buffer.from(value, "base64");
    return got.length === mac.length && crypto.timingSafeEqual(got, mac);
  });
}

describe("Standard Webhooks helper", () => {
  it("reproduces the specification's published test vector", () => {
    expect(signOne(VECTOR.secret, VECTOR.id, VECTOR.timestamp, VECTOR.body)).toBe(VECTOR.signature);
  });

  it("verifies the published vector, also among other signatures (rotation)", () => {
    const headers = {
      "webhook-id": VECTOR.id,
      "webhook-timestamp": String(VECTOR.timestamp),
      "webhook-signature": `v1,bm9wZQ== ${VECTOR.signature}`,
    };
    const nowMs = VECTOR.timestamp * 1000;
    expect(verify([VECTOR.secret], headers, VECTOR.body, { nowMs })).toEqual({
      id: VECTOR.id,
      timestamp: VECTOR.timestamp,
      secretIndex: 0,
    });
    expect(verify([generateSecret(), VECTOR.secret], headers, VECTOR.body, { nowMs }).secretIndex).toBe(1);
  });

  it("is verified by an independent receiver written from the specification", () => {
    const secret = generateSecret();
    const now = 1_800_000_000;
    const body = JSON.stringify({ data: "ünïcode", token: "t" });
    const headers = { ...signHeaders([secret], "42.7", now, body) };
    expect(specReceiverVerifies(secret, headers, body, now)).toBe(true);
    expect(specReceiverVerifies(secret, headers, body + " ", now)).toBe(false);
    expect(specReceiverVerifies(generateSecret(), headers, body, now)).toBe(false);
    expect(specReceiverVerifies(secret, headers, body, now + 301)).toBe(false);
  });

  it("signs with every secret during a rotation; a receiver with either accepts", () => {
    const [old, fresh] = [generateSecret(), generateSecret()];
    const now = 1_800_000_000;
    const headers = { ...signHeaders([fresh, old], "1.1", now, "{}") };
    expect(headers["webhook-signature"].split(" ")).toHaveLength(2);
    expect(specReceiverVerifies(old, headers, "{}", now)).toBe(true);
    expect(specReceiverVerifies(fresh, headers, "{}", now)).toBe(true);
  });

  it("refuses missing headers, stale and future timestamps, and wrong signatures, by code", () => {
    const secret = generateSecret();
    const now = 1_800_000_000;
    const headers = { ...signHeaders([secret], "1.1", now, "{}") };
    const code = (f: () => unknown): string => {
      try {
        f();
      } catch (e) {
        if (e instanceof WebhookVerificationError) return e.code;
        throw e;
      }
      return "accepted";
    };
    expect(code(() => verify([secret], {}, "{}", { nowMs: now * 1000 }))).toBe("missing_headers");
    expect(code(() => verify([secret], headers, "{}", { nowMs: (now + 301) * 1000 }))).toBe(
      "stale_timestamp",
    );
    expect(code(() => verify([secret], headers, "{}", { nowMs: (now - 301) * 1000 }))).toBe(
      "future_timestamp",
    );
    expect(code(() => verify([secret], headers, "{}", { nowMs: (now + 300) * 1000 }))).toBe("accepted");
    expect(code(() => verify([secret], headers, "{ }", { nowMs: now * 1000 }))).toBe("no_matching_signature");
    expect(
      code(() => verify([secret], { ...headers, "webhook-timestamp": "1e9" }, "{}", { nowMs: now * 1000 })),
    ).toBe("bad_timestamp");
  });

  it("signs v1a with an Ed25519 secret key, verified with the public key", () => {
    const { secretKey, publicKey } = generateEd25519KeyPair();
    const now = 1_800_000_000;
    const headers = { ...signHeaders([secretKey], "9.9", now, "{}") };
    expect(headers["webhook-signature"]).toMatch(/^v1a,/);
    expect(verify([publicKey], headers, "{}", { nowMs: now * 1000 }).secretIndex).toBe(0);
    // Independently with node:crypto's raw Ed25519 verify over the spec's signed content.
    // whpk_ is the raw 32-byte public key, base64: wrapped here in its SPKI form (RFC 8410).
    const raw = Buffer.from(publicKey.slice("whpk_".length), "base64");
    expect(raw.length).toBe(32);
    const key = crypto.createPublicKey({
      key: Buffer.concat([Buffer.from("302a300506032b6570032100", "hex"), raw]),
      format: "der",
      type: "spki",
    });
    const sig = Buffer.from(headers["webhook-signature"].slice(4), "base64");
    expect(crypto.verify(null, Buffer.from(`9.9.${now}.{}`), key, sig)).toBe(true);
  });
});
