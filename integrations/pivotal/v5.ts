import type { HandlerResult, Wild } from "../kit/index.js";
import { normalizeBody, truncateTopic } from "../kit/message-text.js";
import { pythonStr } from "../kit/python-json.js";

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
    storyType: pythonStr(resource.opt("story_type")?.value),
    changes: p.opt("changes")?.items() ?? [],
  };
}

/** The text of a comment change, if the change is one. */
function comment(change: Wild): string | undefined {
  if (change.opt("kind")?.value !== "comment") return undefined;
  const text = change.optAt("new_values", "text");
  return text === undefined ? undefined : pythonStr(text?.value);
}

export function storyUpdateActivity(p: Wild): HandlerResult {
  const s = story(p);
  let content = `${s.performedBy} updated ${s.info}:\n`;
  for (const change of s.changes) {
    const old = change.opt("original_values");
    const now = change.opt("new_values");
    if (hasKey(old, "current_state") && hasKey(now, "current_state")) {
      content += `* state changed from **${pythonStr(old?.opt("current_state")?.value)}** to **${pythonStr(now?.opt("current_state")?.value)}**\n`;
    }
    if (hasKey(old, "estimate") && hasKey(now, "estimate")) {
      const before = old?.opt("estimate");
      const estimate = before === undefined ? "is now" : `changed from ${pythonStr(before?.value)} to`;
      const after = now?.opt("estimate");
      content += `* estimate ${estimate} **${after === undefined ? "0" : pythonStr(after?.value)} points**\n`;
    }
    if (hasKey(old, "story_type") && hasKey(now, "story_type")) {
      content += `* type changed from **${pythonStr(old?.opt("story_type")?.value)}** to **${pythonStr(now?.opt("story_type")?.value)}**\n`;
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
    if (hasKey(now, "current_state"))
      content += `* State is **${pythonStr(now?.opt("current_state")?.value)}**\n`;
    if (hasKey(now, "description"))
      content += `* Description is\n\n> ${pythonStr(now?.opt("description")?.value)}`;
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
      content += ` from **${pythonStr(old?.opt("current_state")?.value)}** to **${pythonStr(now?.opt("current_state")?.value)}**.`;
    }
  }
  return { topic: s.topic, body: normalizeBody(content) };
}
