import { defineIntegration } from "../kit/index.js";
import { pivotalBody } from "./read-body.js";
import { noteCreateV3, storyCreateV3, storyUpdateV3 } from "./v3.js";
import { commentCreateActivity, storyCreateActivity, storyMoveActivity, storyUpdateActivity } from "./v5.js";

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
      : `${payload.get("kind").str()}_v5`,
  events: {
    story_update_v3: storyUpdateV3,
    note_create_v3: noteCreateV3,
    story_create_v3: storyCreateV3,
    story_move_activity_v5: storyMoveActivity,
    story_create_activity_v5: storyCreateActivity,
    story_update_activity_v5: storyUpdateActivity,
    comment_create_activity_v5: commentCreateActivity,
  },
  // Activities Zulip knows but does not post.
  ignoredEvents: [
    "task_create_activity_v5",
    "comment_delete_activity_v5",
    "task_delete_activity_v5",
    "task_update_activity_v5",
    "story_move_from_project_activity_v5",
    "story_delete_activity_v5",
    "story_move_into_project_activity_v5",
    "epic_update_activity_v5",
    "label_create_activity_v5",
  ],
});
