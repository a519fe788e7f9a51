import { JsonableError } from "../../errors.js";
import { RESOLVED_TOPIC_PREFIX } from "../events/narrow.js";
import { deleteMessageEvent } from "../../wire/events.js";
import type { Rendered } from "../markdown/render.js";
import { isAdmin } from "../users/types.js";
import type { User } from "../users/types.js";
import { accessMessage, interestedUsers } from "./access.js";
import {
  MAX_MESSAGE_LENGTH,
  TRUNCATION_NOTICE,
  isMe,
  messageHas,
  normalizeTopic,
  truncate,
} from "./content.js";
import { Flag } from "./flag-bits.js";
import { buildHistory } from "./history.js";
import type { MessageDeps } from "./ports.js";
import { nowSeconds } from "./ports.js";
import { moveToStream } from "./move.js";
import { sendMessage } from "./send.js";
import { renderFor } from "./rendering.js";
import { linkAttachments } from "./send.js";
import type { EditHistoryEntry, EditRequest } from "./types.js";

/** Python's `str.lstrip(RESOLVED_TOPIC_PREFIX)`: every leading "✔" and space. */
function withoutResolvedPrefix(topic: string): string {
  return topic.replace(/^[✔ ]+/u, "");
}

/** Whether renaming `from` to `to` resolves or unresolves the topic, as Zulip decides it. */
export function topicResolution(from: string, to: string): "resolved" | "unresolved" | undefined {
  const p = RESOLVED_TOPIC_PREFIX;
  if (to.startsWith(p) && !from.startsWith(p) && withoutResolvedPrefix(to) === from) return "resolved";
  if (from.startsWith(p) && !to.startsWith(p) && withoutResolvedPrefix(from) === to) return "unresolved";
  return undefined;
}

/** PATCH /messages/{id}: content and/or topic (with propagate_mode), Zulip's checks and texts. */
export async function editMessage(
  deps: MessageDeps,
  editor: User,
  id: number,
  req: EditRequest,
): Promise<void> {
  const { message } = await accessMessage(deps, editor, id);
  if (req.streamId !== undefined && req.streamId !== message.streamId) {
    await moveToStream(deps, editor, message, { ...req, streamId: req.streamId });
    return;
  }
  if (message.senderId !== editor.id && !(req.content === undefined && isAdmin(editor))) {
    throw new JsonableError("You don't have permission to edit this message");
  }
  let topic: string | undefined;
  if (req.topic !== undefined) {
    if (message.streamId === null) throw new JsonableError("Private messages cannot have topics.");
    topic = normalizeTopic(req.topic);
    if (topic === message.topic) topic = undefined;
  }
  if (topic === undefined && req.content === undefined) throw new JsonableError("Nothing to change");
  if (req.propagateMode !== "change_one" && topic === undefined) {
    throw new JsonableError("Invalid propagate_mode without topic edit");
  }
  let content: string | undefined;
  let rendered: Rendered | undefined;
  if (req.content !== undefined) {
    const stripped = req.content.trim();
    content = stripped === "" ? "(deleted)" : truncate(stripped, MAX_MESSAGE_LENGTH, TRUNCATION_NOTICE);
    const sender = (await deps.users.byId(message.senderId)) ?? editor;
    rendered = await renderFor(deps, sender, content);
  }
  const now = nowSeconds(deps);
  const stream = message.streamId === null ? undefined : await deps.streams.byId(message.streamId);

  const entry: EditHistoryEntry = { user_id: editor.id, timestamp: now };
  if (content !== undefined && rendered !== undefined) {
    entry.prev_content = message.content;
    entry.prev_rendered_content = message.renderedContent;
    entry.prev_rendered_content_version = 1;
  }
  if (topic !== undefined) {
    entry.prev_topic = message.topic;
    entry.topic = topic;
  }

  const changedIds = await deps.store.transaction(async (repos) => {
    const repo = repos.messages;
    if (content !== undefined && rendered !== undefined) {
      await repo.updateContent(id, content, rendered.html, isMe(content), messageHas(rendered.html));
      // A sparse message's recipients without a row follow its derived flags: set them first.
      await repos.recipientRows.setWildcardMentioned(id, rendered.wildcard);
      const rows = await repos.flags.rowsOfMessage(id);
      const mentioned = new Set(rendered.mentionedUserIds);
      // As Zulip: the new text's alert words set has_alert_word (never for the sender).
      const alerted =
        deps.alertWords === undefined
          ? new Set<number>()
          : await deps.alertWords.usersAlerted(
              content,
              rows.map((r) => r.userId).filter((u) => u !== message.senderId),
            );
      const mentionBits = Flag.mentioned | Flag.wildcard_mentioned | Flag.has_alert_word;
      const changes = rows.flatMap((r) => {
        let flags = r.flags & ~mentionBits;
        if (mentioned.has(r.userId)) flags |= Flag.mentioned;
        if (rendered.wildcard) flags |= Flag.wildcard_mentioned;
        if (alerted.has(r.userId)) flags |= Flag.has_alert_word;
        return flags === r.flags ? [] : [{ userId: r.userId, flags }];
      });
      await repos.flags.setUserFlags(id, mentionBits, changes);
      await linkAttachments(repos, message.senderId, id, content, true);
    }
    let ids = [id];
    if (topic !== undefined && message.streamId !== null && req.propagateMode !== "change_one") {
      ids = await repo.topicMessageIds(
        message.streamId,
        message.topic,
        req.propagateMode === "change_later" ? id : undefined,
      );
    }
    const others = new Map((await repo.byIds(ids.filter((mid) => mid !== id))).map((m) => [m.id, m]));
    if (topic !== undefined) await repo.updateTopics(ids, topic);
    for (const mid of ids) {
      const m = mid === id ? message : others.get(mid);
      if (m === undefined) continue;
      const e: EditHistoryEntry =
        mid === id
          ? entry
          : { user_id: editor.id, timestamp: now, prev_topic: m.topic, topic: topic ?? m.topic };
      await repo.setEdited(mid, now, [e, ...(m.editHistory ?? [])]);
    }
    return ids;
  });

  const event: Record<string, unknown> & { type: string } = {
    type: "update_message",
    user_id: editor.id,
    edit_timestamp: now,
    message_id: id,
    message_ids: changedIds,
    rendering_only: false,
  };
  if (stream !== undefined) {
    event["stream_name"] = stream.name;
    event["stream_id"] = stream.id;
  }
  if (content !== undefined && rendered !== undefined) {
    event["orig_content"] = message.content;
    event["orig_rendered_content"] = message.renderedContent;
    event["content"] = content;
    event["rendered_content"] = rendered.html;
    event["is_me_message"] = isMe(content);
  }
  if (topic !== undefined) {
    event["propagate_mode"] = req.propagateMode;
    event["orig_subject"] = message.topic;
    event["subject"] = topic;
    event["topic_links"] = [];
  }
  deps.events.send(event, await interestedUsers(deps, id, stream));
  if (topic !== undefined && stream !== undefined) {
    // As Zulip: resolving or unresolving a topic is told in it by the Notification Bot.
    const resolution = topicResolution(message.topic, topic);
    if (resolution !== undefined) {
      const bot = await deps.users.notificationBot();
      await sendMessage(deps, bot, {
        type: "stream",
        to: stream.id,
        topic,
        content: `@_**${editor.fullName}|${editor.id}** has marked this topic as ${resolution}.`,
      });
    }
  }
}

/** GET /messages/{id}/history. */
export async function messageHistory(
  deps: MessageDeps,
  user: User,
  id: number,
): Promise<Record<string, unknown>[]> {
  const { message } = await accessMessage(deps, user, id);
  return buildHistory(message);
}

/** DELETE /messages/{id}: organization administrators only. */
export async function deleteMessage(deps: MessageDeps, user: User, id: number): Promise<void> {
  const { message } = await accessMessage(deps, user, id);
  if (!isAdmin(user)) throw new JsonableError("You don't have permission to delete this message");
  const stream = message.streamId === null ? undefined : await deps.streams.byId(message.streamId);
  const recipients = (await interestedUsers(deps, id, stream)).map((r) => r.id);
  const deleted = await deps.store.transaction(({ messages: repo }) => repo.delete(id));
  if (!deleted) throw new JsonableError("Message already deleted");
  deps.events.send(deleteMessageEvent([id], stream, message.topic), recipients);
}
