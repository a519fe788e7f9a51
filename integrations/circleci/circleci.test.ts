import { describe, expect, it } from "@jest/globals";
import { dispatchWebhook } from "../kit/index.js";
import type { DispatchOutcome } from "../kit/index.js";
import { describeCases, describeSignature, expectFixture } from "../kit/testing.js";
import circleci from "./index.js";

describeCases(circleci, new URL("./fixtures/cases", import.meta.url));

function post(payload: unknown, params: Record<string, string> = {}): DispatchOutcome {
  return dispatchWebhook(circleci, {
    headers: { "content-type": "application/json" },
    params: { stream: "circleci", ...params },
    rawBody: Buffer.from(JSON.stringify(payload), "utf8"),
  });
}

const githubJob = (status: string): unknown => ({
  type: "job-completed",
  project: { name: "api" },
  job: { name: "test", status },
  pipeline: {
    number: 12,
    vcs: {
      provider_name: "github",
      origin_repository_url: "https://github.com/acme/api",
      revision: "0123456789abcdef0123456789abcdef01234567",
      commit: { subject: "Fix the bug", author: { name: "Ann" } },
      branch: "main",
    },
  },
});

describe("circleci: events the recorded cases lack", () => {
  it("answers the ping sent when the webhook is set up", () => {
    expectFixture(circleci, new URL(".", import.meta.url), "ping", {
      topic: "Test event",
      body: "Webhook 'Zulip' test event successful.",
    });
  });

  it("posts a failed GitHub job with its commit", () => {
    expect(post(githubJob("failed"))).toEqual({
      kind: "messages",
      event: "job-completed",
      messages: [
        {
          topic: "api",
          body:
            "Job `test` within Pipeline #12 has failed.\n\n" +
            "Triggered on [`0123456789a: Fix the bug`](https://github.com/acme/api/commit/0123456789abcdef0123456789abcdef01234567) on branch `main` by Ann.",
        },
      ],
    });
  });

  it("filters on the event type", () => {
    expect(post(githubJob("success"), { only_events: '["workflow-completed"]' }).kind).toBe("filtered");
  });
});

// CircleCI: "v1=" and the hex HMAC-SHA256 of the body; the expected value was computed with Python's hmac module.
describeSignature(circleci, {
  header: "circleci-signature",
  secret: "circle-secret",
  body: '{"type":"ping","id":"3888f21b-eaa7-38e3-8f3d-75a63bba8895"}',
  signature: "v1=042a6969e6b6f792a129177497578cd1cacf090e6e95edf138928f28bc569cc5",
});
