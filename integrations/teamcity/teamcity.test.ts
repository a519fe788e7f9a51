import { describe, expect, it } from "@jest/globals";
import { casePayload, describeCases, dispatchPayload, onlyMessage } from "../kit/testing.js";
import teamcity from "./index.js";

const casesDir = new URL("./fixtures/cases", import.meta.url);

// Zulip sends a personal build privately to the TeamCity user it guesses; integrations here
// cannot address a user yet (see doc.md), so that case is checked below as silent instead.
describeCases(teamcity, casesDir, (c) => c.case_id !== "test_teamcity_personal");

describe("teamcity: behaviour", () => {
  const payload = (caseId: string): Record<string, unknown> => casePayload(casesDir, caseId);

  it("does not post personal builds to the channel", () => {
    expect(dispatchPayload(teamcity, undefined, payload("test_teamcity_personal")).kind).toBe("ignored");
  });

  it("names the branch in the topic when TeamCity gives one", () => {
    const p = payload("test_teamcity_success");
    (p["build"] as Record<string, unknown>)["branchDisplayName"] = "main";
    expect(onlyMessage(dispatchPayload(teamcity, undefined, p)).topic).toBe("Project :: Compile (main)");
  });

  it("reports a started build", () => {
    const p = payload("test_teamcity_success");
    (p["build"] as Record<string, unknown>)["buildResult"] = "running";
    expect(onlyMessage(dispatchPayload(teamcity, undefined, p)).body).toBe(
      "Project :: Compile build 5535 - CL 123456 has started. See [changes](http://teamcity/viewLog.html?buildTypeId=Project_Compile&buildId=19952&tab=buildChangesDiv) and [build log](http://teamcity/viewLog.html?buildTypeId=Project_Compile&buildId=19952).",
    );
  });

  it("accepts payloads in other formats silently", () => {
    expect(dispatchPayload(teamcity, undefined, { text: "Build finished" }).kind).toBe("ignored");
  });
});
