import { describe, expect, it } from "@jest/globals";
import crypto from "node:crypto";
import { verifySignature } from "../../integrations/kit/signatures.js";
import { JsonableError } from "../../src/errors.js";

const body = Buffer.from('{"id":"evt_1","type":"charge.succeeded"}');
const header = (h: Record<string, string>) => (name: string) => h[name.toLowerCase()];
/** The old positional form of the call, over a request with no other parts. */
const verify = (
  scheme: Parameters<typeof verifySignature>[0],
  secret: string,
  rawBody: Buffer,
  headerOf: (name: string) => string | undefined,
  nowSeconds: number,
): void =>
  verifySignature(scheme, secret, { rawBody, header: headerOf, url: "http://chat.example/" }, nowSeconds);
const code = (fn: () => void): unknown => {
  try {
    fn();
    return "ok";
  } catch (err) {
    return err instanceof JsonableError ? [err.httpStatus, err.message] : err;
  }
};

describe("verifySignature", () => {
  it("checks a Stripe-style timestamped signature within its tolerance", () => {
    const scheme = { kind: "timestamped-hmac", header: "Stripe-Signature", toleranceSeconds: 300 } as const;
    // HMAC-SHA256("whsec_test", "1700000000." + body), computed here with node:crypto, not by the code under test:
    const sig = crypto
      .createHmac("sha256", "whsec_test")
      .update(`1700000000.${body.toString()}`)
      .digest("hex");
    const ok = header({ "stripe-signature": `t=1700000000,v1=${sig},v0=deadbeef` });
    expect(code(() => verify(scheme, "whsec_test", body, ok, 1700000100))).toBe("ok");
    expect(code(() => verify(scheme, "whsec_test", body, ok, 1700000400))).toEqual([
      401,
      "Webhook signature timestamp is outside the tolerance.",
    ]);
    expect(code(() => verify(scheme, "other", body, ok, 1700000100))).toEqual([
      401,
      "Webhook signature verification failed.",
    ]);
    expect(
      code(() => verify(scheme, "whsec_test", body, header({ "stripe-signature": "v1=abc" }), 1)),
    ).toEqual([401, "Webhook signature has no timestamp."]);
  });

  it("compares a shared token", () => {
    const scheme = { kind: "token", header: "X-Gitlab-Token" } as const;
    expect(code(() => verify(scheme, "s3", body, header({ "x-gitlab-token": "s3" }), 0))).toBe("ok");
    expect(code(() => verify(scheme, "s3", body, header({ "x-gitlab-token": "s4" }), 0))).toEqual([
      401,
      "Webhook signature verification failed.",
    ]);
  });

  it("checks a GitHub HMAC against a known digest", () => {
    // GitHub's documented example: secret "It's a Secret to Everybody", payload "Hello, World!".
    const scheme = {
      kind: "hmac",
      header: "X-Hub-Signature-256",
      algorithm: "sha256",
      prefix: "sha256=",
    } as const;
    const h = header({
      "x-hub-signature-256": "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17",
    });
    expect(code(() => verify(scheme, "It's a Secret to Everybody", Buffer.from("Hello, World!"), h, 0))).toBe(
      "ok",
    );
  });
});
