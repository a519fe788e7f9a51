import { describe, expect, it } from "@jest/globals";
import { verifySignature } from "../../src/domain/webhooks/signatures.js";
import { JsonableError } from "../../src/errors.js";
import { casePayload, describeCases, dispatchPayload, onlyMessage } from "../kit/testing.js";
import reviewboard from "./index.js";

const casesDir = new URL("./fixtures/cases", import.meta.url);

describeCases(reviewboard, casesDir);

/** Runs the pipeline's verifier with Review Board's scheme over the body "Hello, World!". */
function checkSignature(header: string | undefined, secret = "It's a Secret to Everybody"): string {
  const scheme = reviewboard.signature;
  if (scheme === undefined) throw new Error("no signature scheme");
  try {
    verifySignature(
      scheme,
      secret,
      {
        rawBody: Buffer.from("Hello, World!"),
        header: (name) => (name.toLowerCase() === "x-hub-signature" ? header : undefined),
        url: "https://chat.example.com/api/v1/external/reviewboard",
      },
      1700000000,
    );
    return "ok";
  } catch (err) {
    return err instanceof JsonableError ? err.code : String(err);
  }
}

describe("reviewboard: behaviour", () => {
  it("lists two target people with Zulip's comma and leaves out a missing branch", () => {
    const p = casePayload(casesDir, "test_review_request_reopened");
    const rr = p["review_request"] as Record<string, unknown>;
    rr["target_people"] = [{ title: "drsbgarg" }, { title: "johndoe" }];
    rr["branch"] = null;
    expect(onlyMessage(dispatchPayload(reviewboard, "review_request_reopened", p))).toEqual({
      topic: "Scheduler",
      body:
        "**eeshangarg** reopened [#1: Initial commit (first iteration)](https://rbcommons.com/s/zulip/r/1/):\n\n" +
        "``` quote\n**Description**: Initial commit (first iteration)\n**Status**: pending\n" +
        "**Target people**: **drsbgarg**, and **johndoe**\n\n```",
    });
  });

  it("filters on the header value", () => {
    const p = casePayload(casesDir, "test_review_published");
    expect(dispatchPayload(reviewboard, "review_published", p, { only_events: '["reply_*"]' }).kind).toBe(
      "filtered",
    );
  });

  it("rejects other Review Board events", () => {
    expect(() => dispatchPayload(reviewboard, "review_request_deleted", {})).toThrow(JsonableError);
  });

  it("verifies X-Hub-Signature (sha1= and the hex HMAC-SHA1 of the body)", () => {
    // Secret "It's a Secret to Everybody", body "Hello, World!" (openssl dgst -sha1 -hmac).
    const sig = "sha1=01dc10d0c83e72ed246219cdd91669667fe2ca59";
    expect(checkSignature(sig)).toBe("ok");
    expect(checkSignature(sig, "another secret")).toBe("INVALID_WEBHOOK_SIGNATURE");
    expect(checkSignature(undefined)).toBe("INVALID_WEBHOOK_SIGNATURE");
  });
});
