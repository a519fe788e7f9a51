import type { Clock } from "../../clock.js";
import { withSpan } from "../../lib/tracing.js";
import { JsonableError } from "../../errors.js";
import type { Logger } from "../../lib/logger.js";
import type { RepoStore } from "../../store/repos.js";
import type { EventSink } from "../events/event-sink.js";
import type { CustomEmojiSource } from "../markdown/emoji-custom.js";
import type { User } from "../users/types.js";
import type { PermissionChecker } from "../user-groups/group-permissions.js";
import { accessMessage } from "./access.js";
import { deleteMessage, editMessage, messageHistory } from "./edit.js";
import { fetchMessages, getWithRawContent, matchesNarrow } from "./fetch.js";
import { markAllAsRead, markStreamAsRead, markTopicAsRead, updateFlags } from "./flags.js";
import { updateFlagsForNarrow } from "./flags-narrow.js";
import type { FlagsForNarrowRequest, FlagsForNarrowResult } from "./flags-narrow.js";
import { readReceipts } from "./read-receipts.js";
import { addSubmessage } from "./submessages.js";
import type {
  AlertWordMatcher,
  GroupMentions,
  LinkifierSource,
  MessageDeps,
  StreamLookup,
  UploadedImageLookup,
  UserLookup,
} from "./ports.js";
import { addReaction, removeReaction } from "./reactions.js";
import { MAX_MESSAGE_LENGTH, TRUNCATION_NOTICE, truncate } from "./content.js";
import { renderFor } from "./rendering.js";
import { sendMessage } from "./send.js";
import { deleteTopic, topicsOf } from "./topics.js";
import type {
  EditRequest,
  FetchRequest,
  FetchResult,
  PresentOptions,
  ReactionRequest,
  SendInput,
  SentListener,
  UnreadMessages,
} from "./types.js";
import { unreadMessages } from "./unread.js";

export {
  LARGER_THAN_MAX_MESSAGE_ID,
  MAX_MESSAGES_PER_FETCH,
  MAX_MESSAGE_LENGTH,
  MAX_TOPIC_NAME_LENGTH,
  MAX_UNREAD_MESSAGES,
  normalizeContent,
  normalizeTopic,
} from "./content.js";

export interface MessageServiceDeps {
  store: RepoStore;
  users: UserLookup;
  /** The streams area's read side (lookups and access checks), not the stream service. */
  streams: StreamLookup;
  events: EventSink;
  clock: Clock;
  logger: Logger;
  /** User groups for `@*group*` mentions (optional: tools that render without groups). */
  groups?: GroupMentions;
  /** Group-based permissions: who may post to a stream (optional: the announcement-only rule). */
  permissions?: PermissionChecker;
  /** Alert words for `has_alert_word` flags (optional, like `groups`). */
  alertWords?: AlertWordMatcher;
  /** The realm's linkifiers for rendering (optional, like `groups`). */
  linkifiers?: LinkifierSource;
  /** Custom emoji for rendering and reactions (optional, like `groups`). */
  customEmoji?: CustomEmojiSource;
  /** The image proxy's URL for a remote image (src/domain/camo); remote images become links without it. */
  proxyImage?: (url: string) => string;
  /** Uploaded images' sizes for their previews (src/domain/uploads); no previews without it. */
  uploadedImages?: UploadedImageLookup;
}

/**
 * Messages: sending, reading (narrows and anchors), editing with history, deleting, and per-user
 * flags (read, starred, …) with the unread summary. Each operation lives in its use-case module
 * (send, fetch, narrow, edit, reactions, flags, unread); this class is the entry point routes and
 * other areas use. Public API for other areas (keep stable):
 *
 * - `send(sender, {type, to, topic?, content, client?}) → Promise<id>`: what POST /messages does,
 *   with the same errors. Webhooks and bots post through it.
 * - `onSent((message, recipients) => …)`: called after each new message has committed (errors are
 *   logged, never thrown back to the sender). Returns an unsubscribe function.
 * - `getForUser(user, id, present?)`: one message in GET /messages format (with `flags`), or
 *   "Invalid message(s)" when the user may not read it.
 * - `maxMessageId(userId)`, `unreadMessages(userId)`: register's `max_message_id`/`unread_msgs`.
 *
 * Events are published after the write commits, one `send` per operation (O(recipients)).
 */
export class MessageService {
  private readonly deps: MessageDeps;

  constructor(deps: MessageServiceDeps) {
    this.deps = { ...deps, listeners: [] };
  }

  /** Subscribes to new messages (after commit). Returns a function that unsubscribes. */
  onSent(listener: SentListener): () => void {
    const { listeners } = this.deps;
    listeners.push(listener);
    return () => {
      const i = listeners.indexOf(listener);
      if (i !== -1) listeners.splice(i, 1);
    };
  }

  /** Sends a message as `sender` (POST /messages). Returns the new message's id. */
  async send(sender: User, input: SendInput): Promise<number> {
    return withSpan("message send", { attributes: { "message.type": input.type } }, () =>
      sendMessage(this.deps, sender, input),
    );
  }

  /** One message in GET /messages format (with `flags`); "Invalid message(s)" if not readable. */
  async getForUser(user: User, id: number, present?: PresentOptions): Promise<Record<string, unknown>> {
    return (await getWithRawContent(this.deps, user, id, present)).message;
  }

  /** GET /messages/{id}: the message (with `flags`) and its Markdown source. */
  async getWithRawContent(
    user: User,
    id: number,
    present?: PresentOptions,
  ): Promise<{ rawContent: string; message: Record<string, unknown> }> {
    return getWithRawContent(this.deps, user, id, present);
  }

  /** GET /messages: a range of the narrow around an anchor. */
  async fetch(user: User, req: FetchRequest): Promise<FetchResult> {
    return fetchMessages(this.deps, user, req);
  }

  /** Whether the user may read the message (their own copy, or readable stream history). */
  async canRead(user: User, id: number): Promise<boolean> {
    try {
      await accessMessage(this.deps, user, id);
      return true;
    } catch (err) {
      if (err instanceof JsonableError) return false;
      throw err;
    }
  }

  /** GET /messages/matches_narrow: the given messages that match, with highlighted matches. */
  async matchesNarrow(
    user: User,
    ids: readonly number[],
    narrow: FetchRequest["narrow"],
  ): Promise<Record<string, { match_content: string; match_subject: string }>> {
    return matchesNarrow(this.deps, user, ids, narrow);
  }

  /**
   * POST /messages/render: Markdown rendered as it would be if `user` sent it, so content over
   * Zulip's 10,000 characters is truncated as a send truncates it (and nothing longer is rendered).
   */
  async render(user: User, content: string): Promise<string> {
    const bounded = truncate(content, MAX_MESSAGE_LENGTH, TRUNCATION_NOTICE);
    return (await renderFor(this.deps, user, bounded)).html;
  }

  /** GET /users/me/{stream_id}/topics: the stream's topics, newest first. */
  async topics(user: User, streamId: number): Promise<{ name: string; maxId: number }[]> {
    return topicsOf(this.deps, user, streamId);
  }

  /** POST /streams/{id}/delete_topic (administrators). */
  async deleteTopic(actor: User, streamId: number, topicName: string): Promise<void> {
    return deleteTopic(this.deps, actor, streamId, topicName);
  }

  /** PATCH /messages/{id}. */
  async edit(editor: User, id: number, req: EditRequest): Promise<void> {
    return editMessage(this.deps, editor, id, req);
  }

  /** GET /messages/{id}/history. */
  async history(user: User, id: number): Promise<Record<string, unknown>[]> {
    return messageHistory(this.deps, user, id);
  }

  /** DELETE /messages/{id}: organization administrators only. */
  async delete(user: User, id: number): Promise<void> {
    return deleteMessage(this.deps, user, id);
  }

  /** POST /messages/{id}/reactions. */
  async addReaction(user: User, messageId: number, req: ReactionRequest): Promise<void> {
    return addReaction(this.deps, user, messageId, req);
  }

  /** DELETE /messages/{id}/reactions. */
  async removeReaction(user: User, messageId: number, req: ReactionRequest): Promise<void> {
    return removeReaction(this.deps, user, messageId, req);
  }

  /** POST /mark_all_as_read. */
  async markAllAsRead(user: User): Promise<void> {
    return markAllAsRead(this.deps, user);
  }

  /** POST /mark_stream_as_read. */
  async markStreamAsRead(user: User, streamId: number): Promise<void> {
    return markStreamAsRead(this.deps, user, streamId);
  }

  /** POST /mark_topic_as_read. */
  async markTopicAsRead(user: User, streamId: number, topicName: string): Promise<void> {
    return markTopicAsRead(this.deps, user, streamId, topicName);
  }

  /** POST /messages/flags: returns the ids whose flag changed. */
  async updateFlags(user: User, messageIds: readonly number[], op: string, flag: string): Promise<number[]> {
    return updateFlags(this.deps, user, messageIds, op, flag);
  }

  /** POST /messages/flags/narrow: a flag changed on a narrow's messages around an anchor. */
  async updateFlagsForNarrow(user: User, req: FlagsForNarrowRequest): Promise<FlagsForNarrowResult> {
    return updateFlagsForNarrow(this.deps, user, req);
  }

  /** GET /messages/{id}/read_receipts: who has read the message. */
  async readReceipts(user: User, id: number): Promise<number[]> {
    return readReceipts(this.deps, user, id);
  }

  /** POST /submessage: a vote, option, task or tick on a message's widget. */
  async addSubmessage(user: User, messageId: number, msgType: string, content: string): Promise<void> {
    return addSubmessage(this.deps, user, messageId, msgType, content);
  }

  /** Register's `unread_msgs`. */
  async unreadMessages(userId: number): Promise<UnreadMessages> {
    return unreadMessages(this.deps, userId);
  }

  /** Highest message id the user has received; -1 when none. */
  async maxMessageId(userId: number): Promise<number> {
    return this.deps.store.read.flags.maxMessageId(userId);
  }
}
