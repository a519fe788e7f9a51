import { describe, expect, it } from "@jest/globals";
import {
  casePayload,
  describeCases,
  dispatchPayload,
  expectError,
  expectFixture,
  onlyMessage,
} from "../kit/testing.js";
import azuredevops from "./index.js";

const casesDir = new URL("./fixtures/cases", import.meta.url);

describeCases(azuredevops, casesDir);

describe("azuredevops: events the recorded cases do not show", () => {
  it("reports an updated pull request with Azure's summary", () => {
    expectFixture(azuredevops, new URL(".", import.meta.url), "git.pullrequest.updated__source_branch", {
      topic: "test-zulip / PR #1 Add PR request",
      body:
        "Yuro Itaki updated [PR #1 Add PR request](https://dev.azure.com/ttchong/test-zulip/_git/test-zulip/pullrequest/1):\n\n" +
        "~~~ quote\nYuro Itaki updated the source branch of [pull request 1](https://dev.azure.com/ttchong/test-zulip/_git/test-zulip/pullrequest/1) (Add PR request) in [test-zulip](https://dev.azure.com/ttchong/test-zulip/_git/test-zulip/)\n~~~",
    });
  });
});

describe("azuredevops: behaviour", () => {
  it("keeps pushes to branches the option names", () => {
    const p = casePayload(casesDir, "test_push_event_message");
    expect(onlyMessage(dispatchPayload(azuredevops, undefined, p, { branches: "main,dev" })).topic).toBe(
      "test-zulip / main",
    );
  });

  it("posts a push without a commits list as a pushed branch", () => {
    const p = casePayload(casesDir, "test_push_event_message");
    delete (p["resource"] as Record<string, unknown>)["commits"];
    expect(onlyMessage(dispatchPayload(azuredevops, undefined, p)).body).toBe(
      "Yuro Itaki [pushed](https://dev.azure.com/ttchong/test-zulip/_git/test-zulip/branchCompare?baseVersion=GC51515957669f93c543df09f8f3e7f47c3613c879&targetVersion=GCb0ce2f2009c3c87dbefadf61d7eb2c0697a6f369&_a=files) the branch main.",
    );
  });

  it("ignores only_events and exclude_events, as Zulip does", () => {
    const p = casePayload(casesDir, "test_pull_request_opened");
    expect(dispatchPayload(azuredevops, undefined, p, { exclude_events: '["git.pullrequest.*"]' }).kind).toBe(
      "messages",
    );
  });

  it("rejects other Azure DevOps events", () => {
    const caught = expectError(() =>
      dispatchPayload(azuredevops, undefined, { eventType: "build.complete" }),
    );
    expect(caught.toJSON()).toMatchObject({
      code: "UNSUPPORTED_WEBHOOK_EVENT_TYPE",
      event_type: "build.complete",
    });
  });
});
