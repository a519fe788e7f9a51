import { describe, expect, it } from "@jest/globals";
import {
  describeCases,
  describeSignature,
  dispatchPayload,
  expectError,
  expectFixture,
} from "../kit/testing.js";
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
    const caught = expectError(() =>
      dispatchPayload(greenhouse, undefined, { action: "offer_created", payload: { offer: { id: 1 } } }),
    );
    expect(caught.toJSON()).toMatchObject({
      code: "UNSUPPORTED_WEBHOOK_EVENT_TYPE",
      event_type: "offer_created",
    });
  });
});

// `sha256 <hex>`: hex HMAC-SHA256 with the secret key "greenhouse-secret-key", from `openssl dgst -sha256 -hmac`.
describeSignature(greenhouse, {
  title: "Signature",
  header: "signature",
  secret: "greenhouse-secret-key",
  body: '{"action":"ping"}',
  signature: "sha256 9e616f4ad6776c2ac97aec5327e425fe52f719d67348adb16221557e7af91dd3",
  rejects: ["9e616f4ad6776c2ac97aec5327e425fe52f719d67348adb16221557e7af91dd3"],
});
