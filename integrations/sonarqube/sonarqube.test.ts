import { describe, expect, it } from "@jest/globals";
import {
  casePayload,
  describeCases,
  describeSignature,
  dispatchPayload,
  onlyMessage,
} from "../kit/testing.js";
import sonarqube from "./index.js";

const casesDir = new URL("./fixtures/cases", import.meta.url);

describeCases(sonarqube, casesDir);

describe("sonarqube: behaviour", () => {
  it("reports a passed gate without a branch", () => {
    const p = casePayload(casesDir, "test_analysis_success");
    delete p["branch"];
    expect(onlyMessage(dispatchPayload(sonarqube, undefined, p))).toEqual({
      topic: "test-sonar",
      body: "Project [test-sonar](http://localhost:9000/dashboard?id=test-sonar) analysis resulted in success.",
    });
  });

  it("keeps an operator it does not know as SonarQube names it", () => {
    const p = casePayload(casesDir, "test_analysis_error_no_branch");
    (p["qualityGate"] as Record<string, unknown>)["conditions"] = [
      { metric: "new_coverage", operator: "EQUALS", value: "12", status: "ERROR", errorThreshold: "0" },
    ];
    expect(onlyMessage(dispatchPayload(sonarqube, undefined, p)).body).toBe(
      "Project [test-sonar](http://localhost:9000/dashboard?id=test-sonar) analysis resulted in error:\n" +
        "* new coverage: **error** 12 EQUALS 0.",
    );
  });
});

// GitHub's documented example: secret "It's a Secret to Everybody", body "Hello, World!".
describeSignature(sonarqube, {
  title: "X-Sonar-Webhook-HMAC-SHA256 (hex HMAC-SHA256 of the body)",
  header: "x-sonar-webhook-hmac-sha256",
  secret: "It's a Secret to Everybody",
  body: "Hello, World!",
  signature: "757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17",
  rejects: [undefined],
});
