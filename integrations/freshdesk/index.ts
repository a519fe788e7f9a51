import { defineIntegration } from "../kit/index.js";
import type { HandlerResult, Wild } from "../kit/index.js";
import { normalizeBody, truncateTopic } from "../kit/message-text.js";
import { htmlToMarkdown } from "./html-to-markdown.js";

/** Freshdesk's status numbers (customizable per help desk; these are the defaults Zulip names). */
const STATUSES = [
  "",
  "",
  "Open",
  "Pending",
  "Resolved",
  "Closed",
  "Waiting on Customer",
  "Job Application",
  "Monthly",
];
const PRIORITIES = ["", "Low", "Medium", "High", "Urgent"];

function propertyName(property: string, index: string): string {
  const n = Number(index);
  const names = property === "status" ? STATUSES : property === "priority" ? PRIORITIES : [];
  return Number.isInteger(n) && n >= 0 && n < names.length ? (names[n] ?? index) : index;
}

/**
 * Freshdesk's `triggered_event` is not JSON: "{ticket_action:created}", "{note_type:public}" or
 * "{status:{from:4,to:6}}".
 */
export function parseTriggeredEvent(event: string): string[] {
  const data = event.replace(/[{}]/g, "").replace(/,/g, ":").split(":");
  if (data.length === 5) {
    const [property = "", , from = "", , to = ""] = data;
    return [property, propertyName(property, from), propertyName(property, to)];
  }
  return data;
}

const ticket = (p: Wild): Wild => p.get("freshdesk_webhook");
const field = (t: Wild, key: string): string => t.opt(key)?.text() ?? "";

function message(p: Wild, body: string): HandlerResult {
  const t = ticket(p);
  return {
    topic: truncateTopic(`#${t.get("ticket_id").text()}: ${field(t, "ticket_subject")}`),
    body: normalizeBody(body),
  };
}

const who = (t: Wild): string => `${field(t, "requester_name")} <${field(t, "requester_email")}>`;
const ticketLink = (t: Wild): string => `[ticket #${t.get("ticket_id").text()}](${field(t, "ticket_url")})`;

/** Freshdesk tickets: created, notes added, status and priority changes. */
export default defineIntegration({
  name: "freshdesk",
  displayName: "Freshdesk",
  categories: ["customer-support"],
  description: "Posts new Freshdesk tickets, notes, and status and priority changes.",
  classify: ({ payload }): string => {
    const [first = "", second = ""] = parseTriggeredEvent(
      payload.get("freshdesk_webhook").get("triggered_event").str(),
    );
    if (second === "created") return "ticket_created";
    if (first === "note_type") return "note_added";
    if (first === "status" || first === "priority") return "property_changed";
    // Zulip accepts other triggers and posts nothing.
    return "other";
  },
  events: {
    ticket_created: (p) => {
      const t = ticket(p);
      return message(
        p,
        `${who(t)} created ${ticketLink(t)}:\n\n` +
          `\`\`\` quote\n${htmlToMarkdown(field(t, "ticket_description"))}\n\`\`\`\n\n` +
          `* **Type**: ${field(t, "ticket_type")}\n* **Priority**: ${field(t, "ticket_priority")}\n` +
          `* **Status**: ${field(t, "ticket_status")}`,
      );
    },
    note_added: (p) => {
      const t = ticket(p);
      const [, noteType = ""] = parseTriggeredEvent(t.get("triggered_event").str());
      return message(p, `${who(t)} added a ${noteType} note to ${ticketLink(t)}.`);
    },
    property_changed: (p) => {
      const t = ticket(p);
      const [property = "", from = "", to = ""] = parseTriggeredEvent(t.get("triggered_event").str());
      const name = property.charAt(0).toUpperCase() + property.slice(1).toLowerCase();
      return message(p, `${who(t)} updated ${ticketLink(t)}:\n\n* **${name}**: ${from} -> ${to}`);
    },
  },
  ignoredEvents: ["other"],
  // Zulip's Freshdesk integration names no event types: only_events / exclude_events never drop one.
  unfilteredEvents: ["ticket_created", "note_added", "property_changed"],
});
