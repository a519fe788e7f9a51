import { AnomalousWebhookPayloadError, UnsupportedWebhookEventTypeError } from "../../src/errors.js";
import type { WebhookMessage, Wild } from "../kit/index.js";
import { truncateTopic } from "../kit/message-text.js";

/**
 * Clubhouse (now Shortcut) v1 webhooks: a payload lists `actions` (one per changed entity) and
 * `references` (names of the ids they mention); `primary_id` names the action the change is about
 * (absent for batch updates of several stories). Worded as Zulip's Clubhouse integration words it.
 */

type Body = (p: Wild, a: Wild) => string | null;

/** Python's `key in dict` (present, even when null). */
function hasKey(w: Wild | undefined, key: string): boolean {
  return w !== undefined && w.isObject() && Object.prototype.hasOwnProperty.call(w.value, key);
}

/** A value as Python's `str.format` shows it (None, True/False, ints). */
function py(w: Wild | undefined): string {
  if (w === undefined || w.isNull()) return "None";
  if (typeof w.value === "boolean") return w.value ? "True" : "False";
  return w.text();
}

function actionsOf(p: Wild): Wild[] {
  const a = p.opt("actions");
  return a?.isList() === true ? a.items() : [];
}

function referencesOf(p: Wild): Wild[] {
  const r = p.opt("references");
  return r?.isList() === true ? r.items() : [];
}

/** The last reference with this id (ids compare by value and type, as in Zulip). */
function refById(p: Wild, id: unknown): Wild | undefined {
  let found: Wild | undefined;
  for (const ref of referencesOf(p)) if (ref.opt("id")?.value === id) found = ref;
  return found;
}

function refName(p: Wild, id: Wild | undefined): string {
  return py(refById(p, id?.value)?.opt("name"));
}

function storyLink(a: Wild): string {
  return `[${a.get("name").text()}](${py(a.opt("app_url"))})`;
}

function nameTemplate(entity: string, a: Wild): string {
  return entity === "story" ? storyLink(a) : `**${a.get("name").text()}**`;
}

function changesOf(a: Wild): Wild {
  return a.get("changes");
}

function primaryAction(p: Wild): Wild | undefined {
  const id = p.opt("primary_id")?.value;
  let found: Wild | undefined;
  for (const a of actionsOf(p)) if (a.opt("id")?.value === id) found = a;
  return found;
}

const quote = (text: string): string => "``` quote\n" + text + "\n```";

function deleted(_p: Wild, a: Wild): string {
  return `The ${a.get("entity_type").text()} **${a.get("name").text()}** was deleted.`;
}

function storyCreated(p: Wild, a: Wild): string {
  const epicId = a.opt("epic_id");
  if (epicId === undefined) {
    return `New story ${storyLink(a)} of type **${a.get("story_type").text()}** was created.`;
  }
  return `New story ${storyLink(a)} was created and added to the epic **${refName(p, epicId)}**.`;
}

function epicCreated(_p: Wild, a: Wild): string {
  return `New epic **${a.get("name").text()}**(${py(a.opt("state"))}) was created.`;
}

function commentAdded(entity: string): Body {
  return (p) => {
    const primaryId = p.opt("primary_id")?.value;
    let text = "None";
    let name: string | undefined;
    for (const action of actionsOf(p)) {
      if (action.opt("id")?.value === primaryId) text = py(action.opt("text"));
      else if (action.opt("entity_type")?.value === entity) name = nameTemplate(entity, action);
    }
    if (name === undefined) {
      const ref = referencesOf(p).find((r) => r.opt("entity_type")?.value === entity);
      name = ref !== undefined ? nameTemplate(entity, ref) : "None";
    }
    return `New comment added to the ${entity} ${name}:\n${quote(text)}`;
  };
}

function descriptionChanged(entity: string): Body {
  return (_p, a) => {
    const desc = changesOf(a).get("description");
    const next = desc.opt("new")?.text() ?? "";
    const old = desc.opt("old")?.text() ?? "";
    const name = nameTemplate(entity, a);
    if (next !== "" && old !== "") {
      return `Description for the ${entity} ${name} was changed from:\n${quote(old)}\nto\n${quote(next)}`;
    }
    if (next !== "") return `New description added to the ${entity} ${name}:\n${quote(next)}`;
    return `Description for the ${entity} ${name} was removed.`;
  };
}

function stateChanged(entity: string, name: string, old: string, next: string): string {
  return `State of the ${entity} ${name} was changed from **${old}** to **${next}**.`;
}

function epicStateChanged(_p: Wild, a: Wild): string {
  const state = changesOf(a).get("state");
  return stateChanged("epic", `**${a.get("name").text()}**`, py(state.opt("old")), py(state.opt("new")));
}

function storyStateChanged(p: Wild, a: Wild): string {
  const ids = changesOf(a).get("workflow_state_id");
  return stateChanged("story", storyLink(a), refName(p, ids.opt("old")), refName(p, ids.opt("new")));
}

function nameChanged(entity: string): Body {
  return (_p, a) => {
    const name = changesOf(a).get("name");
    return (
      `The name of the ${entity} ${nameTemplate(entity, a)} was changed from:\n` +
      `${quote(py(name.opt("old")))}\nto\n${quote(py(name.opt("new")))}`
    );
  };
}

function archived(entity: string): Body {
  return (_p, a) => {
    const now = changesOf(a).get("archived").opt("new")?.value;
    return `The ${entity} ${nameTemplate(entity, a)} was ${now === true ? "archived" : "unarchived"}.`;
  };
}

/** The story a task belongs to: the story action, else the referenced story. */
function taskStory(p: Wild, a: Wild): string {
  let story: string | undefined;
  for (const action of actionsOf(p))
    if (action.opt("entity_type")?.value === "story") story = storyLink(action);
  if (story !== undefined) return story;
  const ref = refById(p, a.opt("story_id")?.value);
  return ref !== undefined ? storyLink(ref) : "None";
}

function taskAddedOrRemoved(operation: string): Body {
  return (p, a) => `Task **${a.get("description").text()}** was ${operation} the story ${taskStory(p, a)}.`;
}

function taskCompleted(p: Wild, a: Wild): string | null {
  if (changesOf(a).get("complete").opt("new")?.value !== true) return null;
  const ref = refById(p, a.opt("story_id")?.value);
  const story = ref !== undefined ? storyLink(ref) : "None";
  return `Task **${a.get("description").text()}** (${story}) was completed. :tada:`;
}

function epicChanged(p: Wild, a: Wild): string {
  const ids = changesOf(a).get("epic_id");
  const next = ids.opt("new");
  const old = ids.opt("old");
  const story = storyLink(a);
  const truthy = (w: Wild | undefined): boolean => w !== undefined && w.value !== 0 && w.value !== false;
  if (truthy(next) && truthy(old)) {
    return `The story ${story} was moved from **${refName(p, old)}** to **${refName(p, next)}**.`;
  }
  if (truthy(next)) return `The story ${story} was added to the epic **${refName(p, next)}**.`;
  return `The story ${story} was removed from the epic **${refName(p, old)}**.`;
}

function estimateChanged(_p: Wild, a: Wild): string {
  const next = changesOf(a).get("estimate").opt("new");
  const estimate = next !== undefined ? `${next.text()} points` : "*Unestimated*";
  return `The estimate for the story ${storyLink(a)} was set to ${estimate}.`;
}

function workflowTrail(p: Wild, changes: Wild): string {
  const ids = changes.opt("workflow_state_id");
  if (!hasKey(changes, "workflow_state_id") || ids === undefined) return "";
  return ` (${refName(p, ids.opt("old"))} -> ${refName(p, ids.opt("new"))})`;
}

function githubEntity(entity: "pull-request" | "pull-request-comment" | "branch"): Body {
  return (p, a) => {
    const source = primaryAction(p);
    if (source === undefined) return null;
    const name = entity === "branch" ? source.get("name").text() : source.get("number").text();
    const url = source.get("url").text();
    const trail = workflowTrail(p, changesOf(a));
    if (entity === "pull-request")
      return `New GitHub PR [#${name}](${url}) opened for story ${storyLink(a)}${trail}.`;
    if (entity === "pull-request-comment") {
      return `Existing GitHub PR [#${name}](${url}) associated with story ${storyLink(a)}${trail}.`;
    }
    return `New GitHub branch [${name}](${url}) associated with story ${storyLink(a)}${trail}.`;
  };
}

function attachmentAdded(p: Wild, a: Wild): string | null {
  const ids = changesOf(a).get("file_ids");
  if (!hasKey(ids, "adds")) return null;
  const first = ids.get("adds").items()[0];
  const ref = refById(p, first?.value);
  return (
    `A ${py(ref?.opt("entity_type"))} attachment \`${py(ref?.opt("name"))}\` ` +
    `was added to the story ${storyLink(a)}.`
  );
}

function labelList(p: Wild, ids: Wild[]): string {
  return ids
    .map((id) => {
      let name = "";
      for (const action of actionsOf(p)) {
        if (action.opt("id")?.value === id.value) name = action.opt("name")?.text() ?? "";
      }
      if (name === "") name = refById(p, id.value)?.opt("name")?.text() ?? "";
      return `**${name}**`;
    })
    .join(", ");
}

function labelsAdded(p: Wild, a: Wild): string | null {
  const ids = changesOf(a).get("label_ids");
  if (!hasKey(ids, "adds")) return null;
  const added = ids.get("adds").items();
  const labels = labelList(p, added);
  return added.length === 1
    ? `The label ${labels} was added to the story ${storyLink(a)}.`
    : `The labels ${labels} were added to the story ${storyLink(a)}.`;
}

function projectChanged(p: Wild, a: Wild): string {
  const ids = changesOf(a).get("project_id");
  return (
    `The story ${storyLink(a)} was moved from the **${refName(p, ids.opt("old"))}** project ` +
    `to **${refName(p, ids.opt("new"))}**.`
  );
}

function typeChanged(_p: Wild, a: Wild): string {
  const t = changesOf(a).get("story_type");
  return (
    `The type of the story ${storyLink(a)} was changed from **${py(t.opt("old"))}** ` +
    `to **${py(t.opt("new"))}**.`
  );
}

function ownerAdded(_p: Wild, a: Wild): string {
  return `New owner added to the story ${storyLink(a)}.`;
}

/** Several attributes of several stories changed at once (no primary_id). */
function batchUpdate(p: Wild, a: Wild): string | null {
  const changes = changesOf(a);
  const templates: string[] = [];
  let last = "other";
  const moves: string[] = [];
  const sub = (label: string, old: string, next: string): string => `${label} **${old}** to **${next}**`;
  if (hasKey(changes, "epic_id")) {
    last = "epic";
    const ids = changes.get("epic_id");
    moves.push(sub("Epic", refName(p, ids.opt("old")), refName(p, ids.opt("new"))));
  }
  if (hasKey(changes, "project_id")) {
    last = "project";
    const ids = changes.get("project_id");
    moves.push(sub("Project", refName(p, ids.opt("old")), refName(p, ids.opt("new"))));
  }
  if (moves.length > 0) templates.push(`was moved from ${moves.join(", ")}`);
  if (hasKey(changes, "story_type")) {
    last = "type";
    const t = changes.get("story_type");
    const op = templates.length === 0 ? "was" : "and";
    templates.push(`${op} changed from ${sub("type", py(t.opt("old")), py(t.opt("new")))}`);
  }
  if (hasKey(changes, "label_ids")) {
    const ids = changes.get("label_ids");
    if (hasKey(ids, "adds")) {
      last = "label";
      const labels = labelList(p, ids.get("adds").items());
      const op = templates.length === 0 ? "was" : "and";
      // Zulip counts the keys of label_ids (adds/removes) for the plural, not the labels.
      const plural = ids.keys().length > 1 ? "s" : "";
      templates.push(`${op} added with the new label${plural} ${labels}`);
    }
  }
  let trail = "";
  if (hasKey(changes, "workflow_state_id")) {
    last = "state";
    trail = workflowTrail(p, changes);
  }
  if (templates.length <= 1) {
    const single = BODIES[`story_update_${last}`];
    return single === undefined ? null : single(p, a);
  }
  return `The story ${storyLink(a)} ${templates.join(", ")}${trail}.`;
}

/** Zulip's event names (its ALL_EVENT_TYPES) and how each is worded. */
const BODIES: Readonly<Record<string, Body>> = {
  story_update_archived: archived("story"),
  epic_update_archived: archived("epic"),
  story_create: storyCreated,
  "pull-request_create": githubEntity("pull-request"),
  "pull-request_comment": githubEntity("pull-request-comment"),
  branch_create: githubEntity("branch"),
  story_delete: deleted,
  epic_delete: deleted,
  "story-task_create": taskAddedOrRemoved("added to"),
  "story-task_delete": taskAddedOrRemoved("removed from"),
  "story-task_update_complete": taskCompleted,
  story_update_epic: epicChanged,
  story_update_estimate: estimateChanged,
  story_update_attachment: attachmentAdded,
  story_update_label: labelsAdded,
  story_update_owner: ownerAdded,
  story_update_project: projectChanged,
  story_update_type: typeChanged,
  epic_create: epicCreated,
  "epic-comment_create": commentAdded("epic"),
  "story-comment_create": commentAdded("story"),
  epic_update_description: descriptionChanged("epic"),
  story_update_description: descriptionChanged("story"),
  epic_update_state: epicStateChanged,
  story_update_state: storyStateChanged,
  epic_update_name: nameChanged("epic"),
  story_update_name: nameChanged("story"),
  story_update_batch: batchUpdate,
};

export const CLUBHOUSE_EVENTS = Object.keys(BODIES);

/** Comment edits post nothing. */
export const IGNORED_EVENTS = ["story-comment_update"];

/** The entity whose name is the topic, per action entity type. */
const TOPIC_ENTITY: Readonly<Record<string, string>> = {
  story: "story",
  "pull-request": "story",
  branch: "story",
  "story-comment": "story",
  "story-task": "story",
  epic: "epic",
  "epic-comment": "epic",
};

/** Actions whose story changes are posted instead of the action itself (a PR linked to stories). */
const SECONDARY_CHANGE: Readonly<Record<string, string>> = {
  "pull-request_create": "pull_request_ids",
  branch_create: "branch_ids",
  "pull-request_comment": "pull_request_ids",
};

const CHANGE_SUFFIXES: readonly [string, string][] = [
  ["description", "description"],
  ["state", "state"],
  ["workflow_state_id", "state"],
  ["name", "name"],
  ["archived", "archived"],
  ["complete", "complete"],
  ["epic_id", "epic"],
  ["estimate", "estimate"],
  ["file_ids", "attachment"],
  ["label_ids", "label"],
  ["project_id", "project"],
  ["story_type", "type"],
  ["owner_ids", "owner"],
];

/** Zulip's event name of an action: `<entity_type>_<action>[_<what changed>]`. */
export function eventOf(p: Wild, a: Wild): string {
  const event = `${a.get("entity_type").text()}_${a.get("action").text()}`;
  if (event === "story_update" && !hasKey(p, "primary_id")) return "story_update_batch";
  if (IGNORED_EVENTS.includes(event)) return event;
  if (!hasKey(a, "changes")) return event;
  const changes = a.get("changes");
  const hit = CHANGE_SUFFIXES.find(([key]) => hasKey(changes, key));
  return hit === undefined ? event : `${event}_${hit[1]}`;
}

/**
 * The actions a payload is about: the primary one, or every action of a batch. A `primary_id`
 * that names none of the actions is not a payload Shortcut sends: Zulip rejects it as anomalous,
 * naming Clubhouse under either URL.
 */
export function primaryActions(p: Wild): Wild[] {
  if (!hasKey(p, "primary_id")) return p.get("actions").items();
  const a = primaryAction(p);
  if (a === undefined) throw new AnomalousWebhookPayloadError("Clubhouse");
  return [a];
}

function topicOf(entity: string, p: Wild, a: Wild): string | undefined {
  let name = a.opt("name")?.text();
  if (name === undefined || a.opt("entity_type")?.value === "branch") {
    for (const action of actionsOf(p))
      if (action.opt("entity_type")?.value === entity) name = action.opt("name")?.text();
  }
  if (name === undefined) {
    for (const ref of referencesOf(p))
      if (ref.opt("entity_type")?.value === entity) name = ref.opt("name")?.text();
  }
  return name;
}

/**
 * Every message of a payload with its event name (for per-message `only_events` filtering);
 * `displayName` names the integration in the unsupported-event error.
 */
export function clubhouseMessages(
  p: Wild,
  displayName: string,
): { event: string; message: WebhookMessage }[] {
  const out: { event: string; message: WebhookMessage }[] = [];
  const send = (a: Wild, event: string): void => {
    const body = BODIES[event];
    const entity = TOPIC_ENTITY[a.get("entity_type").text()];
    if (body === undefined || entity === undefined)
      throw new UnsupportedWebhookEventTypeError(event, displayName);
    const topic = topicOf(entity, p, a);
    const text = body(p, a);
    if (topic !== undefined && topic !== "" && text !== null && text !== "") {
      out.push({ event, message: { topic: truncateTopic(topic), body: text } });
    }
  };
  for (const action of primaryActions(p)) {
    const event = eventOf(p, action);
    if (IGNORED_EVENTS.includes(event)) continue;
    const changed = SECONDARY_CHANGE[event];
    if (changed === undefined) {
      send(action, event);
      continue;
    }
    for (const story of actionsOf(p)) {
      if (story.opt("entity_type")?.value === "story" && hasKey(story.opt("changes"), changed))
        send(story, event);
    }
  }
  return out;
}
