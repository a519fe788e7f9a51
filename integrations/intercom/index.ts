import { defineIntegration } from "../kit/index.js";
import type { Handler, HandlerResult } from "../kit/index.js";
import { normalizeBody, truncateTopic } from "../kit/message-text.js";
import * as m from "./messages.js";
import * as t from "./tickets.js";
import * as c from "./contacts.js";

/** Topics cut to 60 characters and bodies normalized, as Zulip stores them. */
function stored(handler: (p: Parameters<Handler>[0]) => HandlerResult): Handler {
  return (p) => {
    const result = handler(p);
    if (result === null || Array.isArray(result)) return result;
    return { ...result, topic: truncateTopic(result.topic), body: normalizeBody(result.body) };
  };
}

/** Intercom: contacts, users, companies, tags and conversations (Zulip's event names). */
export default defineIntegration({
  name: "intercom",
  displayName: "Intercom",
  categories: ["customer-support"],
  description: "Posts new contacts, users, companies, tags, conversation activity and tickets from Intercom.",
  // Intercom signs the body with the app's client secret: `X-Hub-Signature: sha1=<hex>`.
  signature: { kind: "hmac", header: "X-Hub-Signature", algorithm: "sha1", prefix: "sha1=" },
  classify: ({ payload }) => payload.get("topic").str(),
  // A ticket's life in one topic (its topic is the ticket's): closed or resolved → resolved.
  resolvesTopics: true,
  editsStatusMessages: true,
  events: {
    "company.created": stored(m.companyCreated),
    "contact.added_email": stored(m.contactAddedEmail),
    "contact.created": stored(m.contactCreated),
    "contact.signed_up": stored(m.contactSignedUp),
    "contact.tag.created": stored(m.contactTag("created")),
    "contact.tag.deleted": stored(m.contactTag("deleted")),
    "conversation.admin.assigned": stored(m.conversationAdminAssigned),
    "conversation.admin.closed": stored(m.conversationAdmin("closed")),
    "conversation.admin.opened": stored(m.conversationAdmin("opened")),
    "conversation.admin.snoozed": stored(m.conversationAdmin("snoozed")),
    "conversation.admin.unsnoozed": stored(m.conversationAdmin("unsnoozed")),
    "conversation.admin.replied": stored(m.conversationAdminReply("replied to")),
    "conversation.admin.noted": stored(m.conversationAdminReply("added a note to")),
    "conversation.admin.single.created": stored(m.conversationAdminSingleCreated),
    "conversation.user.created": stored(m.conversationUserCreated),
    "conversation.user.replied": stored(m.conversationUserReplied),
    "event.created": stored(m.eventCreated),
    "user.created": stored(m.userCreated),
    "user.deleted": stored(m.userDeleted),
    "user.email.updated": stored(m.userEmailUpdated),
    "user.tag.created": stored(m.userTag("added to")),
    "user.tag.deleted": stored(m.userTag("removed from")),
    "user.unsubscribed": stored(m.userUnsubscribed),
    // Intercom documents no separate payload: it is shaped like contact.signed_up.
    "visitor.signed_up": stored(m.contactSignedUp),
    // Intercom's 2.x API: contacts with their role, companies, conversations (contacts.ts).
    "contact.lead.created": stored(c.contactCreated),
    "contact.user.created": stored(c.contactCreated),
    "contact.lead.updated": stored(c.contactUpdated),
    "contact.user.updated": stored(c.contactUpdated),
    "contact.lead.signed_up": stored(c.leadSignedUp),
    "contact.deleted": stored(c.contactSays("Contact deleted.")),
    "contact.archived": stored(c.contactSays("Contact archived.")),
    "contact.unarchived": stored(c.contactSays("Contact unarchived.")),
    "contact.subscribed": stored(c.contactSays("Contact subscribed to emails.")),
    "contact.unsubscribed": stored(c.contactSays("Contact unsubscribed from emails.")),
    "contact.email.updated": stored(c.contactEmailUpdated),
    "contact.lead.tag.created": stored(c.contactTagged(true)),
    "contact.user.tag.created": stored(c.contactTagged(true)),
    "contact.lead.tag.deleted": stored(c.contactTagged(false)),
    "contact.user.tag.deleted": stored(c.contactTagged(false)),
    "company.updated": stored(c.companyUpdated),
    "company.deleted": stored(c.companyDeleted),
    "company.contact.attached": stored(c.companyContact(true)),
    "company.contact.detached": stored(c.companyContact(false)),
    "conversation.admin.open.assigned": stored(c.conversationOpenAssigned),
    "conversation.operator.replied": stored(c.conversationOperatorReplied),
    "conversation.deleted": stored(c.conversationDeleted),
    "conversation.priority.updated": stored(c.conversationPriority),
    "conversation.contact.attached": stored(c.conversationContact(true)),
    "conversation.contact.detached": stored(c.conversationContact(false)),
    "conversation.rating.added": stored(c.conversationRated),
    "ticket.created": stored(t.ticketCreated),
    "ticket.state.updated": stored(t.ticketStateUpdated),
    "ticket.note.created": stored(t.ticketNoteCreated),
    "ticket.admin.assigned": stored(t.ticketAdminAssigned),
    "ticket.team.assigned": stored(t.ticketTeamAssigned),
    "ticket.closed": stored(t.ticketClosed),
    "ticket.admin.replied": stored(t.ticketReplied),
    "ticket.contact.replied": stored(t.ticketReplied),
    "ticket.contact.attached": stored(t.ticketContact(true)),
    "ticket.contact.detached": stored(t.ticketContact(false)),
  },
  // Sent when the webhook is saved or tested in the Developer Hub.
  ignoredEvents: ["ping"],
  // Intercom checks the URL with a HEAD request before saving the webhook.
  handshake: (req) =>
    req.method === "HEAD" ? { status: 200, body: { result: "success", msg: "" } } : undefined,
});
