import { defineIntegration } from "../kit/index.js";
import type { Handler } from "../kit/index.js";
import type { WebhookMessage, Wild } from "../kit/index.js";
import { isoToSeconds, normalizeBody, pyStrip, truncateTopic } from "../kit/message-text.js";
import { PyObject, parsePythonJson, pythonStr } from "../kit/python-json.js";
import type { PyJson } from "../kit/python-json.js";

const LEGACY_EVENT_TYPES = ["ok", "pending", "alerting", "paused", "no_data"] as const;
type LegacyState = (typeof LEGACY_EVENT_TYPES)[number];

function statusLine(state: string): string {
  const icon =
    state === "alerting" || state === "firing"
      ? ":alert:"
      : state === "ok"
        ? ":squared_ok:"
        : state === "resolved"
          ? ":checkbox:"
          : ":info:";
  return `${icon} **${state.toUpperCase()}**\n\n`;
}

/** Python's `str()` of a JSON value Grafana sends as a number (or null). */
function pyStr(value: PyJson | undefined, fallback: Wild | undefined): string {
  if (value === undefined || Array.isArray(value) || value instanceof PyObject)
    return fallback?.text() ?? "None";
  return pythonStr(value);
}

/** The raw payload as Python reads it, so that values print as Zulip prints them (`1.0`, `1e-05`). */
function pythonPayload(raw: string | undefined): PyObject | undefined {
  if (raw === undefined) return undefined;
  try {
    const v = parsePythonJson(raw);
    return v instanceof PyObject ? v : undefined;
  } catch {
    return undefined;
  }
}

function pyGet(v: PyJson | undefined, key: string | number): PyJson | undefined {
  if (typeof key === "number") return Array.isArray(v) ? v[key] : undefined;
  return v instanceof PyObject ? v.entries.get(key) : undefined;
}

/**
 * Unified alerting (Grafana 8+): one message per alert, in a topic named after its alertname, or
 * after its fingerprint when the rule's labels carry no alertname.
 */
function unifiedAlert(alert: Wild, py: PyJson | undefined): WebhookMessage {
  const alertname = alert.get("labels").opt("alertname")?.str() ?? "";
  const title = alertname !== "" ? alertname : alert.get("fingerprint").str();
  const heading = alertname !== "" ? `**${alertname}**\n\n` : "";
  const status = alert.get("status").str();
  let message = `This alert was fired at <time:${isoToSeconds(alert.get("startsAt").str())}>.\n\n`;
  if (status === "resolved") {
    message += `This alert was resolved at <time:${isoToSeconds(alert.get("endsAt").str())}>.\n\n`;
  }
  const labels = alert.get("labels").entries();
  if (labels.length > 0) {
    message += "Labels:\n" + labels.map(([k, v]) => `- ${k}: ${v.text()}\n`).join("") + "\n";
  }
  const values = alert.opt("values");
  const valueEntries = values?.isObject() === true ? values.entries() : [];
  if (valueEntries.length > 0) {
    message +=
      "Values:\n" +
      valueEntries.map(([k, v]) => `- ${k}: ${pyStr(pyGet(pyGet(py, "values"), k), v)}\n`).join("") +
      "\n";
  } else {
    const valueString = alert.opt("valueString")?.str() ?? "";
    if (valueString !== "") message += `Values:\n${valueString}\n\n`;
  }
  const annotations = alert.opt("annotations")?.entries() ?? [];
  if (annotations.length > 0) {
    message += "Annotations:\n" + annotations.map(([k, v]) => `- ${k}: ${v.text()}\n`).join("") + "\n";
  }
  const links: [string, string][] = [
    ["generatorURL", "Generator"],
    ["silenceURL", "Silence"],
    ["imageURL", "Image"],
  ];
  for (const [key, label] of links) {
    const url = alert.opt(key)?.str() ?? "";
    if (url !== "") message += `[${label}](${url})\n`;
  }
  return {
    topic: truncateTopic(`[${title}]`),
    body: normalizeBody(pyStrip(`${statusLine(status)}${heading}${message}`)),
    // resolve_topics: the alert's topic is resolved when it resolves, unresolved when it fires again.
    ...(status === "resolved" ? { resolves: true } : status === "firing" ? { resolves: false } : {}),
  };
}

/** Legacy alerting (Grafana 7 and older): the rule, its message and the matched series. */
function legacyAlert(p: Wild, py: PyObject | undefined): WebhookMessage {
  let evalMatches = "";
  const matches = p.opt("evalMatches")?.items() ?? [];
  matches.forEach((m, i) => {
    const value = pyStr(pyGet(pyGet(pyGet(py, "evalMatches"), i), "value"), m.opt("value"));
    evalMatches += `**${m.get("metric").str()}:** ${value}\n`;
  });
  const message = p.has("message") ? `${p.get("message").str()}\n\n` : "";
  let body =
    statusLine(p.get("state").str()) +
    `[${p.get("ruleName").str()}](${p.get("ruleUrl").str()})\n\n` +
    message +
    evalMatches;
  const image = p.opt("imageUrl");
  if (image !== undefined) body += `\n[Click to view visualization](${image.str()})`;
  return { topic: truncateTopic(p.get("title").str()), body: normalizeBody(pyStrip(body)) };
}

const legacy: Handler = (p, ctx) => legacyAlert(p, pythonPayload(ctx.rawBody));
const legacyEvents = Object.fromEntries(LEGACY_EVENT_TYPES.map((state) => [state, legacy])) as Record<
  LegacyState,
  Handler
>;

/**
 * Grafana: unified alerting (`alerts[]`, one message per alert, filtered on its status) and legacy
 * alerts (`state`, `ruleName`, `evalMatches`).
 */
export default defineIntegration({
  name: "grafana",
  displayName: "Grafana",
  categories: ["monitoring"],
  resolvesTopics: true,
  description: "Posts Grafana alerts (unified alerting and legacy dashboard alerts).",
  // Legacy alerts are named after their state; unified payloads hold several alerts, each filtered
  // on its own status ("firing", "resolved") by the handler.
  classify: ({ payload }) => (payload.has("alerts") ? "alerts" : payload.get("state").str()),
  unfilteredEvents: ["alerts"],
  events: {
    ...legacyEvents,
    alerts: (p, ctx) => {
      const py = pythonPayload(ctx.rawBody);
      return p
        .get("alerts")
        .items()
        .map((alert, i) => ({ alert, py: pyGet(pyGet(py, "alerts"), i) }))
        .filter(({ alert }) => ctx.wanted(alert.get("status").str()))
        .map(({ alert, py: pyAlert }) => unifiedAlert(alert, pyAlert));
    },
  },
});
