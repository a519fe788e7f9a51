import { describe, expect, it } from "@jest/globals";
import { describeCases, expectFixture } from "../kit/testing.js";
import appfollow, { convertMarkdown } from "./index.js";

describeCases(appfollow, new URL("./fixtures/cases", import.meta.url));

describe("appfollow: payloads the recorded cases lack", () => {
  it("posts the integration test", () => {
    expectFixture(appfollow, new URL(".", import.meta.url), "review__sample", {
      topic: "Webhook integration was successful.",
      body: "Webhook integration was successful.\nTest User / Acme (Google Play)",
    });
  });
});

describe("appfollow: Slack-style formatting", () => {
  it("converts bold, italics and strikethrough as Zulip does", () => {
    expect(convertMarkdown("*test message*")).toBe("**test message**");
    expect(convertMarkdown("_test message_")).toBe("*test message*");
    expect(convertMarkdown("_  spaced message _")).toBe("  *spaced message* ");
    expect(convertMarkdown("~test message~")).toBe("~~test message~~");
  });

  it("leaves asterisks inside words alone", () => {
    expect(convertMarkdown("2*3*4 stars")).toBe("2*3*4 stars");
  });
});
