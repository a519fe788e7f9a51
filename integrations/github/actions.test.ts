import { describe, expect, it } from "@jest/globals";
import { dispatchPayload, expectFixture } from "../kit/testing.js";
import github from "./index.js";

const here = new URL(".", import.meta.url);
const repo = "https://github.com/octocat/Hello-World";
const commit = `([acb5820ced9](${repo}/commit/acb5820ced9479c074f688cc328bf03f341a511d))`;

describe("github: GitHub Actions and checks (beyond Zulip)", () => {
  it("posts a finished workflow run with its conclusion and a link", () => {
    expectFixture(github, here, "workflow_run__completed_success", {
      topic: "Hello-World / Actions",
      body: `Workflow run [Build #562](${repo}/actions/runs/30433642) on branch \`main\` succeeded. ${commit}`,
    });
  });

  it("says which attempt of a re-run failed", () => {
    expectFixture(github, here, "workflow_run__completed_failure_rerun", {
      topic: "Hello-World / Actions",
      body: `Workflow run [Build #562](${repo}/actions/runs/30433642) (attempt 2) on branch \`main\` failed. ${commit}`,
    });
  });

  it("stays silent while a run is in progress", () => {
    expectFixture(github, here, "workflow_run__in_progress", null);
  });

  it("names a failed job and the step that failed", () => {
    expectFixture(github, here, "workflow_job__completed_failure", {
      topic: "Hello-World / Actions",
      body: `Job [test (ubuntu-latest, 20)](${repo}/actions/runs/30433642/job/2832853555) of workflow Build on branch \`main\` failed at step **Run npm test**. ${commit}`,
    });
  });

  it("stays silent on a job that succeeded (the run's message says it)", () => {
    expectFixture(github, here, "workflow_job__completed_success", null);
  });

  it("posts a finished check suite linked to the commit's checks", () => {
    expectFixture(github, here, "check_suite__completed", {
      topic: "Hello-World / checks",
      body: `[Check suite](${repo}/commit/acb5820ced9479c074f688cc328bf03f341a511d/checks) of GitHub Actions on branch \`main\` succeeded. ${commit}`,
    });
  });

  it("reads a timed-out job without steps, a run without branch and conclusion", () => {
    const repository = { name: "Hello-World", html_url: repo };
    const job = dispatchPayload(github, "workflow_job", {
      action: "completed",
      workflow_job: {
        name: "deploy",
        html_url: `${repo}/actions/runs/1/job/2`,
        head_sha: "acb5820ced9479c074f688cc328bf03f341a511d",
        conclusion: "timed_out",
        head_branch: null,
        workflow_name: null,
      },
      repository,
    });
    expect(job).toEqual({
      kind: "messages",
      event: "workflow_job",
      messages: [
        {
          topic: "Hello-World / Actions",
          body: `Job [deploy](${repo}/actions/runs/1/job/2) timed out. ${commit}`,
        },
      ],
    });
    const run = dispatchPayload(github, "workflow_run", {
      action: "completed",
      workflow_run: {
        name: "Nightly",
        html_url: `${repo}/actions/runs/9`,
        head_sha: "acb5820ced9479c074f688cc328bf03f341a511d",
        conclusion: "cancelled",
      },
      repository,
    });
    expect(run).toEqual({
      kind: "messages",
      event: "workflow_run",
      messages: [
        {
          topic: "Hello-World / Actions",
          body: `Workflow run [Nightly](${repo}/actions/runs/9) was cancelled. ${commit}`,
        },
      ],
    });
  });

  it("lets only_events pick the Actions events by name", () => {
    const payload = {
      action: "completed",
      check_suite: { head_sha: "acb5820ced9479c074f688cc328bf03f341a511d", conclusion: "failure" },
      repository: { name: "Hello-World", html_url: repo },
    };
    expect(dispatchPayload(github, "check_suite", payload, { only_events: '["workflow_*"]' }).kind).toBe(
      "filtered",
    );
    expect(dispatchPayload(github, "check_suite", payload, { only_events: '["check_*"]' }).kind).toBe(
      "messages",
    );
  });
});
