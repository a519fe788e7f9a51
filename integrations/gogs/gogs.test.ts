import { describe, expect, it } from "@jest/globals";
import {
  casePayload,
  describeCases,
  describeSignature,
  dispatchPayload,
  expectError,
  expectFixture,
  onlyMessage,
} from "../kit/testing.js";
import gogs from "./index.js";

const casesDir = new URL("./fixtures/cases", import.meta.url);
const dir = new URL(".", import.meta.url);

describeCases(gogs, casesDir);

describe("gogs: events the recorded cases do not show", () => {
  it("reports a new branch", () => {
    expectFixture(gogs, dir, "create__branch", {
      topic: "try-git / my_feature",
      body: "john created [my_feature](http://localhost:3000/john/try-git/src/my_feature) branch.",
    });
  });

  it("reports a deleted branch and a deleted tag (newer Gogs versions)", () => {
    expectFixture(gogs, dir, "delete__branch", {
      topic: "test / feature",
      body: "kostekIV deleted branch `feature`.",
    });
    expectFixture(gogs, dir, "delete__tag", {
      topic: "test / v1.0",
      body: "kostekIV deleted tag `v1.0`.",
    });
  });

  it("reports a published release", () => {
    expectFixture(gogs, dir, "release__published", {
      topic: "zulip_test / v1.4 Title",
      body: "cestrell published release [Title](https://try.gogs.io/cestrell/zulip_test) for tag v1.4.",
    });
  });
});

/** Zulip's own Gogs test cases that the recorded cases do not include: Zulip's payloads and messages. */
describe("gogs: Zulip's other test cases", () => {
  const compare =
    "http://localhost:3000/john/try-git/compare/479e6b772b7fba19412457483f50b201286d0103...d8fce16c72a2ff56a5afc8a08645a6ce45491794";
  const commit =
    "* Webhook Test ([d8fce16c72a](http://localhost:3000/john/try-git/commit/d8fce16c72a2ff56a5afc8a08645a6ce45491794))";
  const onePush = {
    topic: "try-git / master",
    body: `john [pushed](${compare}) 1 commit to branch master. Commits by John (1).\n\n${commit}`,
  };
  const twoCommitters = {
    topic: "try-git / master",
    body: `john [pushed](${compare}) 2 commits to branch master. Commits by Benjamin (1) and John (1).\n\n${commit}\n${commit}`,
  };
  const thirtyCommits = {
    topic: "try-git / master",
    body:
      `john [pushed](${compare}) 30 commits to branch master. Commits by John (30).\n\n` +
      `${commit}\n`.repeat(20) +
      "[and 10 more commit(s)]",
  };

  it("reports a push", () => {
    expectFixture(gogs, dir, "push", onePush);
  });

  it("reports a push to a branch the URL selects", () => {
    expectFixture(gogs, dir, "push", onePush, { branches: "master,development" });
  });

  it("credits each committer of a push", () => {
    expectFixture(gogs, dir, "push__commits_multiple_committers", twoCommitters);
  });

  it("lists a long push to a branch the URL selects", () => {
    expectFixture(gogs, dir, "push__commits_more_than_limits", thirtyCommits, {
      branches: "master,development",
    });
  });

  it("reports an opened pull request", () => {
    expectFixture(gogs, dir, "pull_request__opened", {
      topic: "try-git / PR #1 Title Text for Pull Request",
      body: "john opened [PR #1](http://localhost:3000/john/try-git/pulls/1) from `feature` to `master`.",
    });
  });

  it("quotes a reopened issue", () => {
    expectFixture(gogs, dir, "issues__reopened", {
      topic: "test / issue #3 New test issue",
      body: "kostekIV reopened [issue #3](https://try.gogs.io/kostekIV/test/issues/3):\n\n~~~ quote\nTest\n~~~",
    });
  });

  it("quotes an edited issue", () => {
    expectFixture(gogs, dir, "issues__edited", {
      topic: "test / issue #3 New test issue",
      body: "kostekIV edited [issue #3](https://try.gogs.io/kostekIV/test/issues/3):\n\n~~~ quote\nTest edit\n~~~",
    });
  });
});

describe("gogs: behaviour", () => {
  const payload = (caseId: string): Record<string, unknown> => casePayload(casesDir, caseId);

  it("reports pushes to listed branches only", () => {
    const p = payload("test_push_multiple_committers_filtered_by_branches");
    expect(onlyMessage(dispatchPayload(gogs, "push", p, { branches: "dev, master" })).topic).toBe(
      "try-git / master",
    );
    expect(dispatchPayload(gogs, "push", p, { branches: "dev" }).kind).toBe("ignored");
  });

  it("filters with the header value in only_events", () => {
    const p = payload("test_push_multiple_committers_filtered_by_branches");
    expect(dispatchPayload(gogs, "push", p, { only_events: '["issues"]' }).kind).toBe("filtered");
    expect(dispatchPayload(gogs, "push", p, { exclude_events: '["issue*"]' }).kind).toBe("messages");
  });

  it("names the issue in the link when the URL sets a topic", () => {
    const p = payload("test_issues_closed");
    expect(onlyMessage(dispatchPayload(gogs, "issues", p, { topic: "gogs" }))).toEqual({
      topic: "gogs",
      body: "kostekIV closed [issue #3 New test issue](https://try.gogs.io/kostekIV/test/issues/3):\n\n~~~ quote\nClosed #3\n~~~",
    });
  });

  it("reports an issue without a body or assignee", () => {
    const p = payload("test_issues_opened");
    const issue = p["issue"] as Record<string, unknown>;
    issue["body"] = "";
    issue["assignee"] = null;
    expect(onlyMessage(dispatchPayload(gogs, "issues", p)).body).toBe(
      "kostekIV opened [issue #3](https://try.gogs.io/kostekIV/test/issues/3).",
    );
  });

  it("rejects events Zulip's Gogs integration does not support", () => {
    const caught = expectError(() => dispatchPayload(gogs, "fork", { repository: { name: "test" } }));
    expect(caught.toJSON()).toEqual({
      result: "error",
      msg: "The 'fork' event isn't currently supported by the Gogs webhook",
      code: "UNSUPPORTED_WEBHOOK_EVENT_TYPE",
      event_type: "fork",
      webhook_name: "Gogs",
    });
  });

  it("requires the X-Gogs-Event header", () => {
    expect(() => dispatchPayload(gogs, undefined, payload("test_issues_opened"))).toThrow(
      "Missing the HTTP event header 'X-Gogs-Event'",
    );
  });
});

// GitHub's documented example: secret "It's a Secret to Everybody", body "Hello, World!".
describeSignature(gogs, {
  title: "X-Gogs-Signature (hex HMAC-SHA256 of the body)",
  header: "x-gogs-signature",
  secret: "It's a Secret to Everybody",
  body: "Hello, World!",
  signature: "757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17",
  rejects: [undefined],
});
