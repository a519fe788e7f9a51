import { describe, expect, it } from "@jest/globals";
import { casePayload, describeCases, dispatchPayload, expectFixture, onlyMessage } from "../kit/testing.js";
import semaphore from "./index.js";

const casesDir = new URL("./fixtures/cases", import.meta.url);

describeCases(semaphore, casesDir);

describe("semaphore: events the recorded cases do not show", () => {
  it("reports a Semaphore 2.0 pipeline of a branch push", () => {
    expectFixture(semaphore, new URL(".", import.meta.url), "branch__github", {
      topic: "notifications/rw/webhooks",
      body:
        "[Notifications](https://semaphore.semaphoreci.com/workflows/a8704319-2422-4828-9b11-6b2afa3554e6) pipeline **passed**:\n" +
        "* **Commit**: [(2d9f5fcec1c)](https://github.com/renderedtext/notifications/commit/2d9f5fcec1ca7c68fa7bd44dd58ec4ff65814563) Implement webhooks\n" +
        "* **Branch**: rw/webhooks\n" +
        "* **Author**: [radwo](https://github.com/radwo)",
    });
  });
});

describe("semaphore: behaviour", () => {
  it("writes no links for repositories outside GitHub", () => {
    const p = casePayload(casesDir, "test_semaphore_pull_request");
    (p["repository"] as Record<string, unknown>)["url"] = "https://gitlab.com/renderedtext/notifications";
    expect(onlyMessage(dispatchPayload(semaphore, undefined, p)).body).toBe(
      "[Notifications](https://semaphore.semaphoreci.com/workflows/84383f37-d025-4811-b719-61c6acc92a1e) pipeline **failed**:\n" +
        "* **Pull request**: Testing PR notifications (#3)\n" +
        "* **Branch**: test-notifications\n" +
        "* **Author**: radwo",
    );
  });

  it("posts a 2.0 pipeline of an unknown kind under the project", () => {
    const p = casePayload(casesDir, "test_semaphore_tag");
    (p["revision"] as Record<string, unknown>)["reference_type"] = "merge_queue";
    expect(onlyMessage(dispatchPayload(semaphore, undefined, p))).toEqual({
      topic: "notifications",
      body: "[Notifications](https://semaphore.semaphoreci.com/workflows/a8704319-2422-4828-9b11-6b2afa3554e6) pipeline **stopped** for merge_queue event",
    });
  });

  it("filters on the event", () => {
    const p = casePayload(casesDir, "test_semaphore_build");
    expect(dispatchPayload(semaphore, undefined, p, { exclude_events: '["build"]' }).kind).toBe("filtered");
    expect(dispatchPayload(semaphore, undefined, p, { only_events: '["build","deploy"]' }).kind).toBe(
      "messages",
    );
  });
});

describe("semaphore: Zulip's other fixtures", () => {
  const dir = new URL(".", import.meta.url);
  const head =
    "[Notifications](https://semaphore.semaphoreci.com/workflows/acabe58e-4bcc-4d39-be06-e98d71917703) pipeline **stopped**:\n";

  it("reports a stopped Semaphore 2.0 pipeline of a branch", () => {
    expectFixture(semaphore, dir, "branch__rw_webhook_impl", {
      topic: "notifications/rw/webhook_impl",
      body:
        head +
        "* **Commit**: [(2d9f5fcec1c)](https://github.com/renderedtext/notifications/commit/2d9f5fcec1ca7c68fa7bd44dd58ec4ff65814563) Implement webhooks for SemaphoreCI\n" +
        "* **Branch**: rw/webhook_impl\n" +
        "* **Author**: [radwo](https://github.com/radwo)",
    });
  });

  it("writes a tag of a repository outside GitHub without links", () => {
    const p = casePayload(casesDir, "test_semaphore_tag");
    (p["repository"] as Record<string, unknown>)["url"] = "https://gitlab.com/renderedtext/notifications";
    expect(onlyMessage(dispatchPayload(semaphore, undefined, p))).toEqual({
      topic: "notifications",
      body:
        "[Notifications](https://semaphore.semaphoreci.com/workflows/a8704319-2422-4828-9b11-6b2afa3554e6) pipeline **stopped**:\n" +
        "* **Tag**: v1.0.1\n* **Author**: radwo",
    });
  });

  it("names an unknown reference type", () => {
    const p = casePayload(casesDir, "test_semaphore_tag");
    (p["revision"] as Record<string, unknown>)["reference_type"] = "unknown";
    expect(onlyMessage(dispatchPayload(semaphore, undefined, p))).toEqual({
      topic: "notifications",
      body: "[Notifications](https://semaphore.semaphoreci.com/workflows/a8704319-2422-4828-9b11-6b2afa3554e6) pipeline **stopped** for unknown event",
    });
  });
});
