import { UnsupportedWebhookEventTypeError } from "../../src/errors.js";
import { defineIntegration } from "../kit/index.js";
import { pivotalBody } from "./read-body.js";
import { noteCreateV3, storyCreateV3, storyUpdateV3 } from "./v3.js";
import { commentCreateActivity, storyCreateActivity, storyMoveActivity, storyUpdateActivity } from "./v5.js";

/** v5 activity kinds Zulip knows but does not post. */
const SILENT_V5_KINDS = [
  "task_create_activity",
  "comment_delete_activity",
  "task_delete_activity",
  "task_update_activity",
  "story_move_from_project_activity",
  "story_delete_activity",
  "story_move_into_project_activity",
  "epic_update_activity",
  "label_create_activity",
] as const;

/** Handlers by Zulip's event name: the v3 `event_type` or v5 `kind`, suffixed with the API version. */
const EVENTS = {
  story_update_v3: storyUpdateV3,
  note_create_v3: noteCreateV3,
  story_create_v3: storyCreateV3,
  story_move_activity_v5: storyMoveActivity,
  story_create_activity_v5: storyCreateActivity,
  story_update_activity_v5: storyUpdateActivity,
  comment_create_activity_v5: commentCreateActivity,
};

/** The v5 event name; an unknown `kind` is unsupported under its own name, as Zulip names it. */
function v5Event(kind: string): string {
  const event = `${kind}_v5`;
  if (!(event in EVENTS) && !(SILENT_V5_KINDS as readonly string[]).includes(kind)) {
    throw new UnsupportedWebhookEventTypeError(kind, "Pivotal");
  }
  return event;
}

/** Pivotal Tracker story activity, from API v3 (XML) or v5 (JSON) activity webhooks. */
export default defineIntegration({
  name: "pivotal",
  displayName: "Pivotal",
  categories: ["project-management"],
  description:
    "Posts Pivotal Tracker story activity: new stories, state and estimate changes, comments, moves.",
  body: pivotalBody(),
  // Zulip's event names: the v3 `event_type` or v5 `kind`, suffixed with the API version.
  classify: ({ payload }) =>
    payload.get("format").value === "v3"
      ? `${payload.get("activity").opt("event_type")?.text() ?? ""}_v3`
      : v5Event(payload.get("kind").str()),
  events: EVENTS,
  // Activities Zulip knows but does not post.
  ignoredEvents: SILENT_V5_KINDS.map((kind) => `${kind}_v5`),
});
