import { defineIntegration, isEventWanted } from "../kit/index.js";
import type { Handler, HandlerResult } from "../kit/index.js";
import {
  CLUBHOUSE_EVENTS,
  DISPLAY_NAME,
  IGNORED_EVENTS,
  clubhouseMessages,
  eventOf,
  primaryActions,
} from "./messages.js";

/**
 * Every message of the payload. One call may post several (a PR linked to several stories, a
 * batch update), each with its own event name, so `only_events` / `exclude_events` are applied
 * here per message, as Zulip does, rather than once per call by the pipeline.
 */
const post: Handler = (p, ctx): HandlerResult =>
  clubhouseMessages(p)
    .filter(({ event }) => isEventWanted(ctx.params, event))
    .map(({ message }) => message);

/**
 * Clubhouse (Shortcut): POST /api/v1/external/clubhouse from a workspace's outgoing webhook
 * (Settings → Integrations → Webhooks). Stories, epics, tasks, comments, labels, attachments,
 * and GitHub PRs and branches linked to stories.
 */
export default defineIntegration({
  name: "clubhouse",
  displayName: DISPLAY_NAME,
  categories: ["project-management"],
  description: "Stories, epics, tasks, comments and linked GitHub PRs and branches in Clubhouse (Shortcut).",
  // Shortcut signs with Payload-Signature: hex HMAC-SHA256 of the body with the webhook's secret.
  signature: { kind: "hmac", header: "Payload-Signature", algorithm: "sha256" },
  classify: ({ payload }) => {
    // Clubhouse sometimes posts `null`: Zulip answers success and posts nothing.
    if (payload.isNull()) return "empty_payload";
    const events = primaryActions(payload).map((a) => eventOf(payload, a));
    return events.find((e) => !IGNORED_EVENTS.includes(e)) ?? events[0] ?? "empty_payload";
  },
  events: Object.fromEntries(CLUBHOUSE_EVENTS.map((e) => [e, post])),
  ignoredEvents: [...IGNORED_EVENTS, "empty_payload"],
  unfilteredEvents: CLUBHOUSE_EVENTS,
});
