import type { WebhookMessage, Wild } from "../kit/index.js";
import { normalizeBody, truncateTopic, unixToIso } from "../kit/message-text.js";
import { PyObject, parsePythonJson, pythonStr } from "../kit/python-json.js";
import type { PyJson } from "../kit/python-json.js";

function globalTime(w: Wild): string {
  return `<time:${unixToIso(w.num())}>`;
}

function alertUrl(alert: Wild): string {
  return `https://metrics.librato.com/alerts#/${alert.get("id").text()}`;
}

/** A value of the alert's conditions as Python prints it (`4.0` stays `4.0`), read from the JSON text. */
function conditionValues(payloadText: string): (index: number, key: string) => string | undefined {
  let conditions: PyJson[] = [];
  try {
    const root = parsePythonJson(payloadText);
    const list = root instanceof PyObject ? root.entries.get("conditions") : undefined;
    conditions = Array.isArray(list) ? list : [];
  } catch {
    conditions = [];
  }
  return (index, key) => {
    const condition = conditions[index];
    if (!(condition instanceof PyObject)) return undefined;
    const value = condition.entries.get(key);
    return value === undefined ? undefined : pythonStr(value);
  };
}

/** The violations: Zulip reads the `test-source` list; real alerts key them by source, so all are read. */
function violationsOf(payload: Wild): Wild[] {
  const violations = payload.get("violations");
  const test = violations.opt("test-source");
  if (test !== undefined) return test.items();
  return violations.entries().flatMap(([, list]) => list.items());
}

export function topicOf(p: Wild): string {
  if (p.get("attachments").items().length > 0) return "Snapshots";
  return truncateTopic(`Alert ${p.at("payload", "alert", "name").text()}`);
}

export function alertCleared(p: Wild): WebhookMessage {
  const payload = p.get("payload");
  return {
    topic: topicOf(p),
    body: `Alert [alert_name](${alertUrl(payload.get("alert"))}) has cleared at ${globalTime(payload.get("trigger_time"))}!`,
  };
}

export function alertTriggered(p: Wild): WebhookMessage {
  const payload = p.get("payload");
  const alert = payload.get("alert");
  let body = `Alert [alert_name](${alertUrl(alert)}) has triggered! `;
  const runbook = alert.opt("runbook_url")?.str() ?? "";
  if (runbook !== "") body += `[Reaction steps](${runbook}):`;
  const value = conditionValues(p.get("payloadText").str());
  const conditions = payload.get("conditions").items();
  const violations = violationsOf(payload);
  for (let i = 0; i < Math.min(conditions.length, violations.length); i++) {
    const condition = conditions[i] as Wild;
    const violation = violations[i] as Wild;
    const threshold = value(i, "threshold") ?? "";
    const duration = value(i, "duration") ?? "";
    body +=
      `\n * Metric \`${violation.get("metric").str()}\`, ${condition.get("summary_function").str()} was ` +
      `${condition.get("type").str()} ${threshold}`;
    // Python's truthiness: a duration of 0 (or "") is left out.
    if (duration !== "" && duration !== "0" && duration !== "0.0" && duration !== "None")
      body += ` by ${duration}s`;
    body += `, recorded at ${globalTime(violation.get("recorded_at"))}.`;
  }
  return { topic: topicOf(p), body: normalizeBody(body) };
}

export function snapshots(p: Wild): WebhookMessage {
  const body = p
    .get("attachments")
    .items()
    .map(
      (a) =>
        `**${a.get("author_name").str()}** sent a [snapshot](${a.get("image_url").str()}) of [metric](${a.get("title").str()}).`,
    )
    .join("");
  return { topic: topicOf(p), body: normalizeBody(body) };
}
