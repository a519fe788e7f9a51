import { describe, expect, it } from "@jest/globals";
import { casePayload, describeCases, dispatchPayload, expectFixture, onlyMessage } from "../kit/testing.js";
import gocd from "./index.js";

const casesDir = new URL("./fixtures/cases", import.meta.url);

describeCases(gocd, casesDir);

describe("gocd: behaviour", () => {
  it("reports a stage being built", () => {
    const p = casePayload(casesDir, "test_completed_pipeline_success");
    const stage = ((p["data"] as Record<string, unknown>)["pipeline"] as Record<string, unknown>)[
      "stage"
    ] as Record<string, unknown>;
    stage["state"] = "Building";
    stage["result"] = "Unknown";
    expect(onlyMessage(dispatchPayload(gocd, undefined, p))).toEqual({
      topic: "Pipeline / Stage",
      body:
        "**Pipeline building**: Pipeline / Stage\n" +
        "- **Commit**: [`59f3c6e4540`](https://github.com/swayam0322/Test/commit/59f3c6e4540) on branch `main`\n" +
        "- **Started**: <time:Feb 1, 2024, 1:58:13 AM>",
    });
  });

  it("leaves out the commit of a stage started by another pipeline", () => {
    const p = casePayload(casesDir, "test_completed_pipeline_fail");
    const pipeline = (p["data"] as Record<string, unknown>)["pipeline"] as Record<string, unknown>;
    pipeline["build-cause"] = [
      {
        material: { "pipeline-configuration": { "pipeline-name": "upstream" }, type: "pipeline" },
        modifications: [],
      },
    ];
    expect(onlyMessage(dispatchPayload(gocd, undefined, p)).body).toBe(
      ":red_circle: **Build failed**: pipeline-one / stage-two\n" +
        "- **Started**: <time:Aug 28, 2024, 9:30:19 PM>\n" +
        "- **Finished**: <time:Aug 28, 2024, 9:31:00 PM>\n" +
        "- **Failed**: `task-two`",
    );
  });

  it("accepts agent notifications silently", () => {
    expect(dispatchPayload(gocd, undefined, { type: "agent", data: { agent_state: "Idle" } }).kind).toBe(
      "ignored",
    );
  });
});

describe("gocd: Zulip's other cases", () => {
  it("reports a stage being built", () => {
    expectFixture(gocd, new URL(".", import.meta.url), "stage__building", {
      topic: "Pipeline / Stage",
      body:
        "**Pipeline building**: Pipeline / Stage\n" +
        "- **Commit**: [`59f3c6e4540`](https://github.com/swayam0322/Test/commit/59f3c6e4540) on branch `main`\n" +
        "- **Started**: <time:Feb 1, 2024, 1:58:13 AM>",
    });
  });
});
