import { describe, expect, it } from "@jest/globals";
import { verifySignature } from "../../src/domain/webhooks/signatures.js";
import { JsonableError } from "../../src/errors.js";
import { casePayload, describeCases, dispatchPayload, onlyMessage } from "../kit/testing.js";
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

  it("verifies X-Sonar-Webhook-HMAC-SHA256 (hex HMAC-SHA256 of the body)", () => {
    const check = (header: string | undefined, secret = "It's a Secret to Everybody"): string => {
      const scheme = sonarqube.signature;
      if (scheme === undefined) throw new Error("no signature scheme");
      try {
        verifySignature(
          scheme,
          secret,
          {
            rawBody: Buffer.from("Hello, World!"),
            header: (name) => (name.toLowerCase() === "x-sonar-webhook-hmac-sha256" ? header : undefined),
            url: "https://chat.example.com/api/v1/external/sonarqube",
          },
          1700000000,
        );
        return "ok";
      } catch (err) {
        return err instanceof JsonableError ? err.code : String(err);
      }
    };
    // GitHub's documented example: secret "It's a Secret to Everybody", body "Hello, World!".
    const sig = "757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17";
    expect(check(sig)).toBe("ok");
    expect(check(sig, "another secret")).toBe("INVALID_WEBHOOK_SIGNATURE");
    expect(check(undefined)).toBe("INVALID_WEBHOOK_SIGNATURE");
  });
});
