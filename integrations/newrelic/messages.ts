import type { WebhookMessage, Wild } from "../kit/index.js";
import { normalizeBody, truncateTopic, unixToIso } from "../kit/message-text.js";
import { PyFloat, PyInt, PyObject, parsePythonJson, pythonFloatRepr } from "../kit/python-json.js";
import type { PyJson } from "../kit/python-json.js";

const PRIORITY_EMOJI: Readonly<Record<string, string>> = {
  CRITICAL: ":red_circle:",
  HIGH: ":orange_circle:",
  MEDIUM: ":yellow:",
  LOW: ":blue_circle:",
};

const DEFAULT_NEWRELIC_URL = "https://one.newrelic.com/alerts-ai";

/** The fields of New Relic's default webhook template that the message needs. */
export const EXPECTED_FIELDS = [
  "issueUrl",
  "title",
  "priority",
  "totalIncidents",
  "state",
  "createdAt",
  "updatedAt",
  "alertPolicyNames",
  "alertConditionNames",
] as const;

/** Fields absent from the payload (a present null counts as present, as in Zulip). */
export function missingFields(p: Wild): string[] {
  if (!p.isObject()) return [...EXPECTED_FIELDS];
  const obj = p.value as Record<string, unknown>;
  return EXPECTED_FIELDS.filter((k) => !Object.prototype.hasOwnProperty.call(obj, k));
}

/** A workflow template that lacks fields: Zulip posts a warning naming them instead of the incident. */
export function missingFieldsMessage(missing: string[]): WebhookMessage {
  return {
    topic: "New Relic incident alerts",
    body: normalizeBody(
      `:danger: A New Relic [incident](${DEFAULT_NEWRELIC_URL}) updated\n\n` +
        "**Warning**: Unable to use the default notification format because at least one expected field " +
        "was missing from the incident payload. See [New Relic integration documentation](/integrations/newrelic).\n\n" +
        `**Missing fields**: ${missing.map((f) => `\`${f}\``).join(", ")}\n`,
    ),
  };
}

/** Epoch milliseconds (a number, or digits in a string) as a Zulip global time. */
function globalTime(w: Wild): string {
  const ms = typeof w.value === "string" && /^\d+$/.test(w.value) ? Number(w.value) : w.num();
  return `<time:${unixToIso(ms / 1000)}>`;
}

function backtickedList(w: Wild | undefined, fallback: string): string {
  const names = w === undefined ? [fallback] : w.items().map((n) => n.str());
  return names.map((n) => `\`${n}\``).join(", ");
}

/** Python's `str.capitalize()`. */
function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1).toLowerCase();
}

/** `str()` of a scalar as Python prints it, or undefined for a value Zulip does not accept. */
function pyScalar(v: PyJson): string | undefined {
  if (v === null) return "None";
  if (v === true) return "True";
  if (v === false) return "False";
  if (typeof v === "string") return v;
  if (v instanceof PyInt) return v.toString();
  if (v instanceof PyFloat) return pythonFloatRepr(v.value);
  return undefined;
}

function customFieldValue(v: PyJson): string | undefined {
  if (Array.isArray(v)) {
    const parts = v.map(pyScalar);
    return parts.every((s) => s !== undefined) ? parts.join(", ") : undefined;
  }
  return pyScalar(v);
}

/**
 * The `zulipCustomFields` object a user may add to the workflow template, one line each. Read from
 * the raw body so numbers print as Python prints them (`2.0`, `13.33`) and keys keep their order.
 */
export function customFieldLines(rawBody: string | undefined, p: Wild): string {
  let fields: PyJson | undefined;
  if (rawBody !== undefined) {
    try {
      const root = parsePythonJson(rawBody);
      fields = root instanceof PyObject ? root.entries.get("zulipCustomFields") : undefined;
    } catch {
      fields = undefined;
    }
  }
  if (fields === undefined) {
    const w = p.opt("zulipCustomFields");
    if (w === undefined || !w.isObject()) return "";
    fields = parsePythonJson(JSON.stringify(w.value));
  }
  if (!(fields instanceof PyObject)) return "";
  let out = "";
  for (const [key, value] of fields.entries) {
    const text = customFieldValue(value);
    out += `- **${capitalize(key)}**: ${text ?? "*Value is not a supported data type*"}\n`;
  }
  return out;
}

/** One incident notification in the layout of Zulip's New Relic integration. */
export function incidentMessage(p: Wild, rawBody: string | undefined): WebhookMessage {
  const title = p.get("title").str();
  const priority = p.get("priority").str();
  const owner = p.opt("owner")?.str();
  const acknowledged =
    owner !== undefined && owner !== "" && owner !== "N/A" ? `**Acknowledged by**: ${owner}` : "";
  const details =
    `\n- **Alert policies**: ${backtickedList(p.opt("alertPolicyNames"), "Unknown policy")}\n` +
    `- **Conditions**: ${backtickedList(p.opt("alertConditionNames"), "Unknown condition")}\n` +
    `- **Total incidents**: ${p.get("totalIncidents").int()}\n` +
    `- **Incident created at**: ${globalTime(p.get("createdAt"))}\n` +
    customFieldLines(rawBody, p);
  const body =
    `\n${PRIORITY_EMOJI[priority] ?? ":alert:"} **[${title}](${p.opt("issueUrl")?.str() ?? DEFAULT_NEWRELIC_URL})**\n\n` +
    "```quote\n" +
    `**Priority**: ${priority}\n` +
    `**State**: ${p.get("state").str()}\n` +
    `**Updated at**: ${globalTime(p.get("updatedAt"))}\n` +
    `${acknowledged}\n` +
    "```\n\n" +
    "```spoiler :file: Incident details\n" +
    `${details}\n` +
    "```\n";
  return { topic: truncateTopic(title), body: normalizeBody(body) };
}
