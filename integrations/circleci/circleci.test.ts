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

describe("circleci: Zulip's other fixtures", () => {
  const dir = new URL(".", import.meta.url);

  it("answers the ping with the webhook's name", () => {
    expectFixture(circleci, dir, "ping__testing", {
      topic: "Test event",
      body: "Webhook 'Testing' test event successful.",
    });
  });

  it("reports a completed job of a GitHub pipeline", () => {
    expectFixture(circleci, dir, "job-completed__github", {
      topic: "circleci-webhook-test",
      body:
        "Job `build-and-test` within Pipeline #4 has succeeded.\n\n" +
        "Triggered on [`a5e30a90822: .circleci: Update Webhook URL.`](https://github.com/zulip-testing/circleci-webhook-test/commit/a5e30a908224e46626a796d058289475f6d387b5) on branch `main` by Hari Prashant Bhimaraju.",
    });
  });

  it("test_github_job_completed: the topic is the project's name (Zulip's newer fixture)", () => {
    expectFixture(circleci, dir, "job-completed__github_main_branch", {
      topic: "main branch - build notifications",
      body:
        "Job `build-and-test` within Pipeline #4 has succeeded.\n\n" +
        "Triggered on [`a5e30a90822: Fix remove-op on reaction event.`](https://github.com/zulip-testing/circleci-webhook-test/commit/a5e30a908224e46626a796d058289475f6d387b5) on branch `main` by Hari Prashant Bhimaraju.",
    });
  });

  it("reports a completed job of a GitLab pipeline", () => {
    expectFixture(circleci, dir, "job-completed__gitlab", {
      topic: "circleci-webhook-test",
      body:
        "Job `build-and-test` within Pipeline #3 has succeeded.\n\n" +
        "Triggered on [`c31f86994c5: app: Enhance message within hello().`](https://gitlab.com/zulip-testing/circleci-webhook-test/-/commit/c31f86994c54672f97b5bd5e544315b7bd40e4c1) on branch `main` by Hari Prashant Bhimaraju.",
    });
  });

  it("reports a completed workflow of a GitLab pipeline", () => {
    expectFixture(circleci, dir, "workflow-completed__gitlab", {
      topic: "circleci-webhook-test",
      body:
        "Workflow [`sample`](https://app.circleci.com/pipelines/circleci/89xcrx7UvWQfzcUPAEmu5Q/63AY3yf3XeUQojmQcGZTtB/3/workflows/b23ceb64-127a-4075-a27c-d204a7a0a3b3) within Pipeline #3 has succeeded.\n\n" +
        "Triggered on [`c31f86994c5: app: Enhance message within hello().`](https://gitlab.com/zulip-testing/circleci-webhook-test/-/commit/c31f86994c54672f97b5bd5e544315b7bd40e4c1) on branch `main` by Hari Prashant Bhimaraju.",
    });
  });
});
