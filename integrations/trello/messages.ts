import { UnsupportedWebhookEventTypeError } from "../../src/errors.js";
import type { WebhookMessage, Wild } from "../kit/index.js";
import { normalizeBody, truncateTopic } from "../kit/message-text.js";

/**
 * Trello's webhook payloads (`action.type`, `action.data`, `action.memberCreator`) worded as
 * Zulip's Trello integration words them; the topic is the board's name.
 */

export const DISPLAY_NAME = "Trello";

/** Card actions Zulip posts. */
export const CARD_ACTIONS = [
  "updateCard",
  "createCard",
  "addLabelToCard",
  "removeLabelFromCard",
  "addMemberToCard",
  "removeMemberFromCard",
  "addAttachmentToCard",
  "addChecklistToCard",
  "commentCard",
  "updateCheckItemStateOnCard",
] as const;

/** Card actions that post nothing. */
export const IGNORED_ACTIONS = ["copyCard", "createCheckItem", "updateCheckItem", "updateList"];

/** Board actions Zulip posts. */
export const BOARD_ACTIONS = [
  "removeMemberFromBoard",
  "addMemberToBoard",
  "createList",
  "updateBoard",
] as const;

const str = (w: Wild | undefined): string => (w === undefined || w.isNull() ? "None" : w.text());

function data(p: Wild): Wild {
  return p.get("action").get("data");
}

function creator(p: Wild): string {
  return str(p.get("action").opt("memberCreator")?.opt("fullName"));
}

function card(p: Wild): string {
  const c = data(p).get("card");
  return `[${c.get("name").text()}](https://trello.com/c/${c.get("shortLink").text()})`;
}

function board(p: Wild): string {
  const b = data(p).get("board");
  return `[${b.get("name").text()}](https://trello.com/b/${b.get("shortLink").text()})`;
}

/** Python's `key in dict`. */
function hasKey(w: Wild | undefined, key: string): boolean {
  return w !== undefined && w.isObject() && Object.prototype.hasOwnProperty.call(w.value, key);
}

const truthy = (w: Wild | undefined): boolean =>
  w !== undefined && !w.isNull() && w.value !== "" && w.value !== false && w.value !== 0;

/** A Trello date (`2016-05-11T10:00:00.000Z`) as Zulip's `<time:…>` (Python's isoformat). */
export function timeMention(iso: string): string {
  const m = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?(Z|[+-]\d\d:\d\d)?$/.exec(iso.trim());
  if (m === null) return `<time:${iso}>`;
  const fraction = (m[2] ?? "").padEnd(6, "0");
  const zone = m[3] === undefined ? "" : m[3] === "Z" ? "+00:00" : m[3];
  return `<time:${m[1] ?? ""}${/^0*$/.test(fraction) ? "" : `.${fraction}`}${zone}>`;
}

const quote = (text: string): string => `~~~ quote\n${text}\n~~~\n`;

/** Which change an `updateCard` reports, or null for the ones Zulip ignores (moves within a list, covers). */
function cardUpdateKind(p: Wild): string | null {
  const d = data(p);
  const old = d.get("old");
  const c = d.get("card");
  if (truthy(d.opt("listBefore"))) return "changeList";
  if (truthy(old.opt("name"))) return "changeName";
  if (old.opt("desc")?.value === "") return "setDesc";
  if (truthy(old.opt("desc"))) return c.opt("desc")?.value === "" ? "removeDesc" : "changeDesc";
  if (hasKey(old, "due") && old.get("due").isNull()) return "setDueDate";
  if (truthy(old.opt("due")))
    return hasKey(c, "due") && c.get("due").isNull() ? "removeDueDate" : "changeDueDate";
  if (old.opt("closed")?.value === false && c.opt("closed")?.value === true) return "archiveCard";
  if (old.opt("closed")?.value === true && c.opt("closed")?.value === false) return "reopenCard";
  for (const field of ["cover", "dueComplete", "idAttachmentCover", "pos"])
    if (hasKey(old, field)) return null;
  throw new UnsupportedWebhookEventTypeError("updateCard", DISPLAY_NAME);
}

function cardBody(p: Wild, kind: string): string {
  const d = (): Wild => data(p);
  switch (kind) {
    case "createCard":
      return `created ${card(p)}.`;
    case "changeList":
      return `moved ${card(p)} from ${d().get("listBefore").get("name").text()} to ${d().get("listAfter").get("name").text()}.`;
    case "changeName":
      return `renamed the card from "${d().get("old").get("name").text()}" to ${card(p)}.`;
    case "setDesc":
      return `set description for ${card(p)} to:\n${quote(d().get("card").get("desc").text())}`;
    case "changeDesc":
      return (
        `changed description for ${card(p)} from\n${quote(d().get("old").get("desc").text())}` +
        `to\n${quote(d().get("card").get("desc").text())}`
      );
    case "removeDesc":
      return `removed description from ${card(p)}.`;
    case "archiveCard":
      return `archived ${card(p)}.`;
    case "reopenCard":
      return `reopened ${card(p)}.`;
    case "setDueDate":
      return `set due date for ${card(p)} to ${timeMention(d().get("card").get("due").text())}.`;
    case "changeDueDate":
      return (
        `changed due date for ${card(p)} from ${timeMention(d().get("old").get("due").text())} ` +
        `to ${timeMention(d().get("card").get("due").text())}.`
      );
    case "removeDueDate":
      return `removed the due date from ${card(p)}.`;
    case "addLabelToCard":
      return `added a ${str(d().opt("value"))} label with "${str(d().opt("text"))}" to ${card(p)}.`;
    case "removeLabelFromCard":
      return `removed a ${str(d().opt("value"))} label with "${str(d().opt("text"))}" from ${card(p)}.`;
    case "addMemberToCard":
      return `added ${p.get("action").get("member").get("fullName").text()} to ${card(p)}.`;
    case "removeMemberFromCard":
      return `removed ${p.get("action").get("member").get("fullName").text()} from ${card(p)}.`;
    case "addAttachmentToCard": {
      const a = d().get("attachment");
      return `added [${a.get("name").text()}](${a.get("url").text()}) to ${card(p)}.`;
    }
    case "addChecklistToCard":
      return `added the ${d().get("checklist").get("name").text()} checklist to ${card(p)}.`;
    case "commentCard":
      return `commented on ${card(p)}:\n${quote(d().get("text").text())}`;
    case "updateCheckItemStateOnCard": {
      const item = d().get("checkItem");
      const action = item.get("state").text() === "complete" ? "checked" : "unchecked";
      return `${action} **${item.get("name").text()}** in **${d().get("checklist").get("name").text()}** (${card(p)}).`;
    }
    default:
      throw new UnsupportedWebhookEventTypeError(kind, DISPLAY_NAME);
  }
}

function message(p: Wild, rest: string): WebhookMessage {
  return {
    topic: truncateTopic(data(p).get("board").get("name").text()),
    body: normalizeBody(`${creator(p)} ${rest}`),
  };
}

/** A card action's message, or null when Zulip posts nothing for it. */
export function cardMessage(p: Wild, actionType: string): WebhookMessage | null {
  const kind = actionType === "updateCard" ? cardUpdateKind(p) : actionType;
  return kind === null ? null : message(p, cardBody(p, kind));
}

/** A board action's message, or null for a changed background. */
export function boardMessage(p: Wild, actionType: string): WebhookMessage | null {
  switch (actionType) {
    case "removeMemberFromBoard":
      return message(p, `removed ${p.get("action").get("member").get("fullName").text()} from ${board(p)}.`);
    case "addMemberToBoard":
      return message(p, `added ${p.get("action").get("member").get("fullName").text()} to ${board(p)}.`);
    case "createList":
      return message(p, `added ${data(p).get("list").get("name").text()} list to ${board(p)}.`);
    default: {
      const old = data(p).get("old");
      if (hasKey(old.opt("prefs"), "background")) return null;
      if (truthy(old.opt("name"))) {
        return message(p, `renamed the board from ${old.get("name").text()} to ${board(p)}.`);
      }
      throw new UnsupportedWebhookEventTypeError(actionType, DISPLAY_NAME);
    }
  }
}
