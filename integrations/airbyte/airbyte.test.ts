import { describe, expect, it } from "@jest/globals";
import { casePayload, describeCases, dispatchPayload } from "../kit/testing.js";
import airbyte from "./index.js";

const casesDir = new URL("./fixtures/cases", import.meta.url);

describeCases(airbyte, casesDir);

describe("airbyte: behaviour", () => {
  it("ignores only_events and exclude_events, as Zulip does", () => {
    const sync = casePayload(casesDir, "test_airbyte_job_success");
    const test = casePayload(casesDir, "test_airbyte_job_hello_world_failure");
    expect(dispatchPayload(airbyte, undefined, sync, { exclude_events: '["sync"]' }).kind).toBe("messages");
    expect(dispatchPayload(airbyte, undefined, test, { exclude_events: '["sync"]' }).kind).toBe("messages");
  });

  it("needs the sync's result", () => {
    const p = casePayload(casesDir, "test_airbyte_job_success");
    delete (p["data"] as Record<string, unknown>)["success"];
    expect(() => dispatchPayload(airbyte, undefined, p)).toThrow(
      "Missing key 'data.success' in JSON payload",
    );
  });
});
