/**
 * Intercom's topics of its 2.x API about contacts (leads and users), companies and conversations
 * (developers.intercom.com, "Webhook models"): each `data.item` is the API's object of that version —
 * a contact with its `role`, a company, a `contact_tag`, a contact attached to a company, a
 * conversation with its `contacts`, `source` and the `conversation_parts` the event is about. A
 * `*.deleted` topic sends only the object's ids.
 */
import type { HandlerResult, Wild } from "../kit/index.js";
import { stripTags } from "./strip-tags.js";

function optStr(w: Wild | undefined, key: string): string | undefined {
  const v = w?.opt(key)?.value;
  return typeof v === "string" && v !== "" ? v : undefined;
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1).toLowerCase();
}

const item = (p: Wild): Wild => p.get("data").get("item");

/** A contact's role ("lead", "user"), or "contact". */
function roleOf(contact: Wild): string {
  return optStr(contact, "role") ?? "contact";
}

/** "Lead: Jane Lead": the contact's role and its name, email, or id (a deleted contact has only ids). */
export function contactTopic(contact: Wild): string {
  const name =
    optStr(contact, "name") ??
    optStr(contact, "email") ??
    optStr(contact, "external_id") ??
    contact.opt("id")?.text() ??
    "Unknown";
  return `${capitalize(roleOf(contact))}: ${name}`;
}

/** "Toronto, Ontario, Canada" from the 2.x `location` (missing parts left out). */
function location(contact: Wild): string {
  const loc = contact.opt("location");
  const parts = ["city", "region", "country"]
    .map((k) => optStr(loc, k))
    .filter((s): s is string => s !== undefined);
  return parts.length > 0 ? parts.join(", ") : "Unknown";
}

function details(contact: Wild): string {
  return (
    `* **Name**: ${optStr(contact, "name") ?? "Unknown"}\n` +
    `* **Email**: ${optStr(contact, "email") ?? "Unknown"}\n` +
    `* **Location**: ${location(contact)}`
  );
}

/** contact.lead.created, contact.user.created. */
export function contactCreated(p: Wild): HandlerResult {
  const contact = item(p);
  return { topic: contactTopic(contact), body: `New ${roleOf(contact)} created:\n${details(contact)}` };
}

/** contact.lead.updated, contact.user.updated. */
export function contactUpdated(p: Wild): HandlerResult {
  const contact = item(p);
  return {
    topic: contactTopic(contact),
    body: `The ${roleOf(contact)}'s details changed:\n${details(contact)}`,
  };
}

/** contact.lead.signed_up: a lead became a user. */
export function leadSignedUp(p: Wild): HandlerResult {
  const contact = item(p);
  return {
    topic: contactTopic(contact),
    body: `The lead signed up as a user (email: ${optStr(contact, "email") ?? "Unknown"}).`,
  };
}

/** A topic about one contact whose message is a fixed sentence (deleted, archived, …). */
export function contactSays(sentence: string) {
  return (p: Wild): HandlerResult => ({ topic: contactTopic(item(p)), body: sentence });
}

/** contact.email.updated. */
export function contactEmailUpdated(p: Wild): HandlerResult {
  const contact = item(p);
  return {
    topic: contactTopic(contact),
    body: `The ${roleOf(contact)}'s email is now ${optStr(contact, "email") ?? "empty"}.`,
  };
}

/** contact.{lead,user}.tag.{created,deleted}: a `contact_tag` with the tag and the contact. */
export function contactTagged(added: boolean) {
  return (p: Wild): HandlerResult => {
    const tagged = item(p);
    const tag = tagged.get("tag").get("name").str();
    return {
      topic: contactTopic(tagged.get("contact")),
      body: added ? `Tag \`${tag}\` added.` : `Tag \`${tag}\` removed.`,
    };
  };
}

function companyName(company: Wild): string {
  return optStr(company, "name") ?? optStr(company, "company_id") ?? company.opt("id")?.text() ?? "Unknown";
}

/** company.updated. */
export function companyUpdated(p: Wild): HandlerResult {
  const company = item(p);
  const body =
    `Company **${companyName(company)}** updated:\n` +
    `* **User count**: ${company.opt("user_count")?.text() ?? "0"}\n` +
    `* **Monthly spending**: ${company.opt("monthly_spend")?.text() ?? "0"}\n` +
    `* **Plan**: ${optStr(company.opt("plan"), "name") ?? "None"}`;
  return { topic: "Companies", body };
}

/** company.deleted: only the company's ids. */
export function companyDeleted(p: Wild): HandlerResult {
  return { topic: "Companies", body: `Company **${companyName(item(p))}** deleted.` };
}

/** company.contact.attached / detached: the contact joins or leaves the company. */
export function companyContact(attached: boolean) {
  return (p: Wild): HandlerResult => {
    const link = item(p);
    const contact = link.get("contact");
    const company = companyName(link.get("company"));
    return {
      topic: contactTopic(contact),
      body: attached
        ? `The ${roleOf(contact)} joined the company **${company}**.`
        : `The ${roleOf(contact)} left the company **${company}**.`,
    };
  };
}

/** The part the event is about (2.x sends the conversation with that one part). */
function part(conversation: Wild): Wild | undefined {
  return conversation.optAt("conversation_parts", "conversation_parts", 0);
}

/** Who made the part: its author's name, else "An admin". */
function actor(conversation: Wild): string {
  return optStr(part(conversation)?.opt("author"), "name") ?? "An admin";
}

/**
 * The conversation's topic: its first contact's (as contact events name it) when the conversation
 * names it, else its source's author's, else "Conversation <id>" (a deleted one has only its id).
 */
export function conversationTopic(conversation: Wild): string {
  const contact = conversation.optAt("contacts", "contacts", 0);
  for (const who of [contact, conversation.optAt("source", "author")]) {
    const name = optStr(who, "name") ?? optStr(who, "email");
    if (who !== undefined && name !== undefined) {
      return `${capitalize(optStr(who, "role") ?? optStr(who, "type") ?? "contact")}: ${name}`;
    }
  }
  return `Conversation ${conversation.opt("id")?.text() ?? "Unknown"}`;
}

/** conversation.admin.open.assigned: assigned while open, to an admin or a team (Intercom sends ids). */
export function conversationOpenAssigned(p: Wild): HandlerResult {
  const conversation = item(p);
  const to = part(conversation)?.opt("assigned_to");
  const assignee =
    to === undefined || to.value === null
      ? "nobody"
      : `${optStr(to, "type") ?? "admin"} ${to.opt("id")?.text() ?? "Unknown"}`;
  return {
    topic: conversationTopic(conversation),
    body: `${actor(conversation)} assigned the open conversation to ${assignee}.`,
  };
}

/** conversation.operator.replied: Intercom's bot (Operator, Fin) answered; its reply quoted. */
export function conversationOperatorReplied(p: Wild): HandlerResult {
  const conversation = item(p);
  const text = stripTags(optStr(part(conversation), "body") ?? "");
  return {
    topic: conversationTopic(conversation),
    body: `${optStr(part(conversation)?.opt("author"), "name") ?? "Operator"} (bot) replied:\n\n\`\`\` quote\n${text}\n\`\`\``,
  };
}

/** conversation.deleted: only the conversation's id. */
export function conversationDeleted(p: Wild): HandlerResult {
  return { topic: conversationTopic(item(p)), body: "The conversation was deleted." };
}

/** conversation.priority.updated: the conversation's `priority` after the change. */
export function conversationPriority(p: Wild): HandlerResult {
  const conversation = item(p);
  const priority = optStr(conversation, "priority") === "priority";
  return {
    topic: conversationTopic(conversation),
    body: priority
      ? `${actor(conversation)} marked the conversation as a priority.`
      : `${actor(conversation)} removed the conversation's priority.`,
  };
}

/** conversation.contact.attached / detached: a participant added or removed. */
export function conversationContact(attached: boolean) {
  return (p: Wild): HandlerResult => {
    const conversation = item(p);
    return {
      topic: conversationTopic(conversation),
      body: attached
        ? `${actor(conversation)} added a participant to the conversation.`
        : `${actor(conversation)} removed a participant from the conversation.`,
    };
  };
}

/** conversation.rating.added: the contact's rating (1–5) and remark. */
export function conversationRated(p: Wild): HandlerResult {
  const conversation = item(p);
  const rating = conversation.get("conversation_rating");
  const remark = optStr(rating, "remark");
  return {
    topic: conversationTopic(conversation),
    body:
      `The conversation was rated ${rating.get("rating").text()} out of 5.` +
      (remark === undefined ? "" : `\n\n\`\`\` quote\n${stripTags(remark)}\n\`\`\``),
  };
}
