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

describe("azuredevops: Zulip's other fixtures", () => {
  const dir = new URL(".", import.meta.url);
  const compare =
    "https://dev.azure.com/ttchong/test-zulip/_git/test-zulip/branchCompare?baseVersion=GC51515957669f93c543df09f8f3e7f47c3613c879&targetVersion=GCb0ce2f2009c3c87dbefadf61d7eb2c0697a6f369&_a=files";

  it("reports a new branch pushed without commits", () => {
    expectFixture(azuredevops, dir, "git.push__local_branch_without_commits", {
      topic: "test-zulip / dev",
      body: "Yuro Itaki [pushed](https://dev.azure.com/ttchong/test-zulip/_git/test-zulip/branchCompare?baseVersion=GC0000000000000000000000000000000000000000&targetVersion=GC0929a3404b39f6e39076a640779b2c1c961e19b5&_a=files) the branch dev.",
    });
  });

  it("quotes Azure's detailed message of an updated pull request", () => {
    expectFixture(azuredevops, dir, "git.pullrequest.updated__2nd_pr", {
      topic: "test-zulip / PR #2 Raised 2nd PR!",
      body:
        "Yuro Itaki updated [PR #2 Raised 2nd PR!](https://dev.azure.com/ttchong/test-zulip/_git/test-zulip/pullrequest/2)\n\n" +
        "~~~ quote\nYuro Itaki updated the source branch of [pull request 2](https://dev.azure.com/ttchong/test-zulip/_git/test-zulip/pullrequest/2) (Raised 2nd PR!) in [test-zulip](https://dev.azure.com/ttchong/test-zulip/_git/test-zulip/)\r\nRaised 2nd PR!\r\n\n~~~",
    });
  });

  it("lists 20 of 50 pushed commits and counts the rest", () => {
    const p = casePayload(casesDir, "test_push_event_message");
    const resource = p["resource"] as Record<string, unknown>;
    const commits = resource["commits"] as unknown[];
    resource["commits"] = Array.from({ length: 50 }, () => commits[0]);
    const line =
      "* Modify readme ([b0ce2f2009c](https://dev.azure.com/ttchong/test-zulip/_git/test-zulip/commit/b0ce2f2009c3c87dbefadf61d7eb2c0697a6f369))\n";
    expect(onlyMessage(dispatchPayload(azuredevops, undefined, p))).toEqual({
      topic: "test-zulip / main",
      body: `Yuro Itaki [pushed](${compare}) 50 commits to branch main.\n\n${line.repeat(20)}[and 30 more commit(s)]`,
    });
  });
});
