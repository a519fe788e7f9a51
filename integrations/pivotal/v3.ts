import type { HandlerResult, Wild } from "../kit/index.js";
import { normalizeBody, truncateTopic } from "../kit/message-text.js";

/** A child element (the first, when repeated) of an XML element read by read-body.ts. */
function child(w: Wild | undefined, name: string): Wild | undefined {
  const c = w?.opt(name);
  if (c?.isList() === true) return c.items()[0];
  return c;
}

/** The text of the element at a path, or "" when an element is missing. */
function textAt(activity: Wild, ...path: string[]): string {
  let w: Wild | undefined = activity;
  for (const name of path) w = child(w, name);
  return typeof w?.value === "string" ? w.value : "";
}

interface StoryInfo {
  description: string;
  name: string;
  moreInfo: string;
}

function storyInfo(p: Wild): StoryInfo {
  const activity = p.get("activity");
  const description = textAt(activity, "description");
  const projectId = textAt(activity, "project_id");
  const storyId = textAt(activity, "stories", "story", "id");
  // The XML's URL is an API URL: build the one a person can open.
  const url = `https://www.pivotaltracker.com/s/projects/${projectId}/stories/${storyId}`;
  // Pivotal does not name the story; its name is usually the first quoted string of the description.
  const name = /^[^"]+"([^"]+)"/.exec(description)?.[1] ?? "Story changed";
  return { description, name, moreInfo: ` [(view)](${url}).` };
}

export function storyUpdateV3(p: Wild): HandlerResult {
  const s = storyInfo(p);
  return { topic: truncateTopic(s.name), body: normalizeBody(s.description + s.moreInfo) };
}

export function noteCreateV3(p: Wild): HandlerResult {
  const s = storyInfo(p);
  return { topic: "Comment added", body: normalizeBody(s.description + s.moreInfo) };
}

export function storyCreateV3(p: Wild): HandlerResult {
  const s = storyInfo(p);
  const activity = p.get("activity");
  const desc = textAt(activity, "stories", "story", "description");
  const type = textAt(activity, "stories", "story", "story_type");
  const state = textAt(activity, "stories", "story", "current_state");
  const estimate = textAt(activity, "stories", "story", "estimate");
  const worth = estimate === "" ? "" : ` worth ${estimate} story points`;
  return {
    topic: truncateTopic(s.name),
    body: normalizeBody(
      `${s.description} (${state} ${type}${worth}):\n\n~~~ quote\n${desc}\n~~~\n\n${s.moreInfo}`,
    ),
  };
}
