import type { HandlerResult, Wild } from "../kit/index.js";
import { stripTags } from "./strip-tags.js";

/** Python's `str.capitalize()`: the first character upper case, the rest lower case. */
function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1).toLowerCase();
}

function optStr(w: Wild | undefined, key: string): string | undefined {
  const v = w?.opt(key)?.value;
  return typeof v === "string" && v !== "" ? v : undefined;
}

/** "Lead: Eeshan Garg": the contact's type and its name, pseudonym or email. */
export function contactTopic(user: Wild): string {
  const type = optStr(user, "type") ?? "contact";
  const name = optStr(user, "name") ?? optStr(user, "pseudonym") ?? optStr(user, "email") ?? "Unknown";
  return `${capitalize(type)}: ${name}`;
}

/** "St. John's, Newfoundland and Labrador, Canada" (missing parts left out). */
function locationInfo(contact: Wild): string {
  const loc = contact.opt("location_data");
  const parts = ["city_name", "region_name", "country_name"]
    .map((k) => optStr(loc, k))
    .filter((s): s is string => s !== undefined);
  return parts.length > 0 ? parts.join(", ") : "Unknown";
}

const item = (p: Wild): Wild => p.get("data").get("item");

function quoted(who: string, action: string, content: string): string {
  return `${who} ${action} the conversation:\n\n\`\`\` quote\n${content}\n\`\`\``;
}

/** The first conversation part's text (the reply or note the event is about). */
function firstPartText(conversation: Wild): string {
  const part = conversation.optAt("conversation_parts", "conversation_parts", 0);
  return stripTags(optStr(part, "body") ?? "");
}

/** The conversation's opening message (older API versions) or its source (2.x). */
function openingText(conversation: Wild): string {
  const message = conversation.opt("conversation_message") ?? conversation.opt("source");
  return stripTags(optStr(message, "body") ?? "");
}

/** The conversation's user (API 1.x) or its first contact (2.x). */
function conversationUser(conversation: Wild): Wild {
  return (
    conversation.opt("user") ?? conversation.optAt("contacts", "contacts", 0) ?? conversation.get("user")
  );
}

const adminName = (conversation: Wild): string => optStr(conversation.opt("assignee"), "name") ?? "An admin";

export function companyCreated(p: Wild): HandlerResult {
  const company = item(p);
  const body =
    `New company **${company.get("name").str()}** created:\n` +
    `* **User count**: ${company.opt("user_count")?.text() ?? "0"}\n` +
    `* **Monthly spending**: ${company.opt("monthly_spend")?.text() ?? "0"}`;
  return { topic: "Companies", body };
}

export function contactAddedEmail(p: Wild): HandlerResult {
  const user = item(p);
  return { topic: contactTopic(user), body: `New email ${user.get("email").str()} added to contact.` };
}

export function contactCreated(p: Wild): HandlerResult {
  const contact = item(p);
  const name = optStr(contact, "name") ?? optStr(contact, "pseudonym") ?? "Unknown";
  const body =
    "New contact created:\n" +
    `* **Name (or pseudonym)**: ${name}\n` +
    `* **Email**: ${optStr(contact, "email") ?? "Unknown"}\n` +
    `* **Location**: ${locationInfo(contact)}`;
  return { topic: contactTopic(contact), body };
}

export function contactSignedUp(p: Wild): HandlerResult {
  const contact = item(p);
  const body =
    "Contact signed up:\n" +
    `* **Email**: ${optStr(contact, "email") ?? "Unknown"}\n` +
    `* **Location**: ${locationInfo(contact)}`;
  return { topic: contactTopic(contact), body };
}

export function contactTag(action: "created" | "deleted") {
  return (p: Wild): HandlerResult => {
    const tagged = item(p);
    const name = tagged.get("tag").get("name").str();
    const body =
      action === "created"
        ? `Contact tagged with the \`${name}\` tag.`
        : `The tag \`${name}\` was removed from the contact.`;
    return { topic: contactTopic(tagged.get("contact")), body };
  };
}

export function conversationAdminAssigned(p: Wild): HandlerResult {
  const conversation = item(p);
  return {
    topic: contactTopic(conversationUser(conversation)),
    body: `${adminName(conversation)} assigned to conversation.`,
  };
}

export function conversationAdmin(action: string) {
  return (p: Wild): HandlerResult => {
    const conversation = item(p);
    return {
      topic: contactTopic(conversationUser(conversation)),
      body: `${adminName(conversation)} ${action} the conversation.`,
    };
  };
}

export function conversationAdminReply(action: string) {
  return (p: Wild): HandlerResult => {
    const conversation = item(p);
    return {
      topic: contactTopic(conversationUser(conversation)),
      body: quoted(adminName(conversation), action, firstPartText(conversation)),
    };
  };
}

export function conversationAdminSingleCreated(p: Wild): HandlerResult {
  const conversation = item(p);
  return {
    topic: contactTopic(conversationUser(conversation)),
    body: `${adminName(conversation)} initiated a conversation:\n\n\`\`\` quote\n${openingText(conversation)}\n\`\`\``,
  };
}

export function conversationUserCreated(p: Wild): HandlerResult {
  const conversation = item(p);
  const user = conversationUser(conversation);
  const who = optStr(user, "name") ?? optStr(user, "pseudonym") ?? optStr(user, "email") ?? "A user";
  return {
    topic: contactTopic(user),
    body: `${who} initiated a conversation:\n\n\`\`\` quote\n${openingText(conversation)}\n\`\`\``,
  };
}

export function conversationUserReplied(p: Wild): HandlerResult {
  const conversation = item(p);
  const user = conversationUser(conversation);
  const who = optStr(user, "name") ?? optStr(user, "pseudonym") ?? optStr(user, "email") ?? "A user";
  return { topic: contactTopic(user), body: quoted(who, "replied to", firstPartText(conversation)) };
}

export function eventCreated(p: Wild): HandlerResult {
  return { topic: "Events", body: `New event **${item(p).get("event_name").str()}** created.` };
}

export function userCreated(p: Wild): HandlerResult {
  const user = item(p);
  const body =
    "New user created:\n" +
    `* **Name**: ${optStr(user, "name") ?? "Unknown"}\n` +
    `* **Email**: ${optStr(user, "email") ?? "Unknown"}`;
  return { topic: contactTopic(user), body };
}

export function userDeleted(p: Wild): HandlerResult {
  return { topic: contactTopic(item(p)), body: "User deleted." };
}

export function userEmailUpdated(p: Wild): HandlerResult {
  const user = item(p);
  return { topic: contactTopic(user), body: `User's email was updated to ${user.get("email").str()}.` };
}

export function userTag(action: "added to" | "removed from") {
  return (p: Wild): HandlerResult => {
    const tagged = item(p);
    const name = tagged.get("tag").get("name").str();
    return {
      topic: contactTopic(tagged.get("user")),
      body: `The tag \`${name}\` was ${action} the user.`,
    };
  };
}

export function userUnsubscribed(p: Wild): HandlerResult {
  return { topic: contactTopic(item(p)), body: "User unsubscribed from emails." };
}
