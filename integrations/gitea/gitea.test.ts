import { describe, expect, it } from "@jest/globals";
import type { DispatchOutcome } from "../kit/index.js";
import { casePayload, describeCases, dispatchPayload, expectError, onlyMessage } from "../kit/testing.js";
import gitea from "./index.js";

describeCases(gitea, new URL("./fixtures/cases", import.meta.url));

type Json = Record<string, unknown>;

/** A recorded payload, deep-copied so a test may edit it. */
const fixture = (caseId: string): Json => casePayload(new URL("./fixtures/cases", import.meta.url), caseId);

function send(event: string, payload: unknown, params: Record<string, string> = {}): DispatchOutcome {
  return dispatchPayload(gitea, event, payload, params);
}

const message = onlyMessage;

const repository = {
  name: "test",
  full_name: "kostekIV/test",
  html_url: "https://try.gitea.io/kostekIV/test",
};
const sender = { login: "kostekIV", username: "kostekIV" };

describe("gitea: behaviour the recorded cases do not show", () => {
  it("reports pushes to a listed branch", () => {
    const p = fixture("test_multiple_commits");
    expect(message(send("push", p, { branches: "d,master" })).topic).toBe("test / d");
    expect(send("push", p, { branches: "master" }).kind).toBe("ignored");
  });

  it("filters with the header value in only_events", () => {
    const p = fixture("test_multiple_commits");
    expect(send("push", p, { only_events: '["issues"]' }).kind).toBe("filtered");
    expect(send("push", p, { only_events: '["push"]' }).kind).toBe("messages");
  });

  it("reports a new branch", () => {
    const p = { ref: "feature", ref_type: "branch", repository, sender };
    expect(message(send("create", p))).toEqual({
      topic: "test / feature",
      body: "kostekIV created [feature](https://try.gitea.io/kostekIV/test/src/feature) branch.",
    });
  });

  it("reports a published release", () => {
    const p = {
      action: "published",
      release: { tag_name: "v1.4", name: "First release", author: sender },
      repository,
      sender,
    };
    expect(message(send("release", p))).toEqual({
      topic: "test / v1.4 First release",
      body: "kostekIV published release [First release](https://try.gitea.io/kostekIV/test) for tag v1.4.",
    });
  });

  it("shows the pull request's title in the body when the URL sets the topic", () => {
    const p = fixture("test_pull_request_opened");
    expect(message(send("pull_request", p, { topic: "PRs" }))).toEqual({
      topic: "PRs",
      body: "kostekIV opened [PR #4 New pr](https://try.gitea.io/kostekIV/test/pulls/4) from `test-branch` to `master`.",
    });
  });

  it("credits a commit without a username to the author's first name", () => {
    const p = fixture("test_multiple_commits");
    const commits = p["commits"] as Json[];
    p["commits"] = [{ ...commits[0], author: { name: "Jan Koscisz", email: "j@example.com", username: "" } }];
    expect(message(send("push", p)).body).toBe(
      "kostekIV [pushed](https://try.gitea.io/kostekIV/test/compare/21138d2ca0ce18f8e037696fdbe1b3f0c211f630...2ec0c971d04723523aa20f2b378f8b419b47d4ec) 1 commit to branch d. Commits by Jan (1).\n\n" +
        "* commit ([2ec0c971d04](https://try.gitea.io/kostekIV/test/commit/2ec0c971d04723523aa20f2b378f8b419b47d4ec))",
    );
  });

  it("rejects events Gitea sends that are not reported, naming the header value", () => {
    const caught = expectError(() => send("pull_request_approved", { action: "reviewed" }));
    expect(caught.toJSON()).toMatchObject({
      code: "UNSUPPORTED_WEBHOOK_EVENT_TYPE",
      event_type: "pull_request_approved",
    });
  });
});
