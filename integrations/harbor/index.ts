import { UnsupportedWebhookEventTypeError } from "../../src/errors.js";
import { defineIntegration } from "../kit/index.js";
import type { WebhookMessage, Wild } from "../kit/index.js";
import { pythonRepr } from "../kit/python-json.js";
import { truncateTopic } from "../kit/templates/git.js";

/** The scan report format Harbor 2.x attaches to a scanned artifact. */
const REPORT = "application/vnd.security.vulnerability.report; version=1.1";

const repository = (p: Wild): string => p.get("event_data").get("repository").get("repo_full_name").str();
const firstResource = (p: Wild): Wild => p.get("event_data").get("resources").index(0);

/** `repo:tag`, or `repo@digest` for an artifact without a tag. */
function imageId(p: Wild): string {
  const resource = firstResource(p);
  const tag = resource.isObject() && resource.keys().includes("tag") ? resource.get("tag") : undefined;
  return tag === undefined
    ? `${repository(p)}@${resource.get("digest").str()}`
    : `${repository(p)}:${tag.text()}`;
}

export function pushArtifact(p: Wild): WebhookMessage {
  const image = imageId(p);
  return {
    topic: truncateTopic(repository(p)),
    body: `**${p.get("operator").text()}** pushed image \`${image}\``,
  };
}

export function scanningCompleted(p: Wild): WebhookMessage {
  const overview = firstResource(p).get("scan_overview");
  if (overview.opt(REPORT) === undefined) {
    // Zulip names the report formats it was given instead.
    throw new UnsupportedWebhookEventTypeError(pythonRepr(overview.keys()));
  }
  const summary = overview.get(REPORT).opt("summary")?.opt("summary");
  const rows = (summary?.entries() ?? []).map(([severity, count]) => `* ${severity}: **${count.text()}**`);
  const results = rows.length > 0 ? rows.join("\n") : "None";
  return {
    topic: truncateTopic(repository(p)),
    body: `Image scan completed for \`${imageId(p)}\`. ` + `Vulnerabilities by severity:\n\n${results}`,
  };
}

/** Harbor: POST /api/v1/external/harbor, from a project's webhook policy (HTTP, JSON). */
export default defineIntegration({
  name: "harbor",
  displayName: "Harbor",
  categories: ["deployment"],
  description: "Artifacts pushed and vulnerability scans completed in a Harbor registry.",
  // The webhook policy's "Auth Header" is sent verbatim as Authorization.
  signature: { kind: "token", header: "Authorization" },
  classify: ({ payload }) => payload.get("type").str(),
  events: {
    PUSH_ARTIFACT: (p) => pushArtifact(p),
    SCANNING_COMPLETED: (p) => scanningCompleted(p),
  },
  ignoredEvents: [
    "DOWNLOAD_CHART",
    "DELETE_CHART",
    "UPLOAD_CHART",
    "PULL_ARTIFACT",
    "DELETE_ARTIFACT",
    "SCANNING_FAILED",
  ],
});
