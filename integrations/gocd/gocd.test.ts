import { describe, expect, it } from "@jest/globals";
import { casePayload, describeCases, dispatchPayload, onlyMessage } from "../kit/testing.js";
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

  it("accepts agent notifications silently", () => {
    expect(dispatchPayload(gocd, undefined, { type: "agent", data: { agent_state: "Idle" } }).kind).toBe(
      "ignored",
    );
  });
});
