import type { HandlerResult, Wild } from "../kit/index.js";
import { stripTags } from "./strip-tags.js";

/**
 * Intercom tickets (Zulip 12's Intercom rewrite covers them). `ticket.created` and
 * `ticket.state.updated` carry the ticket as `data.item`; the events about one ticket part (a note,
 * a reply, an assignment, closing) carry `data.item.ticket` and the part as `data.item.ticket_part`.
 * Every event of a ticket goes to its topic, `Ticket #{ticket_id}: {title}`.
 */

function optStr(w: Wild | undefined, key: string): string | undefined {
  const v = w?.opt(key)?.value;
  return typeof v === "string" && v !== "" ? v : undefined;
}

const itemOf = (p: Wild): Wild => p.get("data").get("item");

/** The ticket of any ticket event. */
function ticketOf(p: Wild): Wild {
  const item = itemOf(p);
  return item.opt("ticket") ?? item;
}

/** The ticket part the event is about: `ticket_part`, else the ticket's last part. */
function partOf(p: Wild): Wild | undefined {
  const item = itemOf(p);
  const part = item.opt("ticket_part");
  if (part !== undefined) return part;
  const parts = ticketOf(p).optAt("ticket_parts", "ticket_parts")?.items() ?? [];
  return parts[parts.length - 1];
}

function title(ticket: Wild): string {
  return optStr(ticket.opt("ticket_attributes"), "_default_title_") ?? "(no title)";
}

/** "Ticket #66040342: Unclear user message…" */
export function ticketTopic(ticket: Wild): string {
  return `Ticket #${ticket.get("ticket_id").str()}: ${title(ticket)}`;
}

function quote(text: string): string {
  return `\n\n\`\`\` quote\n${text}\n\`\`\``;
}

/** Who made the part (an admin, a contact, Fin), or undefined. */
function authorOf(part: Wild | undefined): string | undefined {
  return optStr(part?.opt("author"), "name");
}

const stateLabel = (ticket: Wild): string =>
  optStr(ticket.opt("ticket_state"), "external_label") ??
  optStr(ticket.opt("ticket_state"), "internal_label") ??
  "unknown";

export function ticketCreated(p: Wild): HandlerResult {
  const ticket = ticketOf(p);
  const type = optStr(ticket.opt("ticket_type"), "name") ?? "ticket";
  const description = optStr(ticket.opt("ticket_attributes"), "_default_description_");
  const head = `New ticket **${title(ticket)}** of type ${type} created (state: **${stateLabel(ticket)}**)`;
  return {
    topic: ticketTopic(ticket),
    body: description === undefined ? `${head}.` : `${head}:${quote(description)}`,
  };
}

/**
 * resolve_topics and edit_status_messages: a ticket whose state moves to the `resolved` category
 * resolves its topic, one moved out of it unresolves it; a state change changes only its status.
 */
function stateLifecycle(ticket: Wild, part: Wild | undefined): { resolves?: boolean; statusOnly: true } {
  const category = optStr(ticket.opt("ticket_state"), "category");
  if (category === "resolved") return { resolves: true, statusOnly: true };
  if (optStr(part, "previous_ticket_state") === "resolved") return { resolves: false, statusOnly: true };
  return { statusOnly: true };
}

export function ticketStateUpdated(p: Wild): HandlerResult {
  const ticket = ticketOf(p);
  const part = partOf(p);
  const byWhom =
    part?.opt("part_type")?.value?.toString().startsWith("ticket_state_updated") === true
      ? authorOf(part)
      : undefined;
  const state = `**${stateLabel(ticket)}**`;
  return {
    topic: ticketTopic(ticket),
    body:
      byWhom === undefined
        ? `Ticket state changed to ${state}.`
        : `${byWhom} changed the ticket state to ${state}.`,
    ...stateLifecycle(ticket, part),
  };
}

/** ticket.closed: closed (a status change that resolves the ticket's topic). */
export function ticketClosed(p: Wild): HandlerResult {
  const who = authorOf(partOf(p));
  return {
    topic: ticketTopic(ticketOf(p)),
    body: who === undefined ? "The ticket was closed." : `${who} closed the ticket.`,
    resolves: true,
    statusOnly: true,
  };
}

/** ticket.admin.replied, ticket.contact.replied: the reply, quoted without its HTML. */
export function ticketReplied(p: Wild): HandlerResult {
  const part = partOf(p);
  const who = authorOf(part) ?? "Someone";
  const text = stripTags(optStr(part, "body") ?? "");
  return {
    topic: ticketTopic(ticketOf(p)),
    body: text === "" ? `${who} replied to the ticket.` : `${who} replied to the ticket:${quote(text)}`,
  };
}

/** Assigned to a team: Intercom sends only the team's id. */
export function ticketTeamAssigned(p: Wild): HandlerResult {
  const ticket = ticketOf(p);
  const id = optStr(ticket, "team_assignee_id");
  const who = authorOf(partOf(p)) ?? "Someone";
  const to = id === undefined || id === "0" ? "no team" : `team ${id}`;
  return { topic: ticketTopic(ticket), body: `${who} assigned the ticket to ${to}.` };
}

/** ticket.contact.attached / detached: a contact added to or removed from the ticket. */
export function ticketContact(attached: boolean) {
  return (p: Wild): HandlerResult => {
    const who = authorOf(partOf(p)) ?? "Someone";
    return {
      topic: ticketTopic(ticketOf(p)),
      body: attached ? `${who} added a contact to the ticket.` : `${who} removed a contact from the ticket.`,
    };
  };
}

/** A note of an admin, quoted without its HTML. */
export function ticketNoteCreated(p: Wild): HandlerResult {
  const part = partOf(p);
  const who = authorOf(part) ?? "Someone";
  const text = stripTags(optStr(part, "body") ?? "");
  return {
    topic: ticketTopic(ticketOf(p)),
    body:
      text === "" ? `${who} added a note to the ticket.` : `${who} added a note to the ticket:${quote(text)}`,
  };
}

/** Assigned to an admin: Intercom sends only the admin's id. */
export function ticketAdminAssigned(p: Wild): HandlerResult {
  const ticket = ticketOf(p);
  const id = optStr(ticket, "admin_assignee_id");
  const who = authorOf(partOf(p)) ?? "Someone";
  const to = id === undefined || id === "0" ? "nobody" : `admin ${id}`;
  return { topic: ticketTopic(ticket), body: `${who} assigned the ticket to ${to}.` };
}
