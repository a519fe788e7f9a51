import { defineIntegration, option, parse } from "../kit/index.js";
import type { WebhookMessage, Wild } from "../kit/index.js";
import { truncateTopic } from "../kit/templates/git.js";

/** Per event, per run status (lower case): emoji and verb. */
const OUTCOMES: Readonly<Record<string, Readonly<Record<string, readonly [string, string]>>>> = {
  "job.run.started": { running: [":yellow_circle:", "started"] },
  "job.run.completed": {
    success: [":green_circle:", "succeeded"],
    errored: [":cross_mark:", "completed with errors"],
  },
  "job.run.errored": { errored: [":cross_mark:", "failed"] },
};

/** The project's page in dbt Cloud (Python's `urljoin(access_url, "/deploy/…")`). */
function projectUrl(accessUrl: string | undefined, accountId: string, projectId: string): string | undefined {
  if (accessUrl === undefined || accessUrl === "") return undefined;
  const path = `/deploy/${accountId}/projects/${projectId}`;
  try {
    return new URL(path, accessUrl).href;
  } catch {
    return path;
  }
}

/**
 * ":green_circle: Daily Job deployment succeeded in **Production**.\n\nJob #123 was kicked off
 * from the UI by … at <time:…>." With `access_url`, the job and the run are links.
 */
export function jobRunMessage(p: Wild, event: string, accessUrl: string | undefined): WebhookMessage {
  const data = p.get("data");
  const status = data.get("runStatus").str().toLowerCase();
  const [emoji, verb] = OUTCOMES[event]?.[status] ?? [":information_source:", status];
  const jobId = data.get("jobId").text();
  const url = projectUrl(accessUrl, p.get("accountId").text(), data.get("projectId").text());
  const jobText = url === undefined ? `Job #${jobId}` : `[Job #${jobId}](${url}/jobs/${jobId})`;
  const runText = url === undefined ? "deployment" : `[deployment](${url}/runs/${data.get("runId").text()})`;
  const reason = data.get("runReason").str();
  return {
    topic: truncateTopic(data.get("projectName").str()),
    body:
      `${emoji} ${data.get("jobName").str()} ${runText} ${verb} in **${data.get("environmentName").str()}**.\n\n` +
      `${jobText} was ${reason.slice(0, 1).toLowerCase()}${reason.slice(1)} at <time:${data.get("runStartedAt").str()}>.`,
  };
}

/** dbt Cloud: POST /api/v1/external/dbt, from an account's webhook (job run events). */
export default defineIntegration({
  name: "dbt",
  displayName: "DBT",
  categories: ["deployment"],
  description: "Job runs started, succeeded, completed with errors and failed in dbt Cloud.",
  options: {
    access_url: option("Your dbt Cloud access URL, to link jobs and runs", parse.string),
  },
  // dbt Cloud's webhook secret: Authorization is the hex HMAC-SHA256 of the body.
  signature: { kind: "hmac", header: "Authorization", algorithm: "sha256" },
  classify: ({ payload }) => payload.get("eventType").str(),
  events: {
    "job.run.started": (p, ctx) => jobRunMessage(p, ctx.event, ctx.options.access_url),
    "job.run.completed": (p, ctx) => jobRunMessage(p, ctx.event, ctx.options.access_url),
    "job.run.errored": (p, ctx) => jobRunMessage(p, ctx.event, ctx.options.access_url),
  },
});
