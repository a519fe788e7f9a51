import type { User } from "../users/types.js";

/** A stored message. Times are unix seconds. */
export interface StoredMessage {
  id: number;
  senderId: number;
  recipientId: number;
  /** Stream messages only. */
  streamId: number | null;
  /** "" for private messages. */
  topic: string;
  /** Private messages only: the sorted participant ids including the sender ("3,5"; "3" to self). */
  pmKey: string | null;
  /** Markdown as sent (after Zulip's normalisation). */
  content: string;
  renderedContent: string;
  client: string;
  dateSent: number;
  lastEditTime: number | null;
  /** Zulip's stored edit history, newest first; null when never edited. */
  editHistory: EditHistoryEntry[] | null;
  isMeMessage: boolean;
}

export type NewMessage = Omit<StoredMessage, "id" | "lastEditTime" | "editHistory"> & {
  has: MessageHas;
  /**
   * A stream message stored sparsely: the flags of a recipient without a row (0 or
   * wildcard_mentioned), `read` derived from the watermark. Absent/null: a row per recipient.
   */
  recipientFlags?: number | null;
};

/** One stored edit (Zulip's edit_history entry). */
export interface EditHistoryEntry {
  user_id: number;
  timestamp: number;
  prev_content?: string;
  prev_rendered_content?: string;
  prev_rendered_content_version?: number;
  prev_topic?: string;
  topic?: string;
  prev_stream?: number;
  stream?: number;
}

/** A filter of a message range query (built from a narrow). */
export type MessageCondition =
  | { kind: "stream"; streamId: number; negated: boolean }
  | { kind: "topic"; topic: string; negated: boolean }
  | { kind: "sender"; userId: number; negated: boolean }
  | { kind: "pm"; pmKey: string; negated: boolean }
  | { kind: "private"; negated: boolean }
  /** Any of `bits` set in the user's flags. */
  | { kind: "flag"; bits: number; negated: boolean }
  | { kind: "not-muted"; topics: readonly { streamId: number; topicLower: string }[] }
  /** Full-text search: every term (a word or a phrase, lower-cased) in the topic or content. */
  | { kind: "search"; terms: readonly string[]; negated: boolean }
  /** Zulip's has_link / has_image / has_attachment. */
  | { kind: "has"; what: "link" | "image" | "attachment"; negated: boolean }
  | { kind: "id"; id: number; negated: boolean }
  /** Direct messages whose participants include the user (`dm-including`). */
  | { kind: "pm-including"; userId: number; negated: boolean }
  /** Messages of the realm's public (or web-public) channels (`channels:public`). */
  | { kind: "public-streams"; webPublicOnly: boolean; negated: boolean }
  /** Messages in any of these topics (stream id and lower-cased topic), e.g. followed ones. */
  | { kind: "topics"; topics: readonly { streamId: number; topicLower: string }[]; negated: boolean }
  /** Resolved topics (the name starts with "✔ "). */
  | { kind: "resolved"; negated: boolean }
  /** Messages with at least one emoji reaction. */
  | { kind: "reacted"; negated: boolean };

/** What a message's rendered content contains (Zulip's has_* columns). */
export interface MessageHas {
  link: boolean;
  image: boolean;
  attachment: boolean;
}

export interface UnreadRow {
  id: number;
  flags: number;
  streamId: number | null;
  topic: string;
  pmKey: string | null;
  senderId: number;
}

/** What `send` takes (the webhook pipeline and bots use it too). */
export interface SendInput {
  /** "direct" and "channel" are accepted as aliases. */
  type: "stream" | "private" | "direct" | "channel";
  /**
   * Stream: its name, its id, or a one-element list of either. Private: a list of emails or user
   * ids, or a comma-separated string of emails.
   */
  to: string | number | readonly (string | number)[];
  /** Required for stream messages ("Missing topic"); ignored for private messages. */
  topic?: string | undefined;
  content: string;
  /** The client name shown in `client` (default "Internal"). */
  client?: string | undefined;
  /**
   * Store a blank topic as "" instead of rejecting it ("Topic can't be empty"), as current Zulip
   * does for integrations (shown as "general chat"). POST /messages leaves this off.
   */
  allowEmptyTopic?: boolean | undefined;
  /** Local echo: the sending client's event queue and its local id (`local_message_id`). */
  queueId?: string | undefined;
  localId?: string | undefined;
  /** A bot's widget (`widget_content`, a zform), as JSON text. */
  widgetContent?: string | undefined;
}

/** A recipient of a new message with that user's flags (API names). */
export interface MessageRecipient {
  id: number;
  flags: string[];
}

/** What `onSent` listeners receive about a message that was just stored (after commit). */
export interface SentMessage {
  id: number;
  sender: User;
  type: "stream" | "private";
  /** Stream messages. */
  streamId: number | null;
  streamName: string | null;
  topic: string;
  /** Raw Markdown. */
  content: string;
  renderedContent: string;
  /** Non-silent, non-wildcard user mentions outside code, ascending. */
  mentionedUserIds: number[];
  wildcardMentioned: boolean;
  /** Private messages: every participant including the sender, ascending. */
  privateRecipientIds: number[];
  timestamp: number;
  /** The message in the format of a `message` event / GET /messages (HTML content, avatar_url set). */
  wire: Record<string, unknown>;
}

export type SentListener = (
  message: SentMessage,
  recipients: readonly MessageRecipient[],
) => void | Promise<void>;

/** How GET /messages presents content. */
export interface PresentOptions {
  applyMarkdown: boolean;
  clientGravatar: boolean;
}

export type Anchor = number | "newest" | "oldest" | "first_unread";

/** A narrow term: `[operator, operand]` or `{operator, operand, negated}` after parsing. */
export interface NarrowTerm {
  operator: string;
  operand: string | number | readonly (string | number)[];
  negated: boolean;
}

export interface FetchRequest {
  anchor: Anchor;
  numBefore: number;
  numAfter: number;
  includeAnchor: boolean;
  narrow: readonly NarrowTerm[];
  present: PresentOptions;
}

export interface FetchResult {
  anchor: number;
  foundAnchor: boolean;
  foundOldest: boolean;
  foundNewest: boolean;
  historyLimited: boolean;
  /** Message dicts with `flags`. */
  messages: Record<string, unknown>[];
}

export type PropagateMode = "change_one" | "change_later" | "change_all";

export interface EditRequest {
  content?: string | undefined;
  topic?: string | undefined;
  propagateMode: PropagateMode;
  /** Move to this stream (administrators; with the topic's other messages per propagateMode). */
  streamId?: number | undefined;
  /** Notification Bot notices (Zulip's defaults: old thread false, new thread true). */
  sendNotificationToOldThread?: boolean | undefined;
  sendNotificationToNewThread?: boolean | undefined;
}

/** Zulip's register `unread_msgs`. */
export interface UnreadMessages {
  count: number;
  pms: { other_user_id: number; sender_id: number; unread_message_ids: number[] }[];
  streams: { stream_id: number; topic: string; unread_message_ids: number[] }[];
  huddles: { user_ids_string: string; unread_message_ids: number[] }[];
  mentions: number[];
  old_unreads_missing: boolean;
}

/** Zulip's emoji namespaces: an emoji is identified by its code within its type. */
export type ReactionType = "unicode_emoji" | "realm_emoji" | "zulip_extra_emoji";

/** One user's emoji reaction on a message. */
export interface Reaction {
  messageId: number;
  userId: number;
  emojiName: string;
  emojiCode: string;
  reactionType: ReactionType;
}

/** What POST/DELETE /messages/{id}/reactions take (Zulip's names; `emojiName` optional on remove). */
export interface ReactionRequest {
  emojiName?: string | undefined;
  emojiCode?: string | undefined;
  reactionType?: string | undefined;
}
