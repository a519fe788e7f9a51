import { describe, expect, it } from "@jest/globals";
import { JsonableError } from "../../src/errors.js";
import {
  casePayload,
  describeCases,
  describeSignature,
  dispatchPayload,
  expectFixture,
  onlyMessage,
} from "../kit/testing.js";
import reviewboard from "./index.js";

const casesDir = new URL("./fixtures/cases", import.meta.url);

describeCases(reviewboard, casesDir);

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
});

// Secret "It's a Secret to Everybody", body "Hello, World!" (openssl dgst -sha1 -hmac).
describeSignature(reviewboard, {
  title: "X-Hub-Signature (sha1= and the hex HMAC-SHA1 of the body)",
  header: "x-hub-signature",
  secret: "It's a Secret to Everybody",
  body: "Hello, World!",
  signature: "sha1=01dc10d0c83e72ed246219cdd91669667fe2ca59",
  rejects: [undefined],
});

describe("reviewboard: Zulip's other fixtures", () => {
  it("reports a published review request with one target person", () => {
    expectFixture(reviewboard, new URL(".", import.meta.url), "review_request_published__single_target", {
      topic: "Scheduler",
      body:
        "**eeshangarg** opened [#2: Initial commit](https://rbcommons.com/s/zulip/r/2/):\n\n" +
        "``` quote\n**Description**: Initial commit\n**Status**: pending\n**Target people**: **drsbgarg**\n**Branch**: master\n```",
    });
  });
});
