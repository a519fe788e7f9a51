import { defineIntegration } from "../kit/index.js";
import * as m from "./messages.js";

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
    "company.created": m.companyCreated,
    "contact.added_email": m.contactAddedEmail,
    "contact.created": m.contactCreated,
    "contact.signed_up": m.contactSignedUp,
    "contact.tag.created": m.contactTag("created"),
    "contact.tag.deleted": m.contactTag("deleted"),
    "conversation.admin.assigned": m.conversationAdminAssigned,
    "conversation.admin.closed": m.conversationAdmin("closed"),
    "conversation.admin.opened": m.conversationAdmin("opened"),
    "conversation.admin.snoozed": m.conversationAdmin("snoozed"),
    "conversation.admin.unsnoozed": m.conversationAdmin("unsnoozed"),
    "conversation.admin.replied": m.conversationAdminReply("replied to"),
    "conversation.admin.noted": m.conversationAdminReply("added a note to"),
    "conversation.admin.single.created": m.conversationAdminSingleCreated,
    "conversation.user.created": m.conversationUserCreated,
    "conversation.user.replied": m.conversationUserReplied,
    "event.created": m.eventCreated,
    "user.created": m.userCreated,
    "user.deleted": m.userDeleted,
    "user.email.updated": m.userEmailUpdated,
    "user.tag.created": m.userTag("added to"),
    "user.tag.deleted": m.userTag("removed from"),
    "user.unsubscribed": m.userUnsubscribed,
    // Intercom documents no separate payload: it is shaped like contact.signed_up.
    "visitor.signed_up": m.contactSignedUp,
  },
  // Sent when the webhook is saved or tested in the Developer Hub.
  ignoredEvents: ["ping"],
  // Intercom checks the URL with a HEAD request before saving the webhook.
  handshake: (req) =>
    req.method === "HEAD" ? { status: 200, body: { result: "success", msg: "" } } : undefined,
});
