import { UnsupportedWebhookEventTypeError } from "../../src/errors.js";
import type { WebhookMessage, Wild } from "../kit/index.js";
import { isoToSeconds, normalizeBody } from "../kit/message-text.js";
import { PyObject, parsePythonJson, pythonStr } from "../kit/python-json.js";
import type { PyJson } from "../kit/python-json.js";

export const DISPLAY_NAME = "Raygun";

/** Raygun's ISO timestamps ("1970-01-28T01:49:36Z") as Zulip global times; other text as sent. */
function globalTime(text: string): string {
  const iso = isoToSeconds(text);
  return /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/.test(iso) ? `<time:${iso}>` : text;
}

function appLine(p: Wild): string {
  const app = p.get("application");
  return `* **Application details**: [${app.get("name").str()}](${app.get("url").str()})\n`;
}

function commonLines(error: Wild): string {
  const message = error.opt("message")?.str() ?? "";
  return (
    (message !== "" ? `* **Message**: ${message}\n` : "") +
    `* **First occurred**: ${globalTime(error.get("firstOccurredOn").str())}\n` +
    `* **Last occurred**: ${globalTime(error.get("lastOccurredOn").str())}\n` +
    `* ${error.get("usersAffected").int()} users affected with ${error.get("totalOccurrences").int()} total occurrences\n`
  );
}

/** The error instance's custom data, read from the raw body so values print as Python prints them. */
function customData(rawBody: string, instance: Wild): [string, PyJson][] {
  let data: PyJson | undefined;
  try {
    const root = parsePythonJson(rawBody);
    const error = root instanceof PyObject ? root.entries.get("error") : undefined;
    const inst = error instanceof PyObject ? error.entries.get("instance") : undefined;
    data = inst instanceof PyObject ? inst.entries.get("customData") : undefined;
  } catch {
    data = undefined;
  }
  if (data === undefined) {
    const w = instance.opt("customData");
    data = w === undefined ? undefined : parsePythonJson(JSON.stringify(w.value));
  }
  if (!(data instanceof PyObject)) return [];
  return [...data.entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** A new or reoccurred error: counts, tags, the affected user and custom data of this instance. */
function errorOccurred(p: Wild, rawBody: string, eventType: string): string {
  const error = p.get("error");
  const link = `[Error](${error.get("url").str()})`;
  let out = eventType === "NewErrorOccurred" ? `New ${link} occurred:\n` : `${link} reoccurred:\n`;
  out += commonLines(error);
  const instance = error.opt("instance");
  if (instance !== undefined) {
    const tags = instance.opt("tags");
    if (tags !== undefined)
      out += `* **Tags**: ${tags
        .items()
        .map((t) => t.str())
        .join(", ")}\n`;
    const uuid = instance.opt("affectedUser")?.get("UUID").str();
    if (uuid !== undefined) out += `* **Affected user**: ${uuid.slice(0, 6)}...${uuid.slice(-5)}\n`;
    for (const [key, value] of customData(rawBody, instance)) out += `* **${key}**: ${pythonStr(value)}\n`;
  }
  return out + appLine(p);
}

/** "Hourly" / "One minute" / "Five minute" follow-up of a repeating error. */
function followUp(p: Wild, eventType: string): string {
  const error = p.get("error");
  const prefix = eventType === "HourlyFollowUp" ? "Hourly" : `${eventType.slice(0, -14)} minute`;
  return `${prefix} [follow-up error](${error.get("url").str()}):\n` + commonLines(error) + appLine(p);
}

export function errorNotification(p: Wild, rawBody: string): WebhookMessage {
  const eventType = p.get("eventType").str();
  let body: string;
  if (eventType === "NewErrorOccurred" || eventType === "ErrorReoccurred") {
    body = errorOccurred(p, rawBody, eventType);
  } else if (eventType.includes("FollowUp")) {
    body = followUp(p, eventType);
  } else {
    throw new UnsupportedWebhookEventTypeError(eventType, DISPLAY_NAME);
  }
  return { topic: "test", body: normalizeBody(body) };
}

/** Something done to an error: status changed (resolved, ignored, …), assigned, commented on. */
export function errorActivity(p: Wild): WebhookMessage {
  const eventType = p.get("eventType").str();
  const error = p.get("error");
  const link = `[Error](${error.get("url").str()})`;
  const user = error.get("user").str();
  let body: string;
  if (eventType === "StatusChanged") {
    body = `${link} status changed to **${error.get("status").str()}** by ${user}:\n`;
  } else if (eventType === "CommentAdded") {
    body = `${user} commented on ${link}:\n\n\`\`\` quote\n${error.get("comment").str()}\n\`\`\`\n`;
  } else if (eventType === "AssignedToUser") {
    body = `${user} assigned ${link} to ${error.get("assignedTo").str()}:\n`;
  } else {
    throw new UnsupportedWebhookEventTypeError(eventType, DISPLAY_NAME);
  }
  body += `* **Timestamp**: ${globalTime(error.get("activityDate").str())}\n` + appLine(p);
  return { topic: "test", body: normalizeBody(body) };
}
