import type { HandlerResult, Wild } from "../kit/index.js";
import { normalizeBody, truncateTopic } from "../kit/message-text.js";

const quote = (text: string): string => `\n~~~ quote\n${text}\n~~~\n`;

const str = (w: Wild | undefined): string | undefined => (typeof w?.value === "string" ? w.value : undefined);

/** Whether the object has the key, even with a null value (Python's `in`). */
const has = (w: Wild, key: string): boolean =>
  w.isObject() && Object.prototype.hasOwnProperty.call(w.value, key);

const action = (p: Wild): string => p.get("action").str();

const message = (topic: string, body: string): HandlerResult => ({
  topic: truncateTopic(topic),
  body: normalizeBody(body),
});

/** Issues and sub-issues (issues with a parent). */
export function issue(kind: "Issue" | "Sub-Issue") {
  return (p: Wild): HandlerResult => {
    const data = p.get("data");
    const topic = `${kind}: ${data.get("title").str()}`;
    const team = str(data.optAt("team", "name")) ?? "unknown";
    if (action(p) === "remove") return message(topic, `This issue has been removed from team ${team}.`);
    const verb = action(p) === "create" ? "created" : "updated";
    let body = `[${kind}](${p.get("url").str()}) was ${verb} in team ${team}`;
    const description = str(data.opt("description"));
    body += description === undefined ? "." : `:${quote(description)}`;
    const details: string[] = [];
    const priority = str(data.opt("priorityLabel"));
    if (priority !== undefined && priority !== "No priority") details.push(`Priority: ${priority}`);
    const assignee = str(data.optAt("assignee", "name"));
    if (assignee !== undefined) details.push(`Assignee: ${assignee}`);
    const status = str(data.optAt("state", "name"));
    if (status !== undefined) details.push(`Status: ${status}`);
    if (details.length > 0) body += `\n${details.join(", ")}.`;
    return message(topic, body);
  };
}

export function comment(p: Wild): HandlerResult {
  const data = p.get("data");
  const topic = `Issue: ${str(data.optAt("issue", "title")) ?? "unknown"}`;
  const user = str(data.optAt("user", "name")) ?? "Someone";
  if (action(p) === "remove") return message(topic, `${user} has removed a comment.`);
  const verb = action(p) === "create" ? "commented" : "updated comment";
  const title = str(data.optAt("issue", "title")) ?? "";
  return message(
    topic,
    `${user} [${verb}](${p.get("url").str()}) on issue **${title}**:${quote(str(data.opt("body")) ?? "")}`,
  );
}

const PRIORITY_LABELS: Readonly<Record<number, string>> = { 1: "Urgent", 2: "High", 3: "Medium", 4: "Low" };
const HEALTH_LABELS: Readonly<Record<string, string>> = {
  onTrack: "On Track",
  atRisk: "At Risk",
  offTrack: "Off Track",
};

const actorName = (p: Wild): string => str(p.optAt("actor", "name")) ?? "Someone";

function priorityLabel(data: Wild): string | undefined {
  const priority = data.opt("priority")?.value;
  return typeof priority === "number" ? PRIORITY_LABELS[priority] : undefined;
}

/** What a project update changed, in Linear's field order ("renamed to X", "priority is now …"). */
export function projectChanges(p: Wild): string[] {
  const data = p.get("data");
  const from = p.opt("updatedFrom");
  if (from === undefined) return [];
  const changes: string[] = [];
  for (const key of ["name", "statusId", "leadId", "priority", "startDate", "targetDate", "content"]) {
    if (!has(from, key)) continue;
    if (key === "name") {
      const name = str(data.opt("name"));
      if (name !== undefined) changes.push(`renamed to ${name}`);
    } else if (key === "statusId") {
      const status = str(data.optAt("status", "name"));
      if (status !== undefined) changes.push(`project status is now ${status}`);
    } else if (key === "leadId") {
      const lead = str(data.optAt("lead", "name"));
      if (lead !== undefined) changes.push(`${lead} is now the project lead`);
    } else if (key === "priority") {
      const label = priorityLabel(data);
      if (label !== undefined) changes.push(`priority is now set to ${label}`);
    } else if (key === "startDate" || key === "targetDate") {
      const label = key === "targetDate" ? "target date" : "start date";
      const now = str(data.opt(key));
      if (now === undefined) continue;
      const before = str(from.opt(key));
      if (before === undefined) changes.push(`${label} is set to ${now}`);
      else changes.push(`${label} is ${now < before ? "preponed" : "postponed"} to ${now}`);
    } else {
      changes.push("description is updated");
    }
  }
  return changes;
}

/** Project updates Linear fires after a status post, or that only clear fields, say nothing. */
export function isSilentProjectUpdate(p: Wild): boolean {
  const from = p.opt("updatedFrom");
  if (from === undefined) return false;
  return has(from, "lastUpdateId") || projectChanges(p).length === 0;
}

export function project(p: Wild): HandlerResult {
  const data = p.get("data");
  const name = data.get("name").str();
  const topic = `Project: ${name}`;
  if (action(p) === "remove") return message(topic, `${actorName(p)} removed project **${name}**.`);
  const url = p.get("url").str();
  if (action(p) !== "create") {
    if (isSilentProjectUpdate(p)) return null;
    const sentence = projectChanges(p).join(", ");
    return message(
      topic,
      `${actorName(p)} updated project [${name}](${url}).\n${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}.`,
    );
  }
  let body = `${actorName(p)} created project [${name}](${url})`;
  const description = str(data.opt("description")) ?? "";
  const inline: string[] = [];
  const status = str(data.optAt("status", "name"));
  if (status !== undefined) inline.push(`**Status:** ${status}`);
  const lead = str(data.optAt("lead", "name"));
  if (lead !== undefined) inline.push(`**Lead:** ${lead}`);
  const priority = priorityLabel(data);
  if (priority !== undefined) inline.push(`**Priority:** ${priority}`);
  const dates: string[] = [];
  for (const [field, label] of [
    ["startDate", "Start date"],
    ["targetDate", "Target date"],
  ] as const) {
    const value = str(data.opt(field));
    if (value !== undefined && value !== "") dates.push(`**${label}:** ${value}`);
  }
  const milestones = (data.opt("milestones")?.items() ?? [])
    .map((m) => str(m.opt("name")))
    .filter((n): n is string => n !== undefined);
  let bullets =
    milestones.length === 0
      ? []
      : [`**${milestones.length === 1 ? "Milestone" : "Milestones"}:** ${milestones.join(", ")}`];
  if (description !== "") {
    body += `:${quote(dates.length > 0 ? `${description}\n${dates.join(" – ")}` : description)}`;
  } else {
    bullets = [...dates, ...bullets];
  }
  const lines = [...(inline.length > 0 ? [inline.join(" · ")] : []), ...bullets.map((b) => `- ${b}`)];
  if (lines.length === 0) return message(topic, description === "" ? `${body}.` : body);
  return message(topic, description === "" ? `${body}\n${lines.join("\n")}` : body + lines.join("\n"));
}

export function projectUpdate(p: Wild): HandlerResult {
  const data = p.get("data");
  const projectName = str(data.optAt("project", "name")) ?? "unknown";
  const topic = `Project: ${projectName}`;
  const user = str(data.optAt("user", "name")) ?? "Someone";
  if (action(p) === "remove") return message(topic, `${user} removed a status update on **${projectName}**.`);
  const health = str(data.opt("health")) ?? "unknown";
  let body =
    `${user} [${action(p) === "create" ? "posted" : "edited"}](${p.get("url").str()}) a status update on ` +
    `**${projectName}** (health: ${HEALTH_LABELS[health] ?? health}):${quote(str(data.opt("body")) ?? "")}`;
  const diff = str(data.opt("diffMarkdown"));
  if (diff !== undefined && diff !== "") body += `\n${diff}`;
  return message(topic, body);
}
