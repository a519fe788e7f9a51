import { describe, expect, it } from "@jest/globals";
import { JsonableError } from "../../src/errors.js";
import {
  casePayload,
  describeCases,
  describeSignature,
  dispatchPayload,
  expectError,
  expectFixture,
  onlyMessage,
} from "../kit/testing.js";
import bitbucket3 from "./index.js";

const casesDir = new URL("./fixtures/cases", import.meta.url);
const dir = new URL(".", import.meta.url);

describeCases(bitbucket3, casesDir);

describe("bitbucket3: events the recorded cases do not show", () => {
  it("reports a renamed repository", () => {
    expectFixture(bitbucket3, dir, "repo_modified__renamed", {
      topic: "sandbox v2",
      body: "[hypro999](http://139.59.64.214:7990/users/hypro999) changed the name of the **sandbox** repo from **sandbox** to **sandbox v2**.",
    });
  });

  it("reports an edited pull-request comment", () => {
    expectFixture(bitbucket3, dir, "pr_comment_edited__text", {
      topic: "sandbox / PR #6 sample_file: Add sample_file.txt.",
      body:
        "[zura](http://139.59.64.214:7990/users/zura) edited their comment on [PR #6](http://139.59.64.214:7990/projects/SBOX/repos/sandbox/pull-requests/6):\n\n" +
        "~~~ quote\nThis seems like a pretty good idea, with one change.\n~~~",
    });
  });

  it("strikes through a deleted pull-request comment", () => {
    expectFixture(bitbucket3, dir, "pr_comment_deleted__text", {
      topic: "sandbox / PR #6 sample_file: Add sample_file.txt.",
      body:
        "[zura](http://139.59.64.214:7990/users/zura) deleted their comment on [PR #6](http://139.59.64.214:7990/projects/SBOX/repos/sandbox/pull-requests/6):\n\n" +
        "~~~ quote\n~~This seems like a pretty good idea.~~\n~~~",
    });
  });
});

describe("bitbucket3: Zulip's other cases", () => {
  const sandbox = "http://139.59.64.214:7990/projects/SBOX/repos/sandbox/pull-requests";
  const hypro = "[hypro999](http://139.59.64.214:7990/users/hypro999)";
  const zura = "[zura](http://139.59.64.214:7990/users/zura)";

  it("puts the ping under a topic the user chose", () => {
    const p = casePayload(casesDir, "test_ping");
    expect(onlyMessage(dispatchPayload(bitbucket3, "diagnostics:ping", p, { topic: "my topic" }))).toEqual({
      topic: "my topic",
      body: "Congratulations! The Bitbucket Server webhook was configured successfully!",
    });
  });

  it("quotes the description of a pull request opened without reviewers", () => {
    expectFixture(bitbucket3, dir, "pr_opened__without_reviewers", {
      topic: "sandbox / PR #1 Branch1",
      body: `${hypro} opened [PR #1](${sandbox}/1) from \`branch1\` to \`master\`:\n\n~~~ quote\n* Add file2.txt\r\n* Add file3.txt\n~~~`,
    });
  });

  it("names the title of a modified pull request under a chosen topic", () => {
    const p = casePayload(casesDir, "test_pr_modified");
    expect(onlyMessage(dispatchPayload(bitbucket3, undefined, p, { topic: "custom_topic" }))).toEqual({
      topic: "custom_topic",
      body:
        `${hypro} modified [PR #1 Branch1](${sandbox}/1) (assigned reviewers: [shimura](http://139.59.64.214:7990/users/shimura)):\n\n` +
        "~~~ quote\n* Add file2.txt\n* Add file3.txt\nBoth of these files would be important additions to the project!\n~~~",
    });
  });

  it("reports a deleted pull request under its own topic", () => {
    const p = casePayload(casesDir, "test_pr_deleted_with_include_title");
    expect(onlyMessage(dispatchPayload(bitbucket3, undefined, p))).toEqual({
      topic: "sandbox / PR #2 Add notes feature.",
      body: `${hypro} deleted [PR #2](${sandbox}/2).`,
    });
  });

  it("reports that every reviewer was removed", () => {
    const body = `${hypro} removed all reviewers from [PR #1](${sandbox}/1).`;
    expectFixture(bitbucket3, dir, "pr_reviewer_updated__remove_reviewer", {
      topic: "sandbox / PR #1 Branch1",
      body,
    });
    expectFixture(
      bitbucket3,
      dir,
      "pr_reviewer_updated__remove_reviewer",
      { topic: "custom_topic", body: `${hypro} removed all reviewers from [PR #1 Branch1](${sandbox}/1).` },
      { topic: "custom_topic" },
    );
  });

  it("quotes an edited pull-request comment", () => {
    expectFixture(bitbucket3, dir, "pr_comment_edited__mention", {
      topic: "sandbox / PR #6 sample_file: Add sample_file.txt.",
      body: `${zura} edited their comment on [PR #6](${sandbox}/6):\n\n~~~ quote\nThis seems like a pretty good idea. @shimura what do you think?\n~~~`,
    });
  });

  it("strikes through a deleted pull-request comment", () => {
    expectFixture(bitbucket3, dir, "pr_comment_deleted__mention", {
      topic: "sandbox / PR #6 sample_file: Add sample_file.txt.",
      body: `${zura} deleted their comment on [PR #6](${sandbox}/6):\n\n~~~ quote\n~~This seems like a pretty good idea. @shimura what do you think?~~\n~~~`,
    });
  });
});

describe("bitbucket3: behaviour", () => {
  const payload = (caseId: string): Record<string, unknown> => casePayload(casesDir, caseId);

  it("says so when every reviewer was removed", () => {
    const p = payload("test_pull_request_reviewer_added");
    (p["pullRequest"] as Record<string, unknown>)["reviewers"] = [];
    expect(onlyMessage(dispatchPayload(bitbucket3, undefined, p))).toEqual({
      topic: "sandbox / PR #1 Branch1",
      body: "[hypro999](http://139.59.64.214:7990/users/hypro999) removed all reviewers from [PR #1](http://139.59.64.214:7990/projects/SBOX/repos/sandbox/pull-requests/1).",
    });
    expect(onlyMessage(dispatchPayload(bitbucket3, undefined, p, { topic: "t" })).body).toBe(
      "[hypro999](http://139.59.64.214:7990/users/hypro999) removed all reviewers from [PR #1 Branch1](http://139.59.64.214:7990/projects/SBOX/repos/sandbox/pull-requests/1).",
    );
  });

  it("opens a pull request without reviewers or description", () => {
    const p = payload("test_pr_opened_without_description");
    const pr = p["pullRequest"] as Record<string, unknown>;
    delete pr["description"];
    pr["reviewers"] = [];
    expect(onlyMessage(dispatchPayload(bitbucket3, undefined, p)).body).toBe(
      "[hypro999](http://139.59.64.214:7990/users/hypro999) opened [PR #2](http://139.59.64.214:7990/projects/SBOX/repos/sandbox/pull-requests/2) from `master` to `master`.",
    );
  });

  it("posts one message per changed ref", () => {
    const outcome = dispatchPayload(bitbucket3, undefined, payload("test_push_update_multiple_branches"));
    expect(outcome.kind).toBe("messages");
    if (outcome.kind !== "messages") return;
    expect(outcome.messages.map((m) => m.topic)).toEqual(["sandbox / branch1", "sandbox / master"]);
  });

  it("skips branches the branches option does not name", () => {
    const p = payload("test_push_update_single_branch");
    expect(dispatchPayload(bitbucket3, undefined, p, { branches: "develop" }).kind).toBe("ignored");
  });

  it("rejects a ref change of an unknown kind", () => {
    const p = payload("test_push_add_branch");
    const change = (p["changes"] as Record<string, unknown>[])[0] as Record<string, unknown>;
    change["type"] = "RENAME";
    expect(() => dispatchPayload(bitbucket3, undefined, p)).toThrow(JsonableError);
  });

  it("names the event from X-Event-Key when the payload has no eventKey", () => {
    expect(onlyMessage(dispatchPayload(bitbucket3, "diagnostics:ping", { test: true }))).toEqual({
      topic: "Bitbucket Server Ping",
      body: "Congratulations! The Bitbucket Server webhook was configured successfully!",
    });
    const caught = expectError(() => dispatchPayload(bitbucket3, undefined, { test: true }));
    expect(caught.toJSON()).toEqual({
      result: "error",
      msg: "Missing the HTTP event header 'X-Event-Key'",
      code: "MISSING_HTTP_EVENT_HEADER",
      header: "X-Event-Key",
      webhook_name: "Bitbucket3",
    });
  });

  it("rejects an unknown event key", () => {
    const caught = expectError(() =>
      dispatchPayload(bitbucket3, undefined, { eventKey: "mirror:repo_synchronized" }),
    );
    expect(caught.toJSON()).toEqual({
      result: "error",
      msg: "The 'mirror:repo_synchronized' event isn't currently supported by the Bitbucket3 webhook",
      code: "UNSUPPORTED_WEBHOOK_EVENT_TYPE",
      event_type: "mirror:repo_synchronized",
      webhook_name: "Bitbucket3",
    });
  });

  it("filters on the event key", () => {
    const p = payload("test_pr_declined");
    expect(dispatchPayload(bitbucket3, undefined, p, { only_events: '["repo:*"]' }).kind).toBe("filtered");
    expect(dispatchPayload(bitbucket3, undefined, p, { only_events: '["pr:*"]' }).kind).toBe("messages");
  });
});

// GitHub's documented example: secret "It's a Secret to Everybody", body "Hello, World!".
describeSignature(bitbucket3, {
  title: "X-Hub-Signature (Bitbucket Server's HMAC-SHA256 of the body)",
  header: "x-hub-signature",
  secret: "It's a Secret to Everybody",
  body: "Hello, World!",
  signature: "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17",
  rejects: ["757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17", undefined],
});
