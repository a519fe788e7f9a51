import { JsonableError } from "../../errors.js";
import type { Submessage } from "../../store/submessages-repo.js";
import type { User } from "../users/types.js";
import { accessMessage } from "./access.js";
import type { MessageDeps } from "./ports.js";
import type { StoredMessage } from "./types.js";
import { checkWidgetEvent } from "./widgets.js";
import type { Widget, WidgetType } from "./widgets.js";

/** Stores a new message's widget as its first submessage, from its sender (Zulip's do_widget_post_save_actions). */
export async function addWidget(
  deps: MessageDeps,
  message: StoredMessage,
  widget: Widget,
): Promise<Submessage> {
  return deps.store.read.submessages.add({
    messageId: message.id,
    senderId: message.senderId,
    msgType: "widget",
    content: JSON.stringify(widget),
  });
}

/**
 * POST /submessage (Zulip's process_submessage): a vote, option, task or tick on a message's
 * widget, checked against the widget's type, stored, and sent as a `submessage` event to everyone
 * who received the message. A message without a poll or to-do widget takes any JSON, as in Zulip.
 */
export async function addSubmessage(
  deps: MessageDeps,
  user: User,
  messageId: number,
  msgType: string,
  content: string,
): Promise<void> {
  const { message } = await accessMessage(deps, user, messageId);
  if (msgType !== "widget") throw new JsonableError("Invalid msg_type");
  let data: unknown;
  try {
    data = JSON.parse(content);
  } catch {
    throw new JsonableError("Invalid json for submessage");
  }
  const repo = deps.store.read.submessages;
  const widgetType = widgetTypeOf(await repo.forMessages([message.id]));
  if (widgetType === "poll" || widgetType === "todo") {
    checkWidgetEvent(widgetType, data, message.senderId === user.id);
  }
  const added = await repo.add({ messageId: message.id, senderId: user.id, msgType, content });
  const recipients = (await deps.store.read.flags.rowsOfMessage(message.id)).map((r) => r.userId);
  deps.events.send(
    {
      type: "submessage",
      msg_type: added.msgType,
      message_id: added.messageId,
      submessage_id: added.id,
      sender_id: added.senderId,
      content: added.content,
    },
    recipients,
  );
}

/** The type of the widget a message's first submessage holds. */
function widgetTypeOf(submessages: readonly Submessage[]): WidgetType | undefined {
  const first = submessages[0];
  if (first === undefined) return undefined;
  try {
    const parsed = JSON.parse(first.content) as { widget_type?: unknown };
    const t = parsed.widget_type;
    return t === "poll" || t === "todo" || t === "zform" ? t : undefined;
  } catch {
    return undefined;
  }
}
