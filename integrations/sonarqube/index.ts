import { defineIntegration } from "../kit/index.js";
import type { WebhookMessage, Wild } from "../kit/index.js";
import { truncateTopic } from "../kit/templates/git.js";

/** How a failed condition's operator reads as a requirement. */
const INVERSE_OPERATORS: Readonly<Record<string, string>> = {
  WORSE_THAN: "should be better or equal to",
  GREATER_THAN: "should be less than or equal to",
  LESS_THAN: "should be greater than or equal to",
};

/** "* coverage: **error** 0.0 should be greater than or equal to 80." (or "* x: **error**."). */
function conditionLine(c: Wild): string {
  const metric = c.get("metric").str().split("_").join(" ");
  const status = c.get("status").str().toLowerCase();
  const value = c.opt("value");
  if (value === undefined || value.text() === "no value") return `* ${metric}: **${status}**.`;
  const operator = c.get("operator").str();
  const requirement = INVERSE_OPERATORS[operator] ?? operator;
  return `* ${metric}: **${status}** ${value.text()} ${requirement} ${c.get("errorThreshold").text()}.`;
}

/** The conditions that did not pass (status neither OK nor NO_VALUE), one line each. */
function failedConditions(gate: Wild): string {
  return (gate.opt("conditions")?.items() ?? [])
    .filter((c) => {
      const status = c.get("status").str().toLowerCase();
      return status !== "ok" && status !== "no_value";
    })
    .map(conditionLine)
    .join("\n");
}

/** A project analysis and its quality gate, per branch when SonarQube names one. */
export function analysisMessage(p: Wild): WebhookMessage {
  const project = p.get("project");
  const name = project.get("name").str();
  const branch = p.opt("branch")?.opt("name")?.str();
  const gate = p.get("qualityGate");
  const result = gate.get("status").str().toLowerCase() === "ok" ? "success" : "error";
  const conditions = failedConditions(gate);
  const subject = branch
    ? `Project [${name}](${project.get("url").str()}) analysis of branch ${branch} resulted in ${result}`
    : `Project [${name}](${project.get("url").str()}) analysis resulted in ${result}`;
  return {
    topic: truncateTopic(branch ? `${name} / ${branch}` : name),
    body: conditions === "" ? `${subject}.` : `${subject}:\n${conditions}`,
  };
}

/** SonarQube: POST /api/v1/external/sonarqube, from a project's (or the server's) webhook. */
export default defineIntegration({
  name: "sonarqube",
  displayName: "SonarQube",
  categories: ["continuous-integration"],
  description: "Project analyses and their quality gate (with the failed conditions) from SonarQube.",
  // SonarQube's webhook "Secret": X-Sonar-Webhook-HMAC-SHA256 is the hex HMAC-SHA256 of the body.
  signature: { kind: "hmac", header: "X-Sonar-Webhook-HMAC-SHA256", algorithm: "sha256" },
  classify: () => "analysis",
  // Zulip passes no event type for this integration: only_events / exclude_events never apply.
  unfilteredEvents: ["analysis"],
  events: { analysis: (p) => analysisMessage(p) },
});
