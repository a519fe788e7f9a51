import { describe, expect, it } from "@jest/globals";
import { verifySignature } from "../../src/domain/webhooks/signatures.js";
import { JsonableError } from "../../src/errors.js";
import { describeCases, dispatchPayload, expectFixture } from "../kit/testing.js";
import greenhouse from "./index.js";

const here = new URL(".", import.meta.url);

describeCases(greenhouse, new URL("./fixtures/cases", import.meta.url));

describe("greenhouse: beyond the recorded cases", () => {
  it("posts a stage change", () => {
    expectFixture(greenhouse, here, "candidate__stage_change", {
      topic: "Candidate Stage Change - 265788",
      body:
        "Candidate Stage Change Hector Porter (ID: 265788), applying for:\n* **Role**: Designer\n" +
        "* **Emails**: hector.porter.265788@example.com (Personal)\n" +
        "* **Attachments**: [Resume](https://prod-heroku.s3.amazonaws.com/...)",
    });
  });

  it("reads an updated candidate from the payload's candidate", () => {
    expectFixture(greenhouse, here, "candidate__updated", {
      topic: "Update Candidate - 19",
      body:
        "Update Candidate Johnny Smith (ID: 19), applying for:\n* **Role**: Developer\n" +
        "* **Emails**: personal@example.com (Personal), work@example.com (Work)\n" +
        "* **Attachments**: [Resume](https://prod-heroku.s3.amazonaws.com/resume.pdf)",
    });
  });

  it("stays silent on the ping sent when the web hook is saved", () => {
    expectFixture(greenhouse, here, "ping__web_hook_saved", null);
  });

  it("rejects actions without a candidate, named by the action", () => {
    let caught: unknown;
    try {
      dispatchPayload(greenhouse, undefined, { action: "offer_created", payload: { offer: { id: 1 } } });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(JsonableError);
    expect((caught as JsonableError).toJSON()).toMatchObject({
      code: "UNSUPPORTED_WEBHOOK_EVENT_TYPE",
      event_type: "offer_created",
    });
  });
});

describe("greenhouse: Signature", () => {
  const body = '{"action":"ping"}';
  // Hex HMAC-SHA256 with the secret key "greenhouse-secret-key", from `openssl dgst -sha256 -hmac`.
  const digest = "9e616f4ad6776c2ac97aec5327e425fe52f719d67348adb16221557e7af91dd3";
  const check = (signature: string, secret = "greenhouse-secret-key"): string => {
    const scheme = greenhouse.signature;
    if (scheme === undefined) throw new Error("no scheme");
    try {
      verifySignature(
        scheme,
        secret,
        {
          rawBody: Buffer.from(body),
          header: (n) => (n.toLowerCase() === "signature" ? signature : undefined),
          url: "https://chat.example.com/api/v1/external/greenhouse",
        },
        0,
      );
      return "ok";
    } catch (err) {
      return err instanceof JsonableError ? err.code : String(err);
    }
  };

  it("accepts `sha256 <hex>` with the web hook's secret key and rejects others", () => {
    expect(check(`sha256 ${digest}`)).toBe("ok");
    expect(check(digest)).toBe("INVALID_WEBHOOK_SIGNATURE");
    expect(check(`sha256 ${digest}`, "other")).toBe("INVALID_WEBHOOK_SIGNATURE");
  });
});
