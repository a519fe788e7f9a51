import { describe, expect, it } from "@jest/globals";
import { describeCases, dispatchPayload, expectFixture } from "../kit/testing.js";
import crashlytics from "./index.js";

describeCases(crashlytics, new URL("./fixtures/cases", import.meta.url));

describe("crashlytics: events the recorded cases lack", () => {
  it("confirms the set-up verification", () => {
    expectFixture(crashlytics, new URL(".", import.meta.url), "verification__setup", {
      topic: "Setup",
      body: "Webhook has been successfully configured.",
    });
  });

  it("names a missing issue field", () => {
    expect(() =>
      dispatchPayload(crashlytics, undefined, { event: "issue_impact_change", payload: {} }),
    ).toThrow("Missing key");
  });
});
