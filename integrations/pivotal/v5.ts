import type { HandlerResult, Wild } from "../kit/index.js";
import { normalizeBody, truncateTopic } from "../kit/message-text.js";
import { pythonNumberStr } from "../kit/python-json.js";

/** A JSON value as Python's `str()` shows it in Zulip's messages. */
function pyStr(w: Wild | undefined): string {
  const v = w?.value;
  if (v === undefined || v === null) return "None";
  if (typeof v === "string") return v;
  if (typeof v === "number") return pythonNumberStr(v);
  if (typeof v === "boolean") return v ? "True" : "False";
  return JSON.stringify(v);
}

/** Whether an object has the key (even with a null value), as Python's `in`. */
function hasKey(w: Wild | undefined, key: string): boolean {
  return w?.isObject() === true && Object.prototype.hasOwnProperty.call(w.value, key);
}

interface Story {
  topic: string;
  info: string;
  performedBy: string;
  storyType: string;
  changes: Wild[];
}

function story(p: Wild): Story {
  const project = p.get("project");
  const resource = p.get("primary_resources").index(0);
  const id = resource.get("id").text();
  const name = resource.get("name").str();
  const projectLink = `[${project.get("name").str()}](https://www.pivotaltracker.com/s/projects/${project.get("id").text()})`;
  return {
    topic: truncateTopic(`#${id}: ${name}`),
    info: `${projectLink}: [${name}](${resource.get("url").str()})`,
    performedBy: p.optAt("performed_by", "name")?.text() ?? "Someone",
    storyType: pyStr(resource.opt("story_type")),
    changes: p.opt("changes")?.items() ?? [],
  };
}

/** The text of a comment change, if the change is one. */
function comment(change: Wild): string | undefined {
  if (change.opt("kind")?.value !== "comment") return undefined;
  const text = change.optAt("new_values", "text");
  return text === undefined ? undefined : pyStr(text);
}

export function storyUpdateActivity(p: Wild): HandlerResult {
  const s = story(p);
  let content = `${s.performedBy} updated ${s.info}:\n`;
  for (const change of s.changes) {
    const old = change.opt("original_values");
    const now = change.opt("new_values");
    if (hasKey(old, "current_state") && hasKey(now, "current_state")) {
      content += `* state changed from **${pyStr(old?.opt("current_state"))}** to **${pyStr(now?.opt("current_state"))}**\n`;
    }
    if (hasKey(old, "estimate") && hasKey(now, "estimate")) {
      const before = old?.opt("estimate");
      const estimate = before === undefined ? "is now" : `changed from ${pyStr(before)} to`;
      const after = now?.opt("estimate");
      content += `* estimate ${estimate} **${after === undefined ? "0" : pyStr(after)} points**\n`;
    }
    if (hasKey(old, "story_type") && hasKey(now, "story_type")) {
      content += `* type changed from **${pyStr(old?.opt("story_type"))}** to **${pyStr(now?.opt("story_type"))}**\n`;
    }
    const text = comment(change);
    if (text !== undefined) content += `* Comment added:\n~~~quote\n${text}\n~~~\n`;
  }
  return { topic: s.topic, body: normalizeBody(content) };
}

export function commentCreateActivity(p: Wild): HandlerResult {
  const s = story(p);
  let content = "";
  for (const change of s.changes) {
    const text = comment(change);
    if (text !== undefined)
      content += `${s.performedBy} added a comment to ${s.info}:\n~~~quote\n${text}\n~~~`;
  }
  // An activity without a comment's text has nothing to say.
  return content === "" ? null : { topic: s.topic, body: normalizeBody(content) };
}

export function storyCreateActivity(p: Wild): HandlerResult {
  const s = story(p);
  let content = `${s.performedBy} created ${s.storyType}: ${s.info}\n`;
  for (const change of s.changes) {
    const now = change.opt("new_values");
    if (hasKey(now, "current_state")) content += `* State is **${pyStr(now?.opt("current_state"))}**\n`;
    if (hasKey(now, "description")) content += `* Description is\n\n> ${pyStr(now?.opt("description"))}`;
  }
  return { topic: s.topic, body: normalizeBody(content) };
}

export function storyMoveActivity(p: Wild): HandlerResult {
  const s = story(p);
  let content = `${s.performedBy} moved ${s.info}`;
  for (const change of s.changes) {
    const old = change.opt("original_values");
    const now = change.opt("new_values");
    if (hasKey(old, "current_state") && hasKey(now, "current_state")) {
      content += ` from **${pyStr(old?.opt("current_state"))}** to **${pyStr(now?.opt("current_state"))}**.`;
    }
  }
  return { topic: s.topic, body: normalizeBody(content) };
}
