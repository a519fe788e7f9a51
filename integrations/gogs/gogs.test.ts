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
      topic: "test / feature",
      body: "kostekIV created [feature](https://try.gogs.io/kostekIV/test/src/feature) branch.",
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
      topic: "test / v1.0 First release",
      body: "kostekIV published release [First release](https://try.gogs.io/kostekIV/test) for tag v1.0.",
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
