import crypto from "node:crypto";
import { InvalidWebhookSignatureError } from "../../errors.js";
import type { SignatureScheme } from "../../../integrations/kit/index.js";

function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a, "utf8");
  const bb = Buffer.from(b, "utf8");
  if (ab.length !== bb.length) {
    crypto.timingSafeEqual(ab, ab);
    return false;
  }
  return crypto.timingSafeEqual(ab, bb);
}

/**
 * Verifies a request's signature over the exact raw body bytes, in constant time. Throws a 401
 * InvalidWebhookSignatureError that says what is wrong (never which bytes differed).
 */
export function verifySignature(
  scheme: SignatureScheme,
  secret: string,
  rawBody: Buffer,
  header: (name: string) => string | undefined,
  nowSeconds: number,
): void {
  const value = header(scheme.header);
  if (value === undefined || value === "") {
    throw new InvalidWebhookSignatureError(`Missing the signature header '${scheme.header}'`);
  }
  switch (scheme.kind) {
    case "token":
      if (!safeEqual(value, secret))
        throw new InvalidWebhookSignatureError("Webhook signature verification failed.");
      return;
    case "hmac": {
      const digest = crypto
        .createHmac(scheme.algorithm, secret)
        .update(rawBody)
        .digest(scheme.encoding ?? "hex");
      if (!safeEqual(value, (scheme.prefix ?? "") + digest)) {
        throw new InvalidWebhookSignatureError("Webhook signature verification failed.");
      }
      return;
    }
    case "timestamped-hmac": {
      const parts = new Map<string, string[]>();
      for (const item of value.split(",")) {
        const eq = item.indexOf("=");
        if (eq === -1) continue;
        const k = item.slice(0, eq).trim();
        parts.set(k, [...(parts.get(k) ?? []), item.slice(eq + 1).trim()]);
      }
      const ts = Number(parts.get("t")?.[0]);
      if (!Number.isFinite(ts)) throw new InvalidWebhookSignatureError("Webhook signature has no timestamp.");
      if (Math.abs(nowSeconds - ts) > scheme.toleranceSeconds) {
        throw new InvalidWebhookSignatureError("Webhook signature timestamp is outside the tolerance.");
      }
      const expected = crypto
        .createHmac("sha256", secret)
        .update(`${parts.get("t")?.[0] ?? ""}.`)
        .update(rawBody)
        .digest("hex");
      const ok = (parts.get("v1") ?? []).some((sig) => safeEqual(sig, expected));
      if (!ok) throw new InvalidWebhookSignatureError("Webhook signature verification failed.");
      return;
    }
  }
}
