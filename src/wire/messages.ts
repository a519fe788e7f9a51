import type { Submessage } from "../store/submessages-repo.js";
import { avatarUrl } from "../domain/users/avatar.js";
import type { User } from "../domain/users/types.js";
import type {
  EditHistoryEntry,
  FetchResult,
  PresentOptions,
  Reaction,
  StoredMessage,
} from "../domain/messages/types.js";

/** What a message dict needs besides the stored row. */
export interface WireContext {
  sender: User;
  realmStr: string;
  /** Stream messages: the stream's current name. */
  streamName?: string | undefined;
  /** Private messages: every participant including the sender. */
  participants?: readonly User[] | undefined;
  /** The message's reactions, oldest first (none when omitted). */
  reactions?: readonly Reaction[] | undefined;
  /** The message's submessages (its widget and what was done with it), oldest first. */
  submessages?: readonly Submessage[] | undefined;
}

/** A submessage as messages and `submessage` events carry it. */
export function submessageWire(s: Submessage): Record<string, unknown> {
  return {
    msg_type: s.msgType,
    content: s.content,
    message_id: s.messageId,
    sender_id: s.senderId,
    id: s.id,
  };
}

/** A `display_recipient` element of a private message. */
export function displayRecipientUser(u: User): Record<string, unknown> {
  return { email: u.email, full_name: u.fullName, id: u.id, short_name: u.shortName, is_mirror_dummy: false };
}

/**
 * A `reactions` element of a message object. Zulip's schema (`EmojiReaction`) allows exactly these
 * fields; the deprecated `user` object is not sent (the OpenAPI checks reject it).
 */
export function reactionWire(r: Reaction): Record<string, unknown> {
  return {
    emoji_name: r.emojiName,
    emoji_code: r.emojiCode,
    reaction_type: r.reactionType,
    user_id: r.userId,
  };
}

/** The stored edit history as message objects show it: newest first, without the render version. */
export function editHistoryWire(history: readonly EditHistoryEntry[]): Record<string, unknown>[] {
  return history.map((entry) => {
    const { prev_rendered_content_version: _version, ...rest } = entry;
    return { ...rest };
  });
}

/**
 * Zulip's message dict (GET /messages, `message` events; core-api §6.2) without `flags`.
 * `applyMarkdown` false gives the raw Markdown with content_type text/x-markdown; `clientGravatar`
 * gives avatar_url null.
 */
export function messageWire(
  m: StoredMessage,
  ctx: WireContext,
  opts: PresentOptions,
): Record<string, unknown> {
  const isStream = m.streamId !== null;
  const out: Record<string, unknown> = {
    id: m.id,
    sender_id: m.senderId,
    content: opts.applyMarkdown ? m.renderedContent : m.content,
    recipient_id: m.recipientId,
    timestamp: m.dateSent,
    client: m.client,
    subject: m.topic,
    subject_links: [],
    topic_links: [],
    is_me_message: m.isMeMessage,
    reactions: (ctx.reactions ?? []).map(reactionWire),
    submessages: (ctx.submessages ?? []).map(submessageWire),
    sender_full_name: ctx.sender.fullName,
    sender_email: ctx.sender.email,
    sender_short_name: ctx.sender.shortName,
    sender_realm_str: ctx.realmStr,
    display_recipient: isStream
      ? (ctx.streamName ?? "")
      : [...(ctx.participants ?? [])].sort((a, b) => a.id - b.id).map(displayRecipientUser),
    type: isStream ? "stream" : "private",
    ...(isStream ? { stream_id: m.streamId } : {}),
    avatar_url: opts.clientGravatar ? null : avatarUrl(ctx.sender.email),
    content_type: opts.applyMarkdown ? "text/html" : "text/x-markdown",
  };
  if (m.lastEditTime !== null) {
    out["last_edit_timestamp"] = m.lastEditTime;
    if (m.editHistory !== null) out["edit_history"] = editHistoryWire(m.editHistory);
  }
  return out;
}

/** GET /messages's response fields (besides result and msg). */
export function fetchResultWire(r: FetchResult): Record<string, unknown> {
  return {
    anchor: r.anchor,
    found_anchor: r.foundAnchor,
    found_oldest: r.foundOldest,
    found_newest: r.foundNewest,
    history_limited: r.historyLimited,
    messages: r.messages,
  };
}
