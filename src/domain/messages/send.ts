import { JsonableError, StreamDoesNotExistError, StreamIdDoesNotExistError } from "../../errors.js";
import type { Rendered } from "../markdown/render.js";
import type { Stream } from "../streams/types.js";
import type { User } from "../users/types.js";
import { checkCanPost } from "./access.js";
import { isEmptyTopicName, isMe, messageHas, normalizeContent, normalizeTopic } from "./content.js";
import { Flag, flagNames } from "./flag-bits.js";
import type { MessageDeps } from "./ports.js";
import { nowSeconds } from "./ports.js";
import { wireOne } from "./present.js";
import { addWidget } from "./submessages.js";
import { checkWidgetContent, widgetOfContent } from "./widgets.js";
import { submessageWire } from "../../wire/messages.js";
import { linkedPathIds } from "../uploads/files.js";
import type { Repositories } from "../../store/repos.js";
import { renderFor } from "./rendering.js";
import type {
  MessageRecipient,
  NewMessage,
  PresentOptions,
  SendInput,
  SentMessage,
  StoredMessage,
} from "./types.js";

const HTML_EVENT: PresentOptions = { applyMarkdown: true, clientGravatar: false };

const GROUP_MENTION_HTML = /<span class="user-group-mention" data-user-group-id="(\d+)">/g;

/** The sender must hold `can_mention_group` of each group the message mentions (silent mentions aside). */
async function checkGroupMentions(deps: MessageDeps, sender: User, html: string): Promise<void> {
  const groups = deps.groups;
  if (groups?.checkCanMention === undefined || !html.includes("user-group-mention")) return;
  const ids = [...new Set([...html.matchAll(GROUP_MENTION_HTML)].map((m) => Number(m[1])))];
  await groups.checkCanMention(sender, ids);
}

/**
 * The topic a stream message is stored under, by the stream's `topics_policy` (Zulip 11): "inherit"
 * follows the realm's (`allowEmptyTopic`, which the caller read), "allow_empty_topic" takes a blank
 * topic as "", "disable_empty_topic" refuses it, "empty_topic_only" takes nothing else. "(no topic)"
 * and "general chat" count as blank (Zulip 10.0, feature level 370).
 */
function topicFor(stream: Stream, raw: string, realmAllowsEmpty: boolean): string {
  const blank = isEmptyTopicName(raw);
  // normalizeTopic refuses a blank topic; "(no topic)" and "general chat" are refused the same way.
  const named = (): string => normalizeTopic(blank ? "" : raw);
  switch (stream.topicsPolicy) {
    case "empty_topic_only":
      if (!blank) throw new JsonableError("Only the general chat topic is allowed in this stream.");
      return "";
    case "allow_empty_topic":
      return blank ? "" : named();
    case "disable_empty_topic":
      return named();
    default:
      return blank && realmAllowsEmpty ? "" : named();
  }
}

/** Sends a message as `sender` (POST /messages). Returns the new message's id. */
export async function sendMessage(deps: MessageDeps, sender: User, input: SendInput): Promise<number> {
  const type =
    input.type === "stream" || input.type === "channel"
      ? "stream"
      : input.type === "private" || input.type === "direct"
        ? "private"
        : undefined;
  if (type === undefined) throw new JsonableError("Invalid message type");
  // Checked before anything is stored; attached after (afterSend).
  if (input.widgetContent !== undefined) checkWidgetContent(input.widgetContent);
  return type === "stream" ? sendToStream(deps, sender, input) : sendPrivate(deps, sender, input);
}

async function sendToStream(deps: MessageDeps, sender: User, input: SendInput): Promise<number> {
  if (input.topic === undefined) throw new JsonableError("Missing topic");
  const rawTopic = input.topic;
  const content = normalizeContent(input.content);
  let to = input.to;
  if (Array.isArray(to)) {
    if (to.length !== 1) throw new JsonableError("Expected exactly one stream");
    to = to[0] as string | number;
  }
  const { streams } = deps;
  let stream: Stream | undefined;
  if (typeof to === "number") {
    stream = await streams.byId(to);
    if (stream === undefined) throw new StreamIdDoesNotExistError(to);
  } else {
    const name = String(to);
    stream = await streams.byName(name);
    if (stream === undefined) throw new StreamDoesNotExistError(name);
  }
  await checkCanPost(deps, sender, stream);
  const topic = topicFor(stream, rawTopic, input.allowEmptyTopic === true);
  const subscribers = await streams.subscriberIds(stream.id); // ascending
  const rendered = await renderFor(deps, sender, content);
  await checkGroupMentions(deps, sender, rendered.html);
  const senderSubscribed = subscribers.includes(sender.id);
  const ids = senderSubscribed ? subscribers : [...subscribers, sender.id].sort((a, b) => a - b);
  const recipients = recipientFlags(ids, sender.id, rendered, 0, await alertedUsers(deps, content, ids));
  // Stored sparsely: rows only where a recipient's flags differ from the derived ones (the
  // subscribers' unread, the subscribed sender's read), and for a sender who is not subscribed.
  const recipientFlagBits = recipients.base;
  const exceptions: { id: number; flags: number }[] = [];
  for (const [id, flags] of recipients.special) {
    if (id !== sender.id || !senderSubscribed || flags !== (recipientFlagBits | Flag.read)) {
      exceptions.push({ id, flags });
    }
  }
  exceptions.sort((a, b) => a.id - b.id);
  const stored = await deps.store.transaction(async (repos) => {
    const repo = repos.messages;
    const recipientId = await repo.recipientId(2, String(stream.id));
    const message: NewMessage = {
      senderId: sender.id,
      recipientId,
      streamId: stream.id,
      topic,
      pmKey: null,
      content,
      renderedContent: rendered.html,
      client: input.client ?? "Internal",
      dateSent: nowSeconds(deps),
      isMeMessage: isMe(content),
      has: messageHas(rendered.html),
      recipientFlags: recipientFlagBits,
    };
    const messageId = await repo.insertMessage(message);
    await repos.recipientRows.insertStreamMessageRows(messageId, stream.id, exceptions);
    await linkAttachments(repos, sender.id, messageId, content);
    return storedOf(messageId, message);
  });
  // A stream's first message id is written once (the stream read above tells whether it is).
  if (stream.firstMessageId === null) await streams.noteMessageSent(stream.id, stored.id);
  await afterSend(deps, stored, sender, rendered, recipients, stream, [], input);
  return stored.id;
}

async function sendPrivate(deps: MessageDeps, sender: User, input: SendInput): Promise<number> {
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
      user = await deps.users.byId(item);
      if (user === undefined) throw new JsonableError(`Invalid user ID ${item}`);
    } else {
      const email = item.trim();
      if (email === "") continue;
      user = await deps.users.byEmail(email);
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
  const rendered = await renderFor(deps, sender, content);
  await checkGroupMentions(deps, sender, rendered.html);
  const recipients = recipientFlags(
    ids,
    sender.id,
    rendered,
    Flag.is_private,
    await alertedUsers(deps, content, ids),
  );
  const other = ids.find((id) => id !== sender.id) ?? sender.id;
  const stored = await deps.store.transaction(async (repos) => {
    const repo = repos.messages;
    const recipientId =
      ids.length <= 2 ? await repo.recipientId(1, String(other)) : await repo.recipientId(3, pmKey);
    const message: NewMessage = {
      senderId: sender.id,
      recipientId,
      streamId: null,
      topic: "",
      pmKey,
      content,
      renderedContent: rendered.html,
      client: input.client ?? "Internal",
      dateSent: nowSeconds(deps),
      isMeMessage: isMe(content),
      has: messageHas(rendered.html),
    };
    const messageId = await repo.insertMessage(message);
    await repos.recipientRows.insertUserMessages(
      messageId,
      ids.map((id) => ({ id, flags: recipients.special.get(id) ?? recipients.base })),
    );
    await linkAttachments(repos, sender.id, messageId, content);
    return storedOf(messageId, message);
  });
  await afterSend(deps, stored, sender, rendered, recipients, undefined, ids, input, participants);
  return stored.id;
}

/** Recipients (never the sender) with one of their alert words in the content. */
async function alertedUsers(
  deps: MessageDeps,
  content: string,
  ids: readonly number[],
): Promise<Set<number>> {
  return deps.alertWords === undefined ? new Set() : deps.alertWords.usersAlerted(content, ids);
}

/** Every recipient's flags: `base`, except the few users in `special`. */
interface RecipientFlags {
  /** Every recipient, ascending, unique. */
  ids: readonly number[];
  base: number;
  special: Map<number, number>;
}

/**
 * The recipients' flags bitmasks: `base` for every recipient (plus wildcard_mentioned), and the few
 * that differ, by user id: the sender's copy is read; mentions set mentioned bits; an alert word
 * sets has_alert_word (not on the sender's copy). Costs O(mentions + alerts), not O(recipients).
 */

function recipientFlags(
  ids: readonly number[],
  senderId: number,
  rendered: Rendered,
  base: number,
  alerted: ReadonlySet<number>,
): RecipientFlags {
  const all = rendered.wildcard ? base | Flag.wildcard_mentioned : base;
  const special = new Map<number, number>();
  const mark = (id: number, bit: number): void => {
    if (!includesSorted(ids, id)) return;
    special.set(id, (special.get(id) ?? all) | bit);
  };
  mark(senderId, Flag.read);
  for (const id of alerted) if (id !== senderId) mark(id, Flag.has_alert_word);
  for (const id of rendered.mentionedUserIds) mark(id, Flag.mentioned);
  return { ids, base: all, special };
}

/** Binary search in an ascending list. */
function includesSorted(ids: readonly number[], id: number): boolean {
  let lo = 0;
  let hi = ids.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = ids[mid]!;
    if (v === id) return true;
    if (v < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

/** The message as stored (what MessagesRepo.byId would read back), without reading it. */
function storedOf(id: number, m: NewMessage): StoredMessage {
  return {
    id,
    senderId: m.senderId,
    recipientId: m.recipientId,
    streamId: m.streamId,
    topic: m.topic,
    pmKey: m.pmKey,
    content: m.content,
    renderedContent: m.renderedContent,
    client: m.client,
    dateSent: m.dateSent,
    lastEditTime: null,
    editHistory: null,
    isMeMessage: m.isMeMessage,
  };
}

async function afterSend(
  deps: MessageDeps,
  message: StoredMessage,
  sender: User,
  rendered: Rendered,
  rows: RecipientFlags,
  stream: Stream | undefined,
  privateIds: readonly number[],
  local: SendInput,
  participants?: ReadonlyMap<number, User>,
): Promise<void> {
  const id = message.id;
  // The sender, the stream and the participants are known: the presenter reads none of them again.
  const wire = await wireOne(deps, message, HTML_EVENT, {
    isNew: true,
    known: {
      users: participants ?? new Map([[sender.id, sender]]),
      streams: stream === undefined ? [] : [stream],
    },
  });
  // A poll, a to-do list or a bot's zform: the event already carries its widget, as in Zulip.
  const widget =
    local.widgetContent !== undefined
      ? checkWidgetContent(local.widgetContent)
      : widgetOfContent(message.content);
  if (widget !== undefined) wire["submessages"] = [submessageWire(await addWidget(deps, message, widget))];
  // Most recipients share the base bitmask: one (read-only) list of names per distinct bitmask,
  // and one recipient object each, shared by the event fan-out and the listeners.
  const baseNames = flagNames(rows.base);
  const names = new Map<number, string[]>([[rows.base, baseNames]]);
  for (const flags of rows.special.values()) if (!names.has(flags)) names.set(flags, flagNames(flags));
  // Both lists ascend (every special id is a recipient): a merge, no lookup per recipient.
  const special = [...rows.special].sort((a, b) => a[0] - b[0]);
  let k = 0;
  const recipients: MessageRecipient[] = rows.ids.map((id) => {
    if (k < special.length && special[k]![0] === id) return { id, flags: names.get(special[k++]![1])! };
    return { id, flags: baseNames };
  });
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
  deps.events.send(event, recipients);
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
  for (const listener of [...deps.listeners]) {
    try {
      await listener(sent, recipients);
    } catch (err) {
      deps.logger.error("onSent listener failed", { err: String(err), messageId: id });
    }
  }
}

/** Links the sender's uploads that the message's Markdown names (Zulip claims only one's own). */
export async function linkAttachments(
  repos: Repositories,
  senderId: number,
  messageId: number,
  content: string,
  always = false,
): Promise<void> {
  const pathIds = linkedPathIds(content);
  if (pathIds.length > 0 || always) await repos.attachments.linkMessage(senderId, messageId, pathIds);
}
