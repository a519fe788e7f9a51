import type { Wild } from "../kit/index.js";

/**
 * Taiga's webhook payloads (`action` create / change / delete / test, `type` the object kind) worded
 * as Zulip's Taiga integration words them: one line per change, sorted, in one message.
 */

type Values = Record<string, string | null>;

/** The templates per object type and change, with `{user}`, `{subject}`, `{old}`, `{new}` placeholders. */
const TEMPLATES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  epic: {
    create: "{user} created epic {subject}.",
    set_assigned_to: "{user} assigned epic {subject} to {new}.",
    unset_assigned_to: "{user} unassigned epic {subject}.",
    changed_assigned_to: "{user} reassigned epic {subject} from {old} to {new}.",
    blocked: "{user} blocked epic {subject}.",
    unblocked: "{user} unblocked epic {subject}.",
    changed_status: "{user} changed status of epic {subject} from {old} to {new}.",
    renamed: "{user} renamed epic from **{old}** to **{new}**.",
    description_diff: "{user} updated description of epic {subject}.",
    commented: "{user} commented on epic {subject}.",
    delete: "{user} deleted epic {subject}.",
  },
  relateduserstory: {
    create: "{user} added a related user story {userstory_subject} to the epic {epic_subject}.",
    delete: "{user} removed a related user story {userstory_subject} from the epic {epic_subject}.",
  },
  userstory: {
    create: "{user} created user story {subject}.",
    set_assigned_to: "{user} assigned user story {subject} to {new}.",
    unset_assigned_to: "{user} unassigned user story {subject}.",
    changed_assigned_to: "{user} reassigned user story {subject} from {old} to {new}.",
    points: "{user} changed estimation of user story {subject}.",
    blocked: "{user} blocked user story {subject}.",
    unblocked: "{user} unblocked user story {subject}.",
    set_milestone: "{user} added user story {subject} to sprint {new}.",
    unset_milestone: "{user} removed user story {subject} from sprint {old}.",
    changed_milestone: "{user} changed sprint of user story {subject} from {old} to {new}.",
    changed_status: "{user} changed status of user story {subject} from {old} to {new}.",
    closed: "{user} closed user story {subject}.",
    reopened: "{user} reopened user story {subject}.",
    renamed: "{user} renamed user story from {old} to **{new}**.",
    description_diff: "{user} updated description of user story {subject}.",
    commented: "{user} commented on user story {subject}.",
    delete: "{user} deleted user story {subject}.",
    due_date: "{user} changed due date of user story {subject} from {old} to {new}.",
    set_due_date: "{user} set due date of user story {subject} to {new}.",
  },
  milestone: {
    create: "{user} created sprint {subject}.",
    renamed: "{user} renamed sprint from {old} to **{new}**.",
    estimated_start: "{user} changed estimated start of sprint {subject} from {old} to {new}.",
    estimated_finish: "{user} changed estimated finish of sprint {subject} from {old} to {new}.",
    set_estimated_start: "{user} changed estimated start of sprint {subject} to {new}.",
    set_estimated_finish: "{user} set estimated finish of sprint {subject} to {new}.",
    delete: "{user} deleted sprint {subject}.",
  },
  task: {
    create: "{user} created task {subject}.",
    set_assigned_to: "{user} assigned task {subject} to {new}.",
    unset_assigned_to: "{user} unassigned task {subject}.",
    changed_assigned_to: "{user} reassigned task {subject} from {old} to {new}.",
    blocked: "{user} blocked task {subject}.",
    unblocked: "{user} unblocked task {subject}.",
    changed_status: "{user} changed status of task {subject} from {old} to {new}.",
    renamed: "{user} renamed task {old} to **{new}**.",
    description_diff: "{user} updated description of task {subject}.",
    set_milestone: "{user} added task {subject} to sprint {new}.",
    commented: "{user} commented on task {subject}.",
    delete: "{user} deleted task {subject}.",
    changed_us: "{user} moved task {subject} from user story {old} to {new}.",
    due_date: "{user} changed due date of task {subject} from {old} to {new}.",
    set_due_date: "{user} set due date of task {subject} to {new}.",
  },
  issue: {
    create: "{user} created issue {subject}.",
    set_assigned_to: "{user} assigned issue {subject} to {new}.",
    unset_assigned_to: "{user} unassigned issue {subject}.",
    changed_assigned_to: "{user} reassigned issue {subject} from {old} to {new}.",
    set_milestone: "{user} added issue {subject} to sprint {new}.",
    unset_milestone: "{user} detached issue {subject} from sprint {old}.",
    changed_priority: "{user} changed priority of issue {subject} from {old} to {new}.",
    changed_severity: "{user} changed severity of issue {subject} from {old} to {new}.",
    changed_status: "{user} changed status of issue {subject} from {old} to {new}.",
    changed_type: "{user} changed type of issue {subject} from {old} to {new}.",
    renamed: "{user} renamed issue {old} to **{new}**.",
    description_diff: "{user} updated description of issue {subject}.",
    commented: "{user} commented on issue {subject}.",
    delete: "{user} deleted issue {subject}.",
    due_date: "{user} changed due date of issue {subject} from {old} to {new}.",
    set_due_date: "{user} set due date of issue {subject} to {new}.",
    blocked: "{user} blocked issue {subject}.",
    unblocked: "{user} unblocked issue {subject}.",
  },
  webhook_test: {
    test: "{user} triggered a test of the Taiga integration.",
  },
};

/** The object kinds Taiga sends (the keys of the templates). */
export const TAIGA_TYPES = Object.keys(TEMPLATES);

/** A diff value as Python's `str.format` shows it: null/absent → "None", booleans True/False. */
function shown(v: Wild | undefined): string | null {
  if (v === undefined || v.isNull()) return null;
  if (typeof v.value === "string") return v.value;
  if (typeof v.value === "boolean") return v.value ? "True" : "False";
  if (typeof v.value === "number") return String(v.value);
  return JSON.stringify(v.value);
}

function fill(template: string, values: Values): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) =>
    key in values ? (values[key] ?? "None") : whole,
  );
}

function displayUser(p: Wild): string {
  const by = p.get("by");
  return `[${by.get("full_name").text()}](${by.get("permalink").text()})`;
}

/** The object's subject (or name, for sprints), linked when Taiga sends its permalink. */
function linked(data: Wild, nameKey = "name"): string {
  const subject = data.opt("subject")?.text();
  const text = subject !== undefined && subject !== "" ? subject : data.get(nameKey).text();
  const link = data.opt("permalink");
  return link !== undefined ? `[${text}](${link.text()})` : `**${text}**`;
}

function linkedSubject(obj: Wild): string {
  const link = obj.opt("permalink");
  const subject = obj.get("subject").text();
  return link !== undefined ? `[${subject}](${link.text()})` : `**${subject}**`;
}

interface Change {
  event: string;
  values: Values;
}

function isTruthy(s: string | null): boolean {
  return s !== null && s !== "";
}

/** One entry of `change.diff`: the change it stands for, or null for diffs Zulip does not report. */
function changeOf(key: string, diff: Wild, base: Values): Change | null {
  const from = shown(diff.opt("from"));
  const to = shown(diff.opt("to"));
  switch (key) {
    case "description_diff":
    case "points":
      return { event: key, values: base };
    case "milestone":
    case "assigned_to":
      if (!isTruthy(from)) return { event: `set_${key}`, values: { ...base, new: to } };
      if (!isTruthy(to)) return { event: `unset_${key}`, values: { ...base, old: from } };
      return { event: `changed_${key}`, values: { ...base, old: from, new: to } };
    case "is_blocked":
      return { event: diff.opt("to")?.value === true ? "blocked" : "unblocked", values: base };
    case "is_closed":
      return { event: diff.opt("to")?.value === true ? "closed" : "reopened", values: base };
    case "user_story":
      return { event: "changed_us", values: { ...base, old: from, new: to } };
    case "subject":
    case "name":
      return { event: "renamed", values: { ...base, old: from, new: to } };
    case "estimated_finish":
    case "estimated_start":
    case "due_date":
      if (!isTruthy(from)) return { event: `set_${key}`, values: { ...base, new: to } };
      if (from !== to) return { event: key, values: { ...base, old: from, new: to } };
      return null;
    case "priority":
    case "severity":
    case "type":
    case "status":
      return { event: `changed_${key}`, values: { ...base, old: from, new: to } };
    default:
      return null;
  }
}

/** Every change the payload reports, as (event, values) pairs. */
function changesOf(p: Wild, type: string): Change[] {
  const action = p.get("action").text();
  if (action === "create" || action === "delete") {
    const data = p.get("data");
    if (type === "relateduserstory") {
      return [
        {
          event: action,
          values: {
            user: displayUser(p),
            epic_subject: linkedSubject(data.get("epic")),
            userstory_subject: linkedSubject(data.get("user_story")),
          },
        },
      ];
    }
    return [{ event: action, values: { user: displayUser(p), subject: linked(data) } }];
  }
  if (action === "change") {
    const base: Values = { user: displayUser(p), subject: linked(p.get("data")) };
    const change = p.opt("change");
    const out: Change[] = [];
    const diff = change?.opt("diff");
    if (diff?.isObject() === true) {
      for (const [key, value] of diff.entries()) {
        const c = changeOf(key, value, base);
        if (c !== null) out.push(c);
      }
    }
    const comment = change?.opt("comment")?.value;
    if (typeof comment === "string" && comment !== "") out.push({ event: "commented", values: base });
    return out;
  }
  if (action === "test") return [{ event: "test", values: { user: displayUser(p) } }];
  return [];
}

/** Python's default string order (code points), for the sorted lines. */
function byCodePoint(a: string, b: string): number {
  const ca = Array.from(a);
  const cb = Array.from(b);
  for (let i = 0; i < Math.min(ca.length, cb.length); i++) {
    const x = ca[i]?.codePointAt(0) ?? 0;
    const y = cb[i]?.codePointAt(0) ?? 0;
    if (x !== y) return x - y;
  }
  return ca.length - cb.length;
}

/**
 * The message lines for a payload of `type`, sorted. Changes without a template for the type
 * (e.g. a sprint on an epic) are left out rather than failing the request.
 */
export function taigaLines(p: Wild, type: string): string[] {
  const templates = TEMPLATES[type] ?? {};
  const lines: string[] = [];
  for (const { event, values } of changesOf(p, type)) {
    const template = templates[event];
    if (template !== undefined) lines.push(fill(template, values));
  }
  return lines.sort(byCodePoint);
}

/** Zulip's topic: the sprint's name when the object belongs to one, else "General". */
export function taigaTopic(p: Wild): string {
  const milestone = p.opt("data")?.opt("milestone");
  const name = milestone?.isObject() === true ? milestone.opt("name") : undefined;
  return name !== undefined ? name.text() : "General";
}
