import { defineIntegration } from "../kit/index.js";
import type { HandlerResult, Wild } from "../kit/index.js";
import { normalizeBody } from "../kit/message-text.js";

/**
 * Wekan's outgoing webhook sends a `text` whose last line is the link to the card or board: the
 * message is the first part with a full stop, then a "See in Wekan" link.
 */
export function wekanMessage(p: Wild): HandlerResult {
  const text = p.get("text").str();
  const newline = text.lastIndexOf("\n");
  if (newline === -1) return { topic: "Wekan Notification", body: normalizeBody(`${text}.`) };
  const url = text.slice(newline + 1);
  const summary = (url === "" ? text : text.split(url).join("")).replace(/\n/g, "");
  const footer = url === "" ? "" : `\n\n[See in Wekan](${url})`;
  return { topic: "Wekan Notification", body: normalizeBody(`${summary}.${footer}`) };
}

/** Wekan board activity (cards, lists, swimlanes, checklists, comments, attachments…). */
export default defineIntegration({
  name: "wekan",
  displayName: "Wekan",
  categories: ["project-management"],
  description: "Posts Wekan board activity (cards, lists, swimlanes, checklists, comments) with a link.",
  // Wekan sends the token set on the board's outgoing webhook verbatim.
  signature: { kind: "token", header: "X-Wekan-Token" },
  events: { notification: wekanMessage },
  // Zulip's Wekan integration names no event types, so only_events / exclude_events never drop one.
  unfilteredEvents: ["notification"],
});
