import { defineIntegration } from "../kit/index.js";
import type { Handler, HandlerResult } from "../kit/index.js";
import { normalizeBody, truncateTopic } from "../kit/message-text.js";
import * as m from "./messages.js";

/** Topics cut to 60 characters and bodies normalized, as Zulip stores them. */
function stored(handler: (p: Parameters<Handler>[0]) => HandlerResult): Handler {
  return (p) => {
    const result = handler(p);
    if (result === null || Array.isArray(result)) return result;
    return { topic: truncateTopic(result.topic), body: normalizeBody(result.body) };
  };
}

/** Intercom: contacts, users, companies, tags and conversations (Zulip's event names). */
export default defineIntegration({
  name: "intercom",
  displayName: "Intercom",
  categories: ["customer-support"],
  description: "Posts new contacts, users, companies, tags and conversation activity from Intercom.",
  // Intercom signs the body with the app's client secret: `X-Hub-Signature: sha1=<hex>`.
  signature: { kind: "hmac", header: "X-Hub-Signature", algorithm: "sha1", prefix: "sha1=" },
  classify: ({ payload }) => payload.get("topic").str(),
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
  },
  // Sent when the webhook is saved or tested in the Developer Hub.
  ignoredEvents: ["ping"],
  // Intercom checks the URL with a HEAD request before saving the webhook.
  handshake: (req) =>
    req.method === "HEAD" ? { status: 200, body: { result: "success", msg: "" } } : undefined,
});
