import { defineIntegration, isEventWanted } from "../kit/index.js";
import type { Handler, HandlerResult, Integration } from "../kit/index.js";
import { CLUBHOUSE_EVENTS, IGNORED_EVENTS, clubhouseMessages, eventOf, primaryActions } from "./messages.js";

/**
 * Shortcut's (formerly Clubhouse's) webhook under one URL name: stories, epics, tasks, comments,
 * labels, attachments, and GitHub PRs and branches linked to stories. `shortcut` (Zulip 12's name)
 * and the legacy `clubhouse` are the same integration under two names.
 */
export function shortcutIntegration(name: string, displayName: string, description: string): Integration {
  /**
   * Every message of the payload. One call may post several (a PR linked to several stories, a
   * batch update), each with its own event name, so `only_events` / `exclude_events` are applied
   * here per message, as Zulip does, rather than once per call by the pipeline.
   */
  const post: Handler = (p, ctx): HandlerResult =>
    clubhouseMessages(p, displayName)
      .filter(({ event }) => isEventWanted(ctx.params, event))
      .map(({ message }) => message);

  return defineIntegration({
    name,
    displayName,
    categories: ["project-management"],
    description,
    // Shortcut signs with Payload-Signature: hex HMAC-SHA256 of the body with the webhook's secret.
    signature: { kind: "hmac", header: "Payload-Signature", algorithm: "sha256" },
    classify: ({ payload }) => {
      // Shortcut sometimes posts `null`: Zulip answers success and posts nothing.
      if (payload.isNull()) return "empty_payload";
      const events = primaryActions(payload).map((a) => eventOf(payload, a));
      return events.find((e) => !IGNORED_EVENTS.includes(e)) ?? events[0] ?? "empty_payload";
    },
    events: Object.fromEntries(CLUBHOUSE_EVENTS.map((e) => [e, post])),
    ignoredEvents: [...IGNORED_EVENTS, "empty_payload"],
    unfilteredEvents: CLUBHOUSE_EVENTS,
  });
}

/** Clubhouse: POST /api/v1/external/clubhouse, the URL Zulip used before the service became Shortcut. */
export default shortcutIntegration(
  "clubhouse",
  "Clubhouse",
  "Stories, epics, tasks, comments and linked GitHub PRs and branches in Clubhouse (now Shortcut; legacy URL).",
);
