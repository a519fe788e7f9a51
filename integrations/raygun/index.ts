import { defineIntegration } from "../kit/index.js";
import { DISPLAY_NAME, errorActivity, errorNotification } from "./messages.js";

/**
 * Raygun: error notifications (new, reoccurred, follow-ups) and activity on errors (status
 * changes, assignments, comments). Event names are Raygun's `event`; every message goes to the
 * topic "test", as Zulip's integration does.
 */
export default defineIntegration({
  name: "raygun",
  displayName: DISPLAY_NAME,
  categories: ["monitoring"],
  description: "Posts Raygun errors (new, reoccurred, follow-ups) and what is done to them.",
  classify: ({ payload }) => payload.get("event").str(),
  events: {
    error_notification: (p, ctx) => errorNotification(p, ctx.rawBody),
    error_activity: (p) => errorActivity(p),
  },
});
