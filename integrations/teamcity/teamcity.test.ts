import { describe, expect, it } from "@jest/globals";
import { casePayload, describeCases, dispatchPayload, onlyMessage } from "../kit/testing.js";
import teamcity from "./index.js";

const casesDir = new URL("./fixtures/cases", import.meta.url);

describeCases(teamcity, casesDir);

describe("teamcity: behaviour", () => {
  const payload = (caseId: string): Record<string, unknown> => casePayload(casesDir, caseId);

  it("sends a personal build privately to the user guessed from TeamCity's names", () => {
    const p = payload("test_teamcity_personal");
    const outcome = dispatchPayload(teamcity, undefined, p);
    expect(outcome.kind).toBe("messages");
    if (outcome.kind !== "messages") return;
    expect(outcome.messages).toEqual([
      {
        topic: "",
        body: "Your personal build for Project :: Compile build 5535 - CL 123456 is broken with status Exit code 1 (new)! :thumbs_down: See [changes](http://teamcity/viewLog.html?buildTypeId=Project_Compile&buildId=19952&tab=buildChangesDiv) and [build log](http://teamcity/viewLog.html?buildTypeId=Project_Compile&buildId=19952).",
        directTo: ["David Payne", "iago"],
      },
    ]);
    // Without TeamCity's username, only the full name is tried.
    const build = p["build"] as Record<string, unknown>;
    build["teamcityProperties"] = [{ name: "env.BUILD_IS_PERSONAL", value: "true" }];
    expect(dispatchPayload(teamcity, undefined, p)).toMatchObject({
      kind: "messages",
      messages: [{ directTo: ["David Payne"] }],
    });
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

  it("answers payloads in other formats with success after telling the bot's owner", () => {
    expect(() => dispatchPayload(teamcity, undefined, { text: "Build finished" })).toThrow(
      expect.objectContaining({
        answerSuccess: true,
        notice: expect.stringContaining("set the **Payload Format** option to **Legacy Webhook (JSON)**"),
      }),
    );
  });
});

describe("teamcity: Zulip's other cases", () => {
  it("names the branch of a successful build in the topic", () => {
    const p = casePayload(casesDir, "test_teamcity_success");
    (p["build"] as Record<string, unknown>)["branchDisplayName"] = "MyBranch";
    expect(onlyMessage(dispatchPayload(teamcity, undefined, p))).toEqual({
      topic: "Project :: Compile (MyBranch)",
      body: "Project :: Compile build 5535 - CL 123456 was successful! :thumbs_up: See [changes](http://teamcity/viewLog.html?buildTypeId=Project_Compile&buildId=19952&tab=buildChangesDiv) and [build log](http://teamcity/viewLog.html?buildTypeId=Project_Compile&buildId=19952).",
    });
  });
});
