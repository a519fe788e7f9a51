import { JsonableError } from "../../src/errors.js";
import { defineIntegration } from "../kit/index.js";
import type { HandlerResult, Wild } from "../kit/index.js";
import { normalizeBody, truncateTopic } from "../kit/message-text.js";

const text = (w: Wild | undefined): string | undefined => {
  const v = w?.value;
  return typeof v === "string" ? v : undefined;
};

/** Who caused the event: a teammate's name, a rule's name, or the source type. */
function sourceName(p: Wild): string {
  const source = p.opt("source");
  const type = text(source?.optAt("_meta", "type")) ?? "unknown";
  const data = source?.opt("data");
  if (type === "teammate") {
    return `${text(data?.opt("first_name")) ?? ""} ${text(data?.opt("last_name")) ?? ""}`;
  }
  if (type === "rule") return `'${text(data?.opt("name")) ?? ""}' rule`;
  return `(${type})`;
}

function targetName(p: Wild): string {
  const data = p.optAt("target", "data");
  return `${text(data?.opt("first_name")) ?? ""} ${text(data?.opt("last_name")) ?? ""}`;
}

interface MessageData {
  link: string;
  /** The contact's address (the conversation's recipient). */
  outbox: string;
  /** The inbox's address. */
  inbox: string;
  subject: string;
}

function messageData(p: Wild): MessageData {
  const conversation = p.get("conversation");
  const inbox = p.optAt("source", "data", 0) ?? p.optAt("source", "data");
  return {
    link: `https://app.frontapp.com/open/${p.get("target").get("data").get("id").str()}`,
    outbox: text(conversation.optAt("recipient", "handle")) ?? "unknown",
    inbox: text(inbox?.opt("address")) ?? "unknown",
    subject: text(conversation.opt("subject")) ?? "",
  };
}

const quote = (s: string): string => `\`\`\`quote\n${s}\n\`\`\``;

/** The conversation's id is the topic, for every event. */
function post(body: (p: Wild) => string) {
  return (p: Wild): HandlerResult => ({
    topic: truncateTopic(p.get("conversation").get("id").str()),
    body: normalizeBody(body(p)),
  });
}

const comment = post(
  (p) => `**${sourceName(p)}** left a comment:\n${quote(p.get("target").get("data").get("body").str())}`,
);

const EVENTS = [
  "inbound",
  "outbound",
  "out_reply",
  "comment",
  "mention",
  "assign",
  "unassign",
  "archive",
  "reopen",
  "trash",
  "restore",
  "tag",
  "untag",
] as const;

/** Front (rules and legacy webhooks): messages, comments, assignments, tags of conversations. */
export default defineIntegration({
  name: "front",
  displayName: "Front",
  categories: ["customer-support"],
  description:
    "Posts Front conversation activity: messages, replies, comments, assignments, tags, archiving.",
  // Front signs with the company's API secret: base64 HMAC-SHA1 of the body.
  signature: { kind: "hmac", header: "X-Front-Signature", algorithm: "sha1", encoding: "base64" },
  classify: ({ payload }) => {
    const type = payload.get("type").str();
    // Zulip answers an event it does not know with this error (not the unsupported-event one).
    if (!(EVENTS as readonly string[]).includes(type)) throw new JsonableError("Unknown webhook request");
    return type;
  },
  events: {
    inbound: post((p) => {
      const m = messageData(p);
      return `[Inbound message](${m.link}) from **${m.outbox}** to **${m.inbox}**:\n${quote(`*Subject*: ${m.subject}`)}`;
    }),
    outbound: post((p) => {
      const m = messageData(p);
      return `[Outbound message](${m.link}) from **${m.inbox}** to **${m.outbox}**:\n${quote(`*Subject*: ${m.subject}`)}`;
    }),
    out_reply: post((p) => {
      const m = messageData(p);
      return `[Outbound reply](${m.link}) from **${m.inbox}** to **${m.outbox}**.`;
    }),
    comment,
    mention: comment,
    assign: post((p) => {
      const source = sourceName(p);
      const target = targetName(p);
      return source === target
        ? `**${source}** assigned themselves.`
        : `**${source}** assigned **${target}**.`;
    }),
    unassign: post((p) => `Unassigned by **${sourceName(p)}**.`),
    archive: post((p) => `Archived by **${sourceName(p)}**.`),
    reopen: post((p) => `Reopened by **${sourceName(p)}**.`),
    trash: post((p) => `Deleted by **${sourceName(p)}**.`),
    restore: post((p) => `Restored by **${sourceName(p)}**.`),
    tag: post((p) => `**${sourceName(p)}** added tag **${p.get("target").get("data").get("name").str()}**.`),
    untag: post(
      (p) => `**${sourceName(p)}** removed tag **${p.get("target").get("data").get("name").str()}**.`,
    ),
  },
  // Front's application webhooks check a new endpoint by sending X-Front-Challenge, to be echoed.
  handshake: (req) => {
    const challenge = req.header("X-Front-Challenge");
    return challenge === undefined ? undefined : { status: 200, contentType: "text/plain", body: challenge };
  },
});
