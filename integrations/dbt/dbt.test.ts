import { describe, expect, it } from "@jest/globals";
import {
  casePayload,
  describeCases,
  describeSignature,
  dispatchPayload,
  onlyMessage,
} from "../kit/testing.js";
import dbt from "./index.js";

const casesDir = new URL("./fixtures/cases", import.meta.url);

describeCases(dbt, casesDir);

describe("dbt: behaviour", () => {
  it("links the job and the run with access_url", () => {
    const p = casePayload(casesDir, "test_dbt_webhook_when_job_completed_success");
    expect(
      onlyMessage(dispatchPayload(dbt, undefined, p, { access_url: "https://cloud.getdbt.com" })),
    ).toEqual({
      topic: "Example Project",
      body:
        ":green_circle: Daily Job (dbt build) [deployment](https://cloud.getdbt.com/deploy/1/projects/167194/runs/12345) succeeded in **Production**.\n\n" +
        "[Job #123](https://cloud.getdbt.com/deploy/1/projects/167194/jobs/123) was kicked off from the UI by bwilliams@example.com at <time:2023-01-31T19:28:07Z>.",
    });
  });

  it("shows a run status it does not know as it is", () => {
    const p = casePayload(casesDir, "test_dbt_webhook_when_job_completed_success");
    (p["data"] as Record<string, unknown>)["runStatus"] = "Cancelled";
    expect(onlyMessage(dispatchPayload(dbt, undefined, p)).body.split("\n")[0]).toBe(
      ":information_source: Daily Job (dbt build) deployment cancelled in **Production**.",
    );
  });

  it("filters on the event type", () => {
    const p = casePayload(casesDir, "test_dbt_webhook_when_job_started");
    expect(dispatchPayload(dbt, undefined, p, { only_events: '["job.run.errored"]' }).kind).toBe("filtered");
  });
});

// GitHub's documented example: secret "It's a Secret to Everybody", body "Hello, World!".
describeSignature(dbt, {
  title: "Authorization (hex HMAC-SHA256 of the body)",
  header: "authorization",
  secret: "It's a Secret to Everybody",
  body: "Hello, World!",
  signature: "757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17",
  rejects: [undefined],
});

describe("dbt: Zulip's other cases", () => {
  it("links a started run with access_url", () => {
    const p = casePayload(casesDir, "test_dbt_webhook_when_job_started");
    const params = { access_url: "https://example.us1.dbt.com" };
    expect(onlyMessage(dispatchPayload(dbt, undefined, p, params))).toEqual({
      topic: "Example Project",
      body:
        ":yellow_circle: Daily Job (dbt build) [deployment](https://example.us1.dbt.com/deploy/1/projects/167194/runs/12345) started in **Production**.\n\n" +
        "[Job #123](https://example.us1.dbt.com/deploy/1/projects/167194/jobs/123) was kicked off from the UI by bwilliams@example.com at <time:2023-01-31T19:28:07Z>.",
    });
  });
});
