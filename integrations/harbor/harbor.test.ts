import { describe, expect, it } from "@jest/globals";
import { verifySignature } from "../kit/signatures.js";
import { JsonableError } from "../../src/errors.js";
import {
  casePayload,
  describeCases,
  dispatchPayload,
  expectError,
  expectFixture,
  onlyMessage,
} from "../kit/testing.js";
import harbor from "./index.js";

const casesDir = new URL("./fixtures/cases", import.meta.url);

describeCases(harbor, casesDir);

describe("harbor: behaviour", () => {
  it("accepts the events Zulip ignores without a message", () => {
    const p = casePayload(casesDir, "test_push_image");
    for (const type of ["PULL_ARTIFACT", "DELETE_ARTIFACT", "SCANNING_FAILED", "UPLOAD_CHART"]) {
      expect(dispatchPayload(harbor, undefined, { ...p, type }).kind).toBe("ignored");
    }
  });

  it("rejects a scan report in another format", () => {
    const p = casePayload(casesDir, "test_scanning_completed");
    const resource = (
      (p["event_data"] as Record<string, unknown>)["resources"] as Record<string, unknown>[]
    )[0];
    if (resource === undefined) throw new Error("no resource");
    resource["scan_overview"] = {
      "application/vnd.scanner.adapter.vuln.report.harbor+json; version=1.0": {},
    };
    const caught = expectError(() => dispatchPayload(harbor, undefined, p));
    expect(caught.toJSON()).toMatchObject({
      code: "UNSUPPORTED_WEBHOOK_EVENT_TYPE",
      event_type: "['application/vnd.scanner.adapter.vuln.report.harbor+json; version=1.0']",
    });
  });

  it("names an untagged artifact by its digest", () => {
    const p = casePayload(casesDir, "test_scanning_completed");
    const resource = (
      (p["event_data"] as Record<string, unknown>)["resources"] as Record<string, unknown>[]
    )[0];
    if (resource === undefined) throw new Error("no resource");
    delete resource["tag"];
    expect(onlyMessage(dispatchPayload(harbor, undefined, p))).toEqual({
      topic: "test/alpine/helm",
      body:
        "Image scan completed for `test/alpine/helm@sha256:b50334049354ed01330403212605dce2f4676a4e787ed113506861d9cf3c5424`. Vulnerabilities by severity:\n\n" +
        "* High: **4**\n* Unknown: **1**",
    });
  });

  it("rejects other Harbor events", () => {
    const p = casePayload(casesDir, "test_push_image");
    expect(() => dispatchPayload(harbor, undefined, { ...p, type: "QUOTA_EXCEED" })).toThrow(JsonableError);
  });

  it("checks the webhook's Auth Header, sent as Authorization", () => {
    const check = (header: string | undefined): string => {
      const scheme = harbor.signature;
      if (scheme === undefined) throw new Error("no signature scheme");
      try {
        verifySignature(
          scheme,
          "Bearer s3cr3t",
          {
            rawBody: Buffer.from("{}"),
            header: (name) => (name.toLowerCase() === "authorization" ? header : undefined),
            url: "https://chat.example.com/api/v1/external/harbor",
          },
          1700000000,
        );
        return "ok";
      } catch (err) {
        return err instanceof JsonableError ? err.code : String(err);
      }
    };
    expect(check("Bearer s3cr3t")).toBe("ok");
    expect(check("Bearer other")).toBe("INVALID_WEBHOOK_SIGNATURE");
    expect(check(undefined)).toBe("INVALID_WEBHOOK_SIGNATURE");
  });
});

describe("harbor: Zulip's other fixtures", () => {
  const dir = new URL(".", import.meta.url);
  it("posts nothing for a deleted image", () => {
    expectFixture(harbor, dir, "DELETE_ARTIFACT__delete_image", null);
  });
  it("names an untagged scanned image by its digest", () => {
    expectFixture(harbor, dir, "SCANNING_COMPLETED__no_tag", {
      topic: "test/alpine/helm",
      body:
        "Image scan completed for `test/alpine/helm@sha256:b50334049354ed01330403212605dce2f4676a4e787ed113506861d9cf3c5424`. " +
        "Vulnerabilities by severity:\n\n* High: **4**\n* Unknown: **1**",
    });
  });
});
