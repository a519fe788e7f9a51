import { defineIntegration } from "../kit/index.js";
import type { HandlerResult, Wild } from "../kit/index.js";
import { normalizeBody, truncateTopic } from "../kit/message-text.js";
import { taigaLines, taigaTopic } from "./messages.js";

/** Every change of one payload, one line each, in one message (topic: the sprint, or "General"). */
function post(type: string): (p: Wild) => HandlerResult {
  return (p) => {
    const lines = taigaLines(p, type);
    if (lines.length === 0) return null;
    return { topic: truncateTopic(taigaTopic(p)), body: normalizeBody(lines.map((l) => `${l}\n`).join("")) };
  };
}

const EVENTS = [
  "epic",
  "relateduserstory",
  "userstory",
  "milestone",
  "task",
  "issue",
  "webhook_test",
] as const;

/**
 * Taiga: POST /api/v1/external/taiga from a project's webhook (Admin → Integrations → Webhooks).
 * Events are Taiga's object types; Zulip's integration passes no event type, so `only_events` /
 * `exclude_events` never drop a Taiga message here either.
 */
export default defineIntegration({
  name: "taiga",
  displayName: "Taiga",
  categories: ["project-management"],
  description: "Epics, user stories, tasks, issues and sprints created, changed and deleted in Taiga.",
  // Taiga signs with X-TAIGA-WEBHOOK-SIGNATURE: hex HMAC-SHA1 of the body with the webhook's key.
  signature: { kind: "hmac", header: "X-Taiga-Webhook-Signature", algorithm: "sha1" },
  classify: ({ payload }) =>
    payload.opt("action")?.text() === "test" ? "webhook_test" : payload.get("type").text(),
  events: {
    epic: post("epic"),
    relateduserstory: post("relateduserstory"),
    userstory: post("userstory"),
    milestone: post("milestone"),
    task: post("task"),
    issue: post("issue"),
    webhook_test: post("webhook_test"),
  },
  unfilteredEvents: EVENTS,
});
