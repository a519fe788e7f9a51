import { defineIntegration } from "../kit/index.js";
import type { HandlerResult, Wild } from "../kit/index.js";
import { normalizeBody } from "../kit/message-text.js";

const TOPIC = "notifications";

const text = (w: Wild | undefined): string | undefined =>
  typeof w?.value === "string" ? w.value : undefined;

/** The last path segment of an API link (`…/agents/agent@example.com` → `agent@example.com`). */
function lastSegment(href: string | undefined): string {
  return href?.replace(/\/+$/, "").split("/").pop() ?? "unknown";
}

const post = (body: string): HandlerResult => ({ topic: TOPIC, body: normalizeBody(body) });

function ticketStarted(p: Wild): HandlerResult {
  return post(
    `${text(p.opt("customer_name")) ?? "A customer"} submitted new ticket ` +
      `[#${p.get("number").text()}: ${text(p.opt("title")) ?? ""}](${p.get("app_url").str()}):\n\n` +
      `\`\`\` quote\n${text(p.opt("summary")) ?? ""}\n\`\`\``,
  );
}

function ticketAssigned(p: Wild): HandlerResult {
  const assignee = text(p.opt("assignee"));
  const group = text(p.opt("assigned_group"));
  // Unassigned (neither an agent nor a group): nothing to say.
  if ((assignee === undefined || assignee === "") && (group === undefined || group === "")) return null;
  const who =
    assignee !== undefined && assignee !== ""
      ? group
        ? `${assignee} from ${group}`
        : assignee
      : (group ?? "");
  const state = text(p.opt("state")) ?? "";
  return post(
    `[#${p.get("number").text()}: ${text(p.opt("title")) ?? ""}](${p.get("app_url").str()}) ` +
      `(${state === "opened" ? "open" : state}) assigned to ${who}.`,
  );
}

function replied(action: string) {
  return (p: Wild): HandlerResult => {
    const actor = lastSegment(text(p.optAt("links", "author", "href")));
    const number = lastSegment(text(p.optAt("links", "ticket", "href")));
    return post(
      `${actor} ${action} [ticket #${number}](${p.get("app_ticket_url").str()}):\n\n` +
        `\`\`\` quote\n${text(p.opt("plain_text_body")) ?? ""}\n\`\`\``,
    );
  };
}

/** Groove help desk: new tickets, assignments, replies and notes. */
export default defineIntegration({
  name: "groove",
  displayName: "Groove",
  categories: ["customer-support"],
  description: "Posts new Groove tickets, assignments, agent and customer replies, and notes.",
  eventHeader: "X-Groove-Event",
  events: {
    ticket_started: ticketStarted,
    ticket_assigned: ticketAssigned,
    agent_replied: replied("replied to"),
    customer_replied: replied("replied to"),
    note_added: replied("left a note on"),
  },
});
