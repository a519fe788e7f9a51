import { describe, expect, it } from "@jest/globals";
import { casePayload, describeCases, dispatchPayload, expectError, onlyMessage } from "../kit/testing.js";
import rhodecode from "./index.js";

const casesDir = new URL("./fixtures/cases", import.meta.url);

describeCases(rhodecode, casesDir);

describe("rhodecode: behaviour", () => {
  it("filters pushes by branch; only_events and exclude_events do not apply, as in Zulip", () => {
    const p = casePayload(casesDir, "test_push_event_message");
    expect(dispatchPayload(rhodecode, undefined, p, { branches: "dev" }).kind).toBe("ignored");
    expect(dispatchPayload(rhodecode, undefined, p, { branches: "master-old" }).kind).toBe("ignored");
    expect(dispatchPayload(rhodecode, undefined, p, { branches: "dev , master" }).kind).toBe("messages");
    expect(dispatchPayload(rhodecode, undefined, p, { only_events: '["repo-push"]' }).kind).toBe("messages");
    expect(dispatchPayload(rhodecode, undefined, p, { exclude_events: '["repo-*"]' }).kind).toBe("messages");
  });

  it("lists at most 20 commits", () => {
    const outcome = dispatchPayload(
      rhodecode,
      undefined,
      casePayload(casesDir, "test_push_commits_more_than_limit"),
    );
    expect(onlyMessage(outcome).body.endsWith("\n[and 30 more commit(s)]")).toBe(true);
  });

  it("rejects other RhodeCode events", () => {
    const caught = expectError(() =>
      dispatchPayload(rhodecode, undefined, { event: { name: "pullrequest-create" } }),
    );
    expect(caught.toJSON()).toEqual({
      result: "error",
      msg: "The 'pullrequest-create' event isn't currently supported by the RhodeCode webhook",
      code: "UNSUPPORTED_WEBHOOK_EVENT_TYPE",
      event_type: "pullrequest-create",
      webhook_name: "RhodeCode",
    });
  });
});

describe("rhodecode: Zulip's other cases", () => {
  it("reports a new branch pushed without commits", () => {
    const p = casePayload(casesDir, "test_push_event_message");
    const push = (p["event"] as Record<string, Record<string, unknown>>)["push"] as Record<string, unknown>;
    push["commits"] = [];
    push["branches"] = [
      { url: "https://code.rhodecode.com/u/yuroitaki/zulip-testing/changelog?branch=dev", name: "dev" },
    ];
    expect(onlyMessage(dispatchPayload(rhodecode, undefined, p))).toEqual({
      topic: "u/yuroitaki/zulip-testing / dev",
      body: "yuroitaki pushed the branch dev.",
    });
  });
});
