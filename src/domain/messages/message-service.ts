import type { Clock } from "../../clock.js";
import {
  BadNarrowError,
  JsonableError,
  ReactionAlreadyExistsError,
  ReactionDoesNotExistError,
  StreamDoesNotExistError,
  StreamIdDoesNotExistError,
} from "../../errors.js";
import type { Logger } from "../../logger.js";
import type { Db } from "../../store/db.js";
import { MessagesRepo } from "../../store/messages-repo.js";
import type { MessageScope } from "../../store/messages-repo.js";
import { ReactionsRepo } from "../../store/reactions-repo.js";
import type { EventRecipient, EventSink } from "../events/event-sink.js";
import { WILDCARD_MENTIONS, mentionCandidates, renderMarkdown } from "../markdown/render.js";
import type { LinkableStream, MentionableUser, Rendered } from "../markdown/render.js";
import type { StreamService } from "../streams/stream-service.js";
import type { Stream } from "../streams/types.js";
import type { UserService } from "../users/user-service.js";
import { isAdmin, isGuest } from "../users/types.js";
import type { User } from "../users/types.js";
import { API_FLAGS, EDITABLE_FLAGS, Flag, HISTORICAL_FLAGS, flagNames } from "./flags.js";
import type { FlagName } from "./flags.js";
import { buildHistory } from "./history.js";
import { checkEmoji, emojiByName } from "./reaction-emoji.js";
import type {
  EditHistoryEntry,
  EditRequest,
  FetchRequest,
  FetchResult,
  MessageCondition,
  MessageRecipient,
  NarrowTerm,
  PresentOptions,
  Reaction,
  ReactionRequest,
  SendInput,
  SentListener,
  SentMessage,
  StoredMessage,
  UnreadMessages,
} from "./types.js";
import { messageWire } from "./wire.js";

/** Zulip's limits (core-api §7). */
export const MAX_MESSAGE_LENGTH = 10000;
export const MAX_TOPIC_NAME_LENGTH = 60;
export const MAX_MESSAGES_PER_FETCH = 5000;
export const LARGER_THAN_MAX_MESSAGE_ID = 10000000000000000;
export const MAX_UNREAD_MESSAGES = 50000;

const HTML_EVENT: PresentOptions = { applyMarkdown: true, clientGravatar: false };

/** Zulip's truncate_content. */
function truncate(text: string, max: number, suffix: string): string {
  return text.length <= max ? text : text.slice(0, max - suffix.length) + suffix;
}

/** Zulip's normalize_body: strip trailing whitespace and leading newlines; checks; truncation. */
export function normalizeContent(raw: string): string {
  const content = raw.trimEnd().replace(/^\n+/, "");
  if (content === "") throw new JsonableError("Message must not be empty");
  if (content.includes("\0")) throw new JsonableError("Message must not contain null bytes");
  return truncate(content, MAX_MESSAGE_LENGTH, "\n[message truncated]");
}

/** Zulip's topic checks: blank → error; longer than 60 → 57 characters + "...". */
export function normalizeTopic(raw: string): string {
  const topic = raw.trim();
  if (topic === "") throw new JsonableError("Topic can't be empty");
  return truncate(topic, MAX_TOPIC_NAME_LENGTH, "...");
}

const isMe = (content: string) => content.startsWith("/me ") && !content.includes("\n");

const invalidMessage = () => new JsonableError("Invalid message(s)");

export interface MessageServiceDeps {
  db: Db;
  users: UserService;
  streams: StreamService;
  events: EventSink;
  clock: Clock;
  logger: Logger;
}

/**
 * Messages: sending, reading (narrows and anchors), editing with history, deleting, and per-user
 * flags (read, starred, …) with the unread summary. Public API for other areas (keep stable):
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
  private readonly listeners: SentListener[] = [];
  private realmStr: string | undefined;

  constructor(private readonly deps: MessageServiceDeps) {}

  private get repo(): MessagesRepo {
    return new MessagesRepo(this.deps.db);
  }

  private now(): number {
    return Math.floor(this.deps.clock.now() / 1000);
  }

  /** Subscribes to new messages (after commit). Returns a function that unsubscribes. */
  onSent(listener: SentListener): () => void {
    this.listeners.push(listener);
    return () => {
      const i = this.listeners.indexOf(listener);
      if (i !== -1) this.listeners.splice(i, 1);
    };
  }

  // Sending

  /** Sends a message as `sender` (POST /messages). Returns the new message's id. */
  async send(sender: User, input: SendInput): Promise<number> {
    const type =
      input.type === "stream" || input.type === "channel"
        ? "stream"
        : input.type === "private" || input.type === "direct"
          ? "private"
          : undefined;
    if (type === undefined) throw new JsonableError("Invalid message type");
    return type === "stream" ? this.sendToStream(sender, input) : this.sendPrivate(sender, input);
  }

  private async sendToStream(sender: User, input: SendInput): Promise<number> {
    if (input.topic === undefined) throw new JsonableError("Missing topic");
    const topic =
      input.allowEmptyTopic === true && input.topic.trim() === "" ? "" : normalizeTopic(input.topic);
    const content = normalizeContent(input.content);
    let to = input.to;
    if (Array.isArray(to)) {
      if (to.length !== 1) throw new JsonableError("Expected exactly one stream");
      to = to[0] as string | number;
    }
    const { streams } = this.deps;
    let stream: Stream | undefined;
    if (typeof to === "number") {
      stream = await streams.byId(to);
      if (stream === undefined) throw new StreamIdDoesNotExistError(to);
    } else {
      const name = String(to);
      stream = await streams.byName(name);
      if (stream === undefined) throw new StreamDoesNotExistError(name);
    }
    await this.checkCanPost(sender, stream);
    const subscribers = await streams.subscriberIds(stream.id);
    const rendered = await this.render(sender, content);
    const ids = new Set(subscribers);
    ids.add(sender.id);
    const recipients = this.recipientFlags(
      [...ids].sort((a, b) => a - b),
      sender.id,
      rendered,
      0,
    );
    const id = await this.deps.db.transaction(async (tx) => {
      const repo = new MessagesRepo(tx);
      const recipientId = await repo.recipientId(2, String(stream.id));
      const messageId = await repo.insertMessage({
        senderId: sender.id,
        recipientId,
        streamId: stream.id,
        topic,
        pmKey: null,
        content,
        renderedContent: rendered.html,
        client: input.client ?? "Internal",
        dateSent: this.now(),
        isMeMessage: isMe(content),
      });
      await repo.insertUserMessages(messageId, recipients);
      return messageId;
    });
    await streams.noteMessageSent(stream.id, id);
    await this.afterSend(id, sender, rendered, recipients, stream, [], input);
    return id;
  }

  /** Zulip's access_stream_for_send_message, with its texts. */
  private async checkCanPost(sender: User, stream: Stream): Promise<void> {
    const owner =
      sender.isBot && sender.botOwnerId !== null ? await this.deps.users.byId(sender.botOwnerId) : undefined;
    if (stream.isAnnouncementOnly && !isAdmin(sender) && !(owner !== undefined && isAdmin(owner))) {
      throw new JsonableError("Only organization administrators can send to this stream.");
    }
    if (!stream.inviteOnly && !isGuest(sender)) return;
    if (await this.deps.streams.isSubscribed(sender.id, stream.id)) return;
    if (owner !== undefined && (await this.deps.streams.isSubscribed(owner.id, stream.id))) return;
    throw new JsonableError(`Not authorized to send to stream '${stream.name}'`);
  }

  private async sendPrivate(sender: User, input: SendInput): Promise<number> {
    const content = normalizeContent(input.content);
    const raw: (string | number)[] =
      typeof input.to === "string"
        ? input.to.split(",")
        : typeof input.to === "number"
          ? [input.to]
          : [...input.to];
    const others = new Map<number, User>();
    for (const item of raw) {
      let user: User | undefined;
      if (typeof item === "number") {
        user = await this.deps.users.byId(item);
        if (user === undefined) throw new JsonableError(`Invalid user ID ${item}`);
      } else {
        const email = item.trim();
        if (email === "") continue;
        user = await this.deps.users.byEmail(email);
        if (user === undefined) throw new JsonableError(`Invalid email '${email}'`);
      }
      if (!user.isActive) throw new JsonableError(`'${user.email}' is no longer using Zulip.`);
      others.set(user.id, user);
    }
    if (others.size === 0) throw new JsonableError("Message must have recipients");
    const participants = new Map(others);
    participants.set(sender.id, sender);
    const ids = [...participants.keys()].sort((a, b) => a - b);
    const pmKey = ids.join(",");
    const rendered = await this.render(sender, content);
    const recipients = this.recipientFlags(ids, sender.id, rendered, Flag.is_private);
    const other = ids.find((id) => id !== sender.id) ?? sender.id;
    const id = await this.deps.db.transaction(async (tx) => {
      const repo = new MessagesRepo(tx);
      const recipientId =
        ids.length <= 2 ? await repo.recipientId(1, String(other)) : await repo.recipientId(3, pmKey);
      const messageId = await repo.insertMessage({
        senderId: sender.id,
        recipientId,
        streamId: null,
        topic: "",
        pmKey,
        content,
        renderedContent: rendered.html,
        client: input.client ?? "Internal",
        dateSent: this.now(),
        isMeMessage: isMe(content),
      });
      await repo.insertUserMessages(messageId, recipients);
      return messageId;
    });
    await this.afterSend(id, sender, rendered, recipients, undefined, ids, input);
    return id;
  }

  /** Each recipient's flags bitmask: the sender's copy is read; mentions set mentioned bits. */
  private recipientFlags(
    ids: readonly number[],
    senderId: number,
    rendered: Rendered,
    base: number,
  ): { id: number; flags: number }[] {
    const mentioned = new Set(rendered.mentionedUserIds);
    return ids.map((id) => {
      let flags = base;
      if (id === senderId) flags |= Flag.read;
      if (mentioned.has(id)) flags |= Flag.mentioned;
      if (rendered.wildcard) flags |= Flag.wildcard_mentioned;
      return { id, flags };
    });
  }

  /** Renders content for `sender`: mentions of active users, links to streams the sender can see. */
  private async render(sender: User, content: string): Promise<Rendered> {
    const candidates = mentionCandidates(content);
    let users: MentionableUser[] = [];
    const personal = candidates.names.filter((n) => !WILDCARD_MENTIONS.includes(n));
    if (personal.length > 0 || candidates.ids.length > 0) {
      users = await this.repo.activeUsersNamed(personal, candidates.ids);
    }
    const streams: LinkableStream[] = [];
    for (const name of candidates.streamNames) {
      const stream = await this.deps.streams.byName(name);
      if (stream !== undefined && (await this.deps.streams.canAccess(sender, stream))) {
        streams.push({ id: stream.id, name: stream.name });
      }
    }
    return renderMarkdown(content, { users, streams });
  }

  private async afterSend(
    id: number,
    sender: User,
    rendered: Rendered,
    rows: readonly { id: number; flags: number }[],
    stream: Stream | undefined,
    privateIds: readonly number[],
    local: SendInput,
  ): Promise<void> {
    const message = await this.repo.byId(id);
    if (message === undefined) return;
    const wire = await this.wireOne(message, HTML_EVENT, { isNew: true });
    const recipients: MessageRecipient[] = rows.map((r) => ({ id: r.id, flags: flagNames(r.flags) }));
    const event: Record<string, unknown> & { type: string } = {
      type: "message",
      message: wire,
      _raw_content: message.content,
    };
    if (stream !== undefined && !stream.inviteOnly) event["_public_stream"] = true;
    if (local.queueId !== undefined && local.localId !== undefined) {
      event["_sender_queue_id"] = local.queueId;
      event["_local_id"] = local.localId;
    }
    this.deps.events.send(event, recipients);
    const sent: SentMessage = {
      id,
      sender,
      type: stream === undefined ? "private" : "stream",
      streamId: stream?.id ?? null,
      streamName: stream?.name ?? null,
      topic: message.topic,
      content: message.content,
      renderedContent: message.renderedContent,
      mentionedUserIds: rendered.mentionedUserIds,
      wildcardMentioned: rendered.wildcard,
      privateRecipientIds: [...privateIds],
      timestamp: message.dateSent,
      wire,
    };
    for (const listener of [...this.listeners]) {
      try {
        await listener(sent, recipients);
      } catch (err) {
        this.deps.logger.error("onSent listener failed", { err: String(err), messageId: id });
      }
    }
  }

  // Presenting

  private async realm(): Promise<string> {
    this.realmStr ??= (await this.deps.users.realm()).stringId;
    return this.realmStr;
  }

  /**
   * Message dicts for stored messages, in order, with a shared user/stream cache; their reactions
   * are loaded in one query (skipped for a message just sent, which has none).
   */
  private async wireMany(
    messages: readonly StoredMessage[],
    opts: PresentOptions,
    { isNew = false }: { isNew?: boolean } = {},
  ): Promise<Record<string, unknown>[]> {
    const realmStr = await this.realm();
    const reactions = new Map<number, Reaction[]>();
    if (!isNew) {
      const all = await new ReactionsRepo(this.deps.db).forMessages(messages.map((m) => m.id));
      for (const r of all) {
        const list = reactions.get(r.messageId);
        if (list === undefined) reactions.set(r.messageId, [r]);
        else list.push(r);
      }
    }
    const userIds = new Set<number>();
    const streamIds = new Set<number>();
    for (const m of messages) {
      userIds.add(m.senderId);
      if (m.streamId !== null) streamIds.add(m.streamId);
      for (const id of pmIds(m)) userIds.add(id);
    }
    const users = new Map<number, User>();
    for (const id of userIds) {
      const u = await this.deps.users.byId(id);
      if (u !== undefined) users.set(id, u);
    }
    const streamNames = new Map(
      (await this.deps.streams.byIds([...streamIds])).map((s) => [s.id, s.name] as const),
    );
    return messages.map((m) => {
      const sender = users.get(m.senderId);
      if (sender === undefined) throw new Error(`Unknown sender ${m.senderId} of message ${m.id}`);
      return messageWire(
        m,
        {
          sender,
          realmStr,
          streamName: m.streamId === null ? undefined : streamNames.get(m.streamId),
          participants: pmIds(m).flatMap((id) => users.get(id) ?? []),
          reactions: reactions.get(m.id),
        },
        opts,
      );
    });
  }

  private async wireOne(
    m: StoredMessage,
    opts: PresentOptions,
    extra: { isNew?: boolean } = {},
  ): Promise<Record<string, unknown>> {
    const [wire] = await this.wireMany([m], opts, extra);
    return wire!;
  }

  // Access

  /**
   * Zulip's has_message_access: the user's own row, or a stream message whose history the user may
   * read (public stream and not a guest, or subscribed to a stream with shared history).
   */
  private async access(user: User, id: number): Promise<{ message: StoredMessage; flags: number }> {
    const message = await this.repo.byId(id);
    if (message === undefined) throw invalidMessage();
    const flags = await this.repo.flagsOf(user.id, id);
    if (flags !== undefined) return { message, flags };
    if (message.streamId === null) throw invalidMessage();
    const stream = await this.deps.streams.byId(message.streamId);
    if (stream === undefined || !(await this.canReadHistory(user, stream))) throw invalidMessage();
    return { message, flags: HISTORICAL_FLAGS };
  }

  /** Whether the user may read the stream's messages that they never received. */
  private async canReadHistory(user: User, stream: Stream): Promise<boolean> {
    if (!stream.inviteOnly && !isGuest(user)) return true;
    if (stream.inviteOnly && !stream.historyPublicToSubscribers) return false;
    return this.deps.streams.isSubscribed(user.id, stream.id);
  }

  /** One message in GET /messages format (with `flags`); "Invalid message(s)" if not readable. */
  async getForUser(
    user: User,
    id: number,
    present: PresentOptions = { applyMarkdown: true, clientGravatar: false },
  ): Promise<Record<string, unknown>> {
    return (await this.getWithRawContent(user, id, present)).message;
  }

  /** GET /messages/{id}: the message (with `flags`) and its Markdown source. */
  async getWithRawContent(
    user: User,
    id: number,
    present: PresentOptions = { applyMarkdown: true, clientGravatar: false },
  ): Promise<{ rawContent: string; message: Record<string, unknown> }> {
    const { message, flags } = await this.access(user, id);
    return {
      rawContent: message.content,
      message: { ...(await this.wireOne(message, present)), flags: flagNames(flags) },
    };
  }

  // Fetching

  /** GET /messages: a range of the narrow around an anchor (Zulip's get_messages_backend). */
  async fetch(user: User, req: FetchRequest): Promise<FetchResult> {
    const numBefore = req.numBefore;
    let numAfter = req.numAfter;
    if (numBefore + numAfter > MAX_MESSAGES_PER_FETCH) {
      throw new JsonableError(`Too many messages requested (maximum ${MAX_MESSAGES_PER_FETCH}).`);
    }
    if (numBefore > 0 && numAfter > 0 && !req.includeAnchor) {
      throw new JsonableError("The anchor can only be excluded at an end of the range");
    }
    const scope = await this.narrowScope(user, req.narrow);
    let anchor: number;
    if (req.anchor === "newest") anchor = LARGER_THAN_MAX_MESSAGE_ID;
    else if (req.anchor === "oldest") anchor = 0;
    else if (req.anchor === "first_unread") anchor = await this.firstUnread(user, scope);
    else anchor = Math.min(Math.max(req.anchor, 0), LARGER_THAN_MAX_MESSAGE_ID);
    const anchoredToLeft = anchor === 0;
    const anchoredToRight = anchor === LARGER_THAN_MAX_MESSAGE_ID;
    if (anchoredToRight) numAfter = 0;

    const include = req.includeAnchor ? 1 : 0;
    const needBefore = !anchoredToLeft && numBefore > 0;
    const needAfter = !anchoredToRight && numAfter > 0;
    const repo = this.repo;
    let rows: { id: number; flags: number }[] = [];
    if (needBefore && needAfter) {
      rows = [
        ...(await repo.range(scope, "<=", anchor - 1, "DESC", numBefore)),
        ...(await repo.range(scope, ">=", anchor, "ASC", numAfter + 1)),
      ];
    } else if (needBefore) {
      rows = await repo.range(
        scope,
        "<=",
        anchor - (1 - include),
        "DESC",
        numBefore + (anchoredToRight ? 0 : include),
      );
    } else if (needAfter) {
      rows = await repo.range(scope, ">=", anchor + (1 - include), "ASC", numAfter + include);
    } else {
      rows = await repo.range(scope, "=", anchor, "ASC", 1);
    }
    rows.sort((a, b) => a.id - b.id);

    // Zulip's post_process_limited_query.
    let before = anchoredToRight ? rows : rows.filter((r) => r.id < anchor);
    const at = anchoredToRight ? [] : rows.filter((r) => r.id === anchor);
    let after = anchoredToRight ? [] : rows.filter((r) => r.id > anchor);
    if (numBefore > 0) before = before.slice(-numBefore);
    if (numAfter > 0) after = after.slice(0, numAfter);
    const visible = [...before, ...at, ...after];

    const messages = await repo.byIds(visible.map((r) => r.id));
    const wires = await this.wireMany(messages, req.present);
    const flagsById = new Map(visible.map((r) => [r.id, r.flags]));
    return {
      anchor,
      foundAnchor: at.length === 1,
      foundOldest: anchoredToLeft || before.length < numBefore,
      foundNewest: anchoredToRight || after.length < numAfter,
      historyLimited: false,
      messages: wires.map((w) => ({ ...w, flags: flagNames(flagsById.get(w["id"] as number) ?? 0) })),
    };
  }

  private async firstUnread(user: User, scope: MessageScope): Promise<number> {
    const muted = await this.deps.streams.mutedTopicKeys(user.id);
    const topics = [...muted].map((key) => {
      const i = key.indexOf(":");
      return { streamId: Number(key.slice(0, i)), topicLower: key.slice(i + 1) };
    });
    const unreadScope: MessageScope = {
      userId: user.id,
      conditions: [
        ...scope.conditions,
        { kind: "flag", bits: Flag.read, negated: true },
        { kind: "not-muted", topics },
      ],
    };
    const [first] = await this.repo.range(unreadScope, ">=", 0, "ASC", 1);
    return first?.id ?? LARGER_THAN_MAX_MESSAGE_ID;
  }

  /** Narrow terms → range-query conditions (Zulip's NarrowBuilder), with its BAD_NARROW texts. */
  private async narrowScope(user: User, narrow: readonly NarrowTerm[]): Promise<MessageScope> {
    const conditions: MessageCondition[] = [];
    let historyOfStreamId: number | undefined;
    let usesFlags = false;
    for (const term of narrow) {
      const { operand, negated } = term;
      const text = Array.isArray(operand) ? operand.join(",") : String(operand);
      switch (term.operator) {
        case "stream":
        case "channel": {
          const stream =
            typeof operand === "number"
              ? await this.deps.streams.byId(operand)
              : await this.deps.streams.byName(text);
          if (stream === undefined) throw new BadNarrowError(`unknown stream ${text}`);
          conditions.push({ kind: "stream", streamId: stream.id, negated });
          if (!negated && (await this.canReadHistory(user, stream))) historyOfStreamId = stream.id;
          break;
        }
        case "topic":
        case "subject":
          conditions.push({ kind: "topic", topic: text, negated });
          break;
        case "sender": {
          const sender = await this.userByOperand(operand);
          if (sender === undefined) throw new BadNarrowError(`unknown user ${text}`);
          conditions.push({ kind: "sender", userId: sender.id, negated });
          break;
        }
        case "pm-with":
        case "dm": {
          const items = Array.isArray(operand)
            ? operand
            : typeof operand === "number"
              ? [operand]
              : text.split(",").filter((s) => s.trim() !== "");
          const ids = new Set([user.id]);
          for (const item of items) {
            const other = await this.userByOperand(typeof item === "string" ? item.trim() : item);
            if (other === undefined) throw new BadNarrowError(`unknown user in ${text}`);
            ids.add(other.id);
          }
          conditions.push({ kind: "pm", pmKey: [...ids].sort((a, b) => a - b).join(","), negated });
          break;
        }
        case "is": {
          usesFlags = true;
          const bits: Partial<Record<string, number>> = {
            starred: Flag.starred,
            mentioned: Flag.mentioned | Flag.wildcard_mentioned,
            alerted: Flag.has_alert_word,
          };
          if (text === "private" || text === "dm") conditions.push({ kind: "private", negated });
          else if (text === "unread") conditions.push({ kind: "flag", bits: Flag.read, negated: !negated });
          else if (bits[text] !== undefined) conditions.push({ kind: "flag", bits: bits[text], negated });
          else throw new BadNarrowError(`unknown 'is' operand ${text}`);
          break;
        }
        case "near":
        case "in":
          break;
        default:
          throw new BadNarrowError(`unknown operator ${term.operator}`);
      }
    }
    return { userId: user.id, historyOfStreamId: usesFlags ? undefined : historyOfStreamId, conditions };
  }

  private async userByOperand(operand: unknown): Promise<User | undefined> {
    if (typeof operand === "number") return this.deps.users.byId(operand);
    if (typeof operand === "string") return this.deps.users.byEmail(operand);
    return undefined;
  }

  // Editing

  /** PATCH /messages/{id}: content and/or topic (with propagate_mode), Zulip's checks and texts. */
  async edit(editor: User, id: number, req: EditRequest): Promise<void> {
    const { message } = await this.access(editor, id);
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
      content =
        stripped === "" ? "(deleted)" : truncate(stripped, MAX_MESSAGE_LENGTH, "\n[message truncated]");
      const sender = (await this.deps.users.byId(message.senderId)) ?? editor;
      rendered = await this.render(sender, content);
    }
    const now = this.now();
    const stream = message.streamId === null ? undefined : await this.deps.streams.byId(message.streamId);

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

    const changedIds = await this.deps.db.transaction(async (tx) => {
      const repo = new MessagesRepo(tx);
      if (content !== undefined && rendered !== undefined) {
        await repo.updateContent(id, content, rendered.html, isMe(content));
        const rows = await repo.rowsOfMessage(id);
        const mentioned = new Set(rendered.mentionedUserIds);
        const changes = rows.flatMap((r) => {
          let flags = r.flags & ~(Flag.mentioned | Flag.wildcard_mentioned);
          if (mentioned.has(r.userId)) flags |= Flag.mentioned;
          if (rendered.wildcard) flags |= Flag.wildcard_mentioned;
          return flags === r.flags ? [] : [{ userId: r.userId, flags }];
        });
        await repo.setUserFlags(id, changes);
      }
      let ids = [id];
      if (topic !== undefined && message.streamId !== null && req.propagateMode !== "change_one") {
        ids = await repo.topicMessageIds(
          message.streamId,
          message.topic,
          req.propagateMode === "change_later" ? id : undefined,
        );
      }
      for (const mid of ids) {
        const m = mid === id ? message : await repo.byId(mid);
        if (m === undefined) continue;
        if (topic !== undefined) await repo.updateTopic(mid, topic);
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
      event["prev_rendered_content_version"] = 1;
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
    this.deps.events.send(event, await this.interestedUsers(id, stream));
  }

  /**
   * Who hears about a change to a message: every user with a row (with their flags), plus for
   * streams with shared history the current subscribers without one (flags ["read"]).
   */
  private async interestedUsers(id: number, stream: Stream | undefined): Promise<EventRecipient[]> {
    const rows = await this.repo.rowsOfMessage(id);
    const out: EventRecipient[] = rows.map((r) => ({ id: r.userId, flags: flagNames(r.flags) }));
    if (stream !== undefined && (!stream.inviteOnly || stream.historyPublicToSubscribers)) {
      const have = new Set(rows.map((r) => r.userId));
      for (const uid of await this.deps.streams.subscriberIds(stream.id)) {
        if (!have.has(uid)) out.push({ id: uid, flags: ["read"] });
      }
    }
    return out;
  }

  /** GET /messages/{id}/history. */
  async history(user: User, id: number): Promise<Record<string, unknown>[]> {
    const { message } = await this.access(user, id);
    return buildHistory(message);
  }

  // Deleting

  /** DELETE /messages/{id}: organization administrators only. */
  async delete(user: User, id: number): Promise<void> {
    const { message } = await this.access(user, id);
    if (!isAdmin(user)) throw new JsonableError("You don't have permission to delete this message");
    const stream = message.streamId === null ? undefined : await this.deps.streams.byId(message.streamId);
    const recipients = (await this.interestedUsers(id, stream)).map((r) => r.id);
    const deleted = await this.deps.db.transaction((tx) => new MessagesRepo(tx).delete(id));
    if (!deleted) throw new JsonableError("Message already deleted");
    const event: Record<string, unknown> & { type: string } = {
      type: "delete_message",
      message_ids: [id],
      message_type: stream === undefined ? "private" : "stream",
    };
    if (stream !== undefined) {
      event["stream_id"] = stream.id;
      event["topic"] = message.topic;
    }
    this.deps.events.send(event, recipients);
  }

  // Reactions

  /**
   * POST /messages/{id}/reactions (Zulip's check_add_reaction). The emoji's code and type default
   * to what its name stands for. Reacting with an emoji someone already used on the message is a
   * vote for it (that reaction's name is kept). A reader of public history without a row for the
   * message gets a read+historical one, as in Zulip, so that later events about it reach them.
   */
  async addReaction(user: User, messageId: number, req: ReactionRequest): Promise<void> {
    await this.access(user, messageId);
    let name = req.emojiName ?? "";
    let { emojiCode: code, reactionType: type } = req;
    if (code === undefined || type === undefined) {
      const byName = emojiByName(name);
      code ??= byName.emojiCode;
      type ??= byName.reactionType;
    }
    const reactions = new ReactionsRepo(this.deps.db);
    if ((await reactions.find(messageId, user.id, code, type)) !== undefined) {
      throw new ReactionAlreadyExistsError();
    }
    const existing = await reactions.firstWithEmoji(messageId, code, type);
    const reactionType = existing?.reactionType ?? checkEmoji(name, code, type);
    if (existing !== undefined) name = existing.emojiName;
    const reaction: Reaction = { messageId, userId: user.id, emojiName: name, emojiCode: code, reactionType };
    const added = await this.deps.db.transaction(async (tx) => {
      await new MessagesRepo(tx).insertUserMessage(user.id, messageId, HISTORICAL_FLAGS);
      return new ReactionsRepo(tx).add(reaction);
    });
    if (!added) throw new ReactionAlreadyExistsError();
    await this.reactionEvent(user, "add", reaction);
  }

  /**
   * DELETE /messages/{id}/reactions (Zulip's remove_reaction): by `emoji_code`, else by what
   * `emoji_name` stands for; `reaction_type` defaults to the name's type, else "unicode_emoji".
   */
  async removeReaction(user: User, messageId: number, req: ReactionRequest): Promise<void> {
    await this.access(user, messageId);
    let { emojiCode: code, reactionType: type } = req;
    if (code === undefined) {
      if (req.emojiName === undefined) {
        throw new JsonableError(
          "At least one of the following arguments must be present: emoji_name, emoji_code",
        );
      }
      const byName = emojiByName(req.emojiName);
      code = byName.emojiCode;
      type ??= byName.reactionType;
    }
    const emojiCode = code;
    const reactionType = type ?? "unicode_emoji";
    const removed = await this.deps.db.transaction((tx) =>
      new ReactionsRepo(tx).remove(messageId, user.id, emojiCode, reactionType),
    );
    if (removed === undefined) throw new ReactionDoesNotExistError();
    await this.reactionEvent(user, "remove", removed);
  }

  /** Zulip's notify_reaction_update: to every user with a row for the message. */
  private async reactionEvent(user: User, op: "add" | "remove", r: Reaction): Promise<void> {
    const rows = await this.repo.rowsOfMessage(r.messageId);
    this.deps.events.send(
      {
        type: "reaction",
        op,
        user_id: user.id,
        user: { user_id: user.id, email: user.email, full_name: user.fullName, is_mirror_dummy: false },
        message_id: r.messageId,
        emoji_name: r.emojiName,
        emoji_code: r.emojiCode,
        reaction_type: r.reactionType,
      },
      rows.map((row) => row.userId),
    );
  }

  // Flags

  private flagEvent(
    userId: number,
    op: "add" | "remove",
    flag: string,
    messages: number[],
    all = false,
  ): void {
    this.deps.events.send({ type: "update_message_flags", op, operation: op, flag, messages, all }, [userId]);
  }

  /** POST /mark_all_as_read. Always publishes the `all: true` event, as Zulip does. */
  async markAllAsRead(user: User): Promise<void> {
    await this.deps.db.transaction((tx) => new MessagesRepo(tx).changeFlag(user.id, Flag.read, true, {}));
    this.flagEvent(user.id, "add", "read", [], true);
  }

  /** POST /mark_stream_as_read ("Invalid stream ID" when unknown or inaccessible). */
  async markStreamAsRead(user: User, streamId: number): Promise<void> {
    const stream = await this.deps.streams.accessibleById(user, streamId);
    const changed = await this.deps.db.transaction((tx) =>
      new MessagesRepo(tx).changeFlag(user.id, Flag.read, true, { streamId: stream.id }),
    );
    if (changed.length > 0) this.flagEvent(user.id, "add", "read", changed);
  }

  /** POST /mark_topic_as_read ("No such topic 'x'" when the user has no message there). */
  async markTopicAsRead(user: User, streamId: number, topicName: string): Promise<void> {
    const stream = await this.deps.streams.accessibleById(user, streamId);
    if (topicName !== "" && !(await this.repo.hasTopic(user.id, stream.id, topicName))) {
      throw new JsonableError(`No such topic '${topicName}'`);
    }
    const changed = await this.deps.db.transaction((tx) =>
      new MessagesRepo(tx).changeFlag(
        user.id,
        Flag.read,
        true,
        // An empty topic_name marks the whole stream, as in Zulip.
        topicName === "" ? { streamId: stream.id } : { streamId: stream.id, topic: topicName },
      ),
    );
    if (changed.length > 0) this.flagEvent(user.id, "add", "read", changed);
  }

  /**
   * POST /messages/flags. Messages the user can read without having received them (public
   * history) may be starred: a read+historical row is created. Returns the ids whose flag changed.
   */
  async updateFlags(user: User, messageIds: readonly number[], op: string, flag: string): Promise<number[]> {
    if (!API_FLAGS.includes(flag)) throw new JsonableError(`Invalid flag: '${flag}'`);
    if (!EDITABLE_FLAGS.includes(flag)) throw new JsonableError(`Flag not editable: '${flag}'`);
    if (op !== "add" && op !== "remove") throw new JsonableError(`Invalid message flag operation: '${op}'`);
    const ids = [...new Set(messageIds)];
    const have = await this.repo.flagsOfMany(user.id, ids);
    const historical: number[] = [];
    for (const id of ids) {
      if (have.has(id)) continue;
      await this.access(user, id);
      historical.push(id);
    }
    const bit = Flag[flag as FlagName];
    const changed = await this.deps.db.transaction(async (tx) => {
      const repo = new MessagesRepo(tx);
      if (flag === "starred" && op === "add") {
        for (const id of historical) await repo.insertUserMessage(user.id, id, HISTORICAL_FLAGS);
      }
      return repo.changeFlag(user.id, bit, op === "add", { messageIds: ids });
    });
    if (changed.length > 0) this.flagEvent(user.id, op, flag, changed);
    return changed;
  }

  // Unread summary

  /** Register's `unread_msgs`: muted topics and muted streams do not count in `count`. */
  async unreadMessages(userId: number): Promise<UnreadMessages> {
    const rows = await this.repo.unreadRows(userId, MAX_UNREAD_MESSAGES + 1);
    const missing = rows.length > MAX_UNREAD_MESSAGES;
    if (missing) rows.shift();
    const mutedTopics = await this.deps.streams.mutedTopicKeys(userId);
    const mutedStreams = new Set(await this.deps.streams.mutedStreamIds(userId));
    const isMuted = (streamId: number, topic: string) =>
      mutedStreams.has(streamId) || mutedTopics.has(`${streamId}:${topic.toLowerCase()}`);
    const pms = new Map<number, number[]>();
    const huddles = new Map<string, number[]>();
    const streams = new Map<string, { stream_id: number; topic: string; unread_message_ids: number[] }>();
    const mentions: number[] = [];
    let count = 0;
    for (const r of rows) {
      let muted = false;
      if (r.streamId !== null) {
        muted = isMuted(r.streamId, r.topic);
        const key = `${r.streamId}\u0000${r.topic}`;
        let bucket = streams.get(key);
        if (bucket === undefined) {
          bucket = { stream_id: r.streamId, topic: r.topic, unread_message_ids: [] };
          streams.set(key, bucket);
        }
        bucket.unread_message_ids.push(r.id);
      } else {
        const ids = pmIds(r);
        if (ids.length <= 2) {
          const other = ids.find((id) => id !== userId) ?? userId;
          pms.set(other, [...(pms.get(other) ?? []), r.id]);
        } else {
          huddles.set(r.pmKey ?? "", [...(huddles.get(r.pmKey ?? "") ?? []), r.id]);
        }
      }
      if (!muted) count += 1;
      if ((r.flags & Flag.mentioned) !== 0 || ((r.flags & Flag.wildcard_mentioned) !== 0 && !muted)) {
        mentions.push(r.id);
      }
    }
    const byKey = <T>(a: [T, unknown], b: [T, unknown]) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);
    return {
      count,
      pms: [...pms.entries()]
        .sort(byKey)
        .map(([other, ids]) => ({ other_user_id: other, sender_id: other, unread_message_ids: ids })),
      streams: [...streams.values()].sort((a, b) =>
        a.stream_id !== b.stream_id
          ? a.stream_id - b.stream_id
          : a.topic < b.topic
            ? -1
            : a.topic > b.topic
              ? 1
              : 0,
      ),
      huddles: [...huddles.entries()]
        .sort(byKey)
        .map(([key, ids]) => ({ user_ids_string: key, unread_message_ids: ids })),
      mentions,
      old_unreads_missing: missing,
    };
  }

  /** Highest message id the user has received; -1 when none. */
  async maxMessageId(userId: number): Promise<number> {
    return this.repo.maxMessageId(userId);
  }
}

/** Participant ids of a private message (empty for stream messages). */
function pmIds(m: { pmKey: string | null }): number[] {
  return m.pmKey === null ? [] : m.pmKey.split(",").map(Number);
}
