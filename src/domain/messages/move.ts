import { JsonableError } from "../../errors.js";
import { deleteMessageEvent } from "../../wire/events.js";
import type { Stream } from "../streams/types.js";
import { isAdmin } from "../users/types.js";
import type { User } from "../users/types.js";
import { interestedUsers } from "./access.js";
import { normalizeTopic } from "./content.js";
import { Flag } from "./flag-bits.js";
import type { MessageDeps } from "./ports.js";
import { nowSeconds } from "./ports.js";
import { sendMessage } from "./send.js";
import type { EditHistoryEntry, EditRequest, StoredMessage } from "./types.js";

/**
 * PATCH /messages/{id} with `stream_id`: moves the message (and, per `propagate_mode`, the rest of
 * its topic) to another stream, optionally renaming the topic. Administrators only (Zulip's default
 * move_messages_between_streams_policy). Users who cannot read the new stream lose the messages
 * (`delete_message`); its subscribers get them as read; everyone else who can see them gets
 * `update_message` with `new_stream_id`. The Notification Bot leaves breadcrumbs (new thread by
 * default, old thread when asked), as Zulip does.
 */
export async function moveToStream(
  deps: MessageDeps,
  editor: User,
  message: StoredMessage,
  req: EditRequest & { streamId: number },
): Promise<void> {
  if (message.streamId === null) throw new JsonableError("Private messages cannot be moved to streams.");
  if (req.content !== undefined)
    throw new JsonableError("Cannot change message content while changing stream");
  if (!isAdmin(editor)) throw new JsonableError("You don't have permission to move this message");
  const oldStream = (await deps.streams.byId(message.streamId))!;
  const newStream = await deps.streams.accessibleById(editor, req.streamId);
  const topic = req.topic === undefined ? message.topic : normalizeTopic(req.topic);
  const repo = deps.store.read.messages;
  const ids =
    req.propagateMode === "change_one"
      ? [message.id]
      : await repo.topicMessageIds(
          oldStream.id,
          message.topic,
          req.propagateMode === "change_later" ? message.id : undefined,
        );
  const now = nowSeconds(deps);

  // Who loses the messages: users with rows who may not read the new stream.
  const newSubscribers = new Set(await deps.streams.subscriberIds(newStream.id));
  const holders = new Set<number>();
  for (const id of ids)
    for (const row of await deps.store.read.flags.rowsOfMessage(id)) holders.add(row.userId);
  const losing = newStream.inviteOnly
    ? [...holders].filter((u) => !newSubscribers.has(u)).sort((a, b) => a - b)
    : [];
  const gaining = [...newSubscribers].filter((u) => !holders.has(u));

  await deps.store.transaction(async ({ messages, flags, recipientRows }) => {
    // Who received a moved message no longer follows a stream's subscription intervals.
    await recipientRows.densify(ids);
    const recipientId = await messages.recipientId(2, String(newStream.id));
    await messages.moveToStream(ids, newStream.id, recipientId, topic);
    await messages.deleteRows(ids, losing);
    await flags.insertDenseUserMessages(gaining, ids, Flag.read);
    const others = new Map(
      (await messages.byIds(ids.filter((id) => id !== message.id))).map((m) => [m.id, m]),
    );
    for (const id of ids) {
      const m = id === message.id ? message : others.get(id);
      if (m === undefined) continue;
      const entry: EditHistoryEntry = {
        user_id: editor.id,
        timestamp: now,
        prev_stream: oldStream.id,
        stream: newStream.id,
      };
      if (topic !== m.topic) {
        entry.prev_topic = m.topic;
        entry.topic = topic;
      }
      await messages.setEdited(id, now, [entry, ...(m.editHistory ?? [])]);
    }
  });

  if (losing.length > 0) deps.events.send(deleteMessageEvent(ids, oldStream, message.topic), losing);
  const event: Record<string, unknown> & { type: string } = {
    type: "update_message",
    user_id: editor.id,
    edit_timestamp: now,
    message_id: message.id,
    message_ids: ids,
    rendering_only: false,
    stream_name: oldStream.name,
    stream_id: oldStream.id,
    new_stream_id: newStream.id,
    propagate_mode: req.propagateMode,
    orig_subject: message.topic,
    subject: topic,
    topic_links: [],
  };
  deps.events.send(event, await interestedUsers(deps, message.id, newStream));
  await breadcrumbs(
    deps,
    editor,
    { stream: oldStream, topic: message.topic },
    { stream: newStream, topic },
    req,
    ids.length,
  );
}

async function breadcrumbs(
  deps: MessageDeps,
  editor: User,
  from: { stream: Stream; topic: string },
  to: { stream: Stream; topic: string },
  req: EditRequest,
  count: number,
): Promise<void> {
  const notifyOld = req.sendNotificationToOldThread ?? false;
  const notifyNew = req.sendNotificationToNewThread ?? true;
  if (!notifyOld && !notifyNew) return;
  const bot = await deps.users.notificationBot();
  const user = `@_**${editor.fullName}|${editor.id}**`;
  const oldLocation = `#**${from.stream.name}>${from.topic}**`;
  const newLocation = `#**${to.stream.name}>${to.topic}**`;
  const all = req.propagateMode === "change_all";
  const what = count === 1 ? "A message was" : `${count} messages were`;
  if (notifyNew) {
    const content = all
      ? `This topic was moved here from ${oldLocation} by ${user}.`
      : `${what} moved here from ${oldLocation} by ${user}.`;
    await sendMessage(deps, bot, { type: "stream", to: to.stream.id, topic: to.topic, content });
  }
  if (notifyOld) {
    const content = all
      ? `This topic was moved to ${newLocation} by ${user}.`
      : `${what} moved from this topic to ${newLocation} by ${user}.`;
    await sendMessage(deps, bot, { type: "stream", to: from.stream.id, topic: from.topic, content });
  }
}
