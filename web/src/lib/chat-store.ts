/**
 * The chat's client-side state: users, subscribed streams, known topics, loaded messages and
 * unread messages, built from POST /register and kept current by events. Framework-free, so
 * tests run it without a browser; components subscribe to `version` changes.
 */
import { text } from "./api.js";
import { activeCustomEmoji } from "./emoji.js";
import type { CustomEmoji } from "./emoji.js";

export interface Message {
  id: number;
  sender_id: number;
  sender_full_name: string;
  sender_email: string;
  type: "stream" | "private";
  stream_id?: number;
  display_recipient: string | { id: number; email: string; full_name: string }[];
  subject: string;
  content: string;
  timestamp: number;
  flags: string[];
  last_edit_timestamp?: number;
  reactions?: Reaction[];
}

/** One person's emoji reaction on a message, as GET /messages and `reaction` events give it. */
export interface Reaction {
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
  user_id: number;
}

/** A stream the realm has (GET /streams), subscribed or not. */
export interface StreamInfo {
  stream_id: number;
  name: string;
  description?: string;
  invite_only?: boolean;
}

export interface Person {
  user_id: number;
  email: string;
  full_name: string;
  is_bot: boolean;
  is_admin?: boolean;
}

export interface Subscription {
  stream_id: number;
  name: string;
  color?: string;
  description?: string;
}

/** Which messages a feed shows: everything, one stream, one topic, private messages, a view, or a search. */
export interface Narrow {
  streamId?: number;
  topic?: string;
  private?: boolean;
  /** Messages that mention you, or that you starred. */
  is?: "mentioned" | "starred";
  /** A search with Zulip's operators (`stream:Denmark topic:castle sender:… has:link words`). */
  search?: string;
  /** One private conversation: the other people's ids, sorted (yourself alone for notes to self). */
  dm?: number[];
  /** A view that is no message feed: Recent conversations or Drafts. */
  view?: "recent" | "drafts";
}

/** A draft as GET /drafts, register's `drafts` and `drafts` events give it. */
export interface Draft {
  id: number;
  type: "" | "stream" | "private";
  to: number[];
  topic: string;
  content: string;
  timestamp: number;
}

/** Zulip's search syntax → the `narrow` operators of GET /messages; words left over are one `search`. */
export function parseSearch(query: string): { operator: string; operand: string; negated?: boolean }[] {
  const out: { operator: string; operand: string; negated?: boolean }[] = [];
  const words: string[] = [];
  const re = /(-?)([a-z-]+):("([^"]*)"|\S+)|(\S+)/g;
  for (const m of query.matchAll(re)) {
    if (m[2] !== undefined) {
      const operand = m[4] ?? m[3] ?? "";
      out.push({ operator: m[2], operand, ...(m[1] === "-" ? { negated: true } : {}) });
    } else if (m[5] !== undefined) {
      words.push(m[5]);
    }
  }
  if (words.length > 0) out.push({ operator: "search", operand: words.join(" ") });
  return out;
}

/** Which private conversation a message belongs to: the other people's ids, sorted. */
export function conversationKey(m: Message, myId: number): string {
  if (m.type !== "private" || !Array.isArray(m.display_recipient)) return "";
  const ids = m.display_recipient.map((r) => r.id).filter((id) => id !== myId);
  return (ids.length === 0 ? [myId] : ids).sort((a, b) => a - b).join(",");
}

export function narrowKey(n: Narrow): string {
  if (n.view !== undefined) return `view:${n.view}`;
  if (n.search !== undefined) return `q:${n.search}`;
  if (n.dm !== undefined) return `dm:${n.dm.join(",")}`;
  if (n.is !== undefined) return `is:${n.is}`;
  if (n.private) return "private";
  if (n.streamId === undefined) return "all";
  return n.topic === undefined ? `s:${n.streamId}` : `s:${n.streamId}:${n.topic.toLowerCase()}`;
}

/**
 * The `narrow` argument of GET /messages for a narrow. A stream is named by its id, as a number
 * (it may be a stream this user is not subscribed to); "All messages" is Zulip's `in:home`, which
 * leaves muted topics out.
 */
export function narrowFilter(n: Narrow): object[] {
  if (n.search !== undefined) return parseSearch(n.search);
  if (n.dm !== undefined) return [{ operator: "dm", operand: n.dm }];
  if (n.is !== undefined) return [{ operator: "is", operand: n.is }];
  if (n.private) return [{ operator: "is", operand: "private" }];
  if (n.streamId === undefined) return [{ operator: "in", operand: "home" }];
  const out: object[] = [{ operator: "stream", operand: n.streamId }];
  if (n.topic !== undefined) out.push({ operator: "topic", operand: n.topic });
  return out;
}

export function matchesNarrow(
  m: Message,
  n: Narrow,
  isMuted: (streamId: number, topic: string) => boolean = () => false,
  myId = 0,
): boolean {
  if (n.dm !== undefined) return m.type === "private" && conversationKey(m, myId) === n.dm.join(",");
  if (n.is === "mentioned") return m.flags.some((f) => f === "mentioned" || f === "wildcard_mentioned");
  if (n.is === "starred") return m.flags.includes("starred");
  if (n.private) return m.type === "private";
  if (n.streamId === undefined)
    return m.type !== "stream" || m.stream_id === undefined || !isMuted(m.stream_id, m.subject);
  if (m.type !== "stream" || m.stream_id !== n.streamId) return false;
  return n.topic === undefined || m.subject.toLowerCase() === n.topic.toLowerCase();
}

interface UnreadKey {
  streamId?: number;
  topic?: string;
  /** A private message's conversation (`conversationKey`). */
  dm?: string;
}

const topicKey = (streamId: number, topic: string): string => `${streamId}\u0000${topic.toLowerCase()}`;
const typingKey = (streamId: number, topic: string): string => `s:${topicKey(streamId, topic)}`;

export interface UnreadCounts {
  total: number;
  private: number;
  byStream: Map<number, number>;
  byTopic: Map<string, number>;
}

/** What one narrow has loaded: every message from `oldestId` to `newestId` is there. */
interface NarrowWindow {
  oldestId: number;
  /** `MAX_SAFE_INTEGER` once the newest was found: new messages extend the window by themselves. */
  newestId: number;
  foundOldest: boolean;
  foundNewest: boolean;
  /** A search's results: the server decides what matches, so only what it sent is shown. */
  ids?: Set<number>;
}

export class ChatStore {
  me: Person = { user_id: 0, email: "", full_name: "", is_bot: false };
  realmName = "";
  users = new Map<number, Person>();
  subscriptions = new Map<number, Subscription>();
  /** Every stream this user can see (GET /streams), for names of streams they are not in. */
  streams = new Map<number, StreamInfo>();
  /** Known topics per stream: topic name → newest message id. */
  topics = new Map<number, Map<string, { name: string; maxId: number }>>();
  messages = new Map<number, Message>();
  unread = new Map<number, UnreadKey>();
  muted = new Set<string>();
  windows = new Map<string, NarrowWindow>();
  connectionDown = false;
  /** Last time (s) each user was active or connected, from `presences` and `presence` events. */
  presence = new Map<number, { status: string; timestamp: number }>();
  /** Who is typing where (`typingKey`): user id → when the notice expires (ms). */
  typing = new Map<string, Map<number, number>>();
  /** The realm's active custom emoji by name (register's `realm_emoji`, kept by its events). */
  customEmoji = new Map<string, CustomEmoji>();
  /** The user's drafts by id (register's `drafts`, kept by `drafts` events). */
  drafts = new Map<number, Draft>();
  /** Register's `recent_private_conversations`: the other people's ids and the newest message id. */
  recentPrivate: { userIds: number[]; maxId: number }[] = [];
  /** The user's settings that the app acts on (register's `user_settings`, `user_settings` events). */
  settings: Record<string, unknown> = {};
  /**
   * The realm's settings the settings pages show (register's `realm_description`,
   * `realm_topics_policy`, `realm_can_invite_users_group`, `realm_create_multiuse_invite_group`;
   * kept by `realm` events).
   */
  realm: Record<string, unknown> = {};
  /** Called for each new message from an event (desktop notifications). */
  onNewMessage: ((m: Message) => void) | undefined;
  version = 0;
  private readonly listeners = new Set<() => void>();

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  changed(): void {
    this.version++;
    for (const l of this.listeners) l();
  }

  streamName(id: number): string | undefined {
    return this.subscriptions.get(id)?.name ?? this.streams.get(id)?.name;
  }

  /** The answer of GET /streams. */
  loadStreams(streams: readonly StreamInfo[]): void {
    this.streams.clear();
    for (const s of streams) this.streams.set(s.stream_id, s);
    this.changed();
  }

  /** The answer of GET /users/me/{stream_id}/topics: every topic of the stream, not only loaded ones. */
  loadTopics(streamId: number, topics: readonly { name: string; max_id: number }[]): void {
    for (const t of topics) this.noteTopic(streamId, t.name, t.max_id);
    this.changed();
  }

  streamByName(name: string): Subscription | undefined {
    const lower = name.trim().toLowerCase();
    for (const s of this.subscriptions.values()) if (s.name.toLowerCase() === lower) return s;
    return undefined;
  }

  /** "active" (in the last 140 s, Zulip's threshold), "idle" (connected lately, not active) or "offline". */
  presenceOf(userId: number, nowSeconds: number = Date.now() / 1000): "active" | "idle" | "offline" {
    const p = this.presence.get(userId);
    if (!p || nowSeconds - p.timestamp > 140) return "offline";
    return p.status === "active" ? "active" : "idle";
  }

  /** The answer's `presences` (register, POST /users/me/presence), keyed by email. */
  loadPresences(presences: unknown): void {
    const byEmail = new Map([...this.users.values()].map((u) => [u.email, u.user_id]));
    for (const [email, clients] of Object.entries(
      (presences ?? {}) as Record<string, Record<string, unknown>>,
    )) {
      const id = byEmail.get(email);
      if (id !== undefined) this.notePresence(id, clients);
    }
  }

  private notePresence(userId: number, clients: Record<string, unknown>): void {
    for (const c of Object.values(clients)) {
      const { status, timestamp } = (c ?? {}) as { status?: string; timestamp?: number };
      if (typeof timestamp !== "number" || typeof status !== "string") continue;
      const known = this.presence.get(userId);
      if (!known || timestamp > known.timestamp || (timestamp === known.timestamp && status === "active"))
        this.presence.set(userId, { status, timestamp });
    }
  }

  /** Who is typing in a narrow, by name (expired notices left out). */
  typingIn(narrow: Narrow, nowMs: number = Date.now()): string[] {
    const key =
      narrow.streamId !== undefined && narrow.topic !== undefined
        ? typingKey(narrow.streamId, narrow.topic)
        : narrow.private || narrow.dm !== undefined
          ? "private"
          : undefined;
    if (key === undefined) return [];
    const who = this.typing.get(key);
    return [...(who?.entries() ?? [])]
      .filter(([id, until]) => until > nowMs && id !== this.me.user_id)
      .map(([id]) => this.users.get(id)?.full_name ?? "Someone");
  }

  isMuted(streamId: number, topic: string): boolean {
    return this.muted.has(topicKey(streamId, topic));
  }

  /** Replaces everything with a register answer (first load, or after the queue was lost). */
  loadRegister(state: Record<string, unknown>): void {
    this.me = {
      user_id: Number(state["user_id"]),
      email: text(state["email"]),
      full_name: text(state["full_name"]),
      is_bot: false,
      is_admin: state["is_admin"] === true,
    };
    this.realmName = text(state["realm_name"]);
    this.realm = {
      description: text(state["realm_description"]),
      topics_policy: state["realm_topics_policy"],
      can_invite_users_group: state["realm_can_invite_users_group"],
      create_multiuse_invite_group: state["realm_create_multiuse_invite_group"],
      // Whether this user may invite people (register computes it from can_invite_users_group).
      can_invite_others_to_realm: state["can_invite_others_to_realm"],
    };
    const userSettings = (state["user_settings"] ?? {}) as Record<string, unknown>;
    this.settings = {
      ...userSettings,
      enable_desktop_notifications:
        userSettings["enable_desktop_notifications"] ?? state["enable_desktop_notifications"] ?? true,
    };
    this.drafts.clear();
    for (const d of (state["drafts"] ?? []) as Draft[]) this.drafts.set(d.id, d);
    this.recentPrivate = (
      (state["recent_private_conversations"] ?? []) as {
        user_ids: number[];
        max_message_id: number;
      }[]
    ).map((c) => ({ userIds: [...c.user_ids].sort((a, b) => a - b), maxId: c.max_message_id }));
    this.users.clear();
    for (const u of [
      ...((state["realm_users"] ?? []) as Person[]),
      ...((state["cross_realm_bots"] ?? []) as Person[]),
    ])
      this.users.set(u.user_id, u);
    this.subscriptions.clear();
    for (const s of (state["subscriptions"] ?? []) as Subscription[]) this.subscriptions.set(s.stream_id, s);
    this.customEmoji = activeCustomEmoji(state["realm_emoji"]);
    this.presence.clear();
    this.loadPresences(state["presences"]);
    this.muted.clear();
    for (const [streamName, topic] of (state["muted_topics"] ?? []) as [string, string, number][]) {
      const s = this.streamByName(streamName);
      if (s) this.muted.add(topicKey(s.stream_id, topic));
    }
    this.unread.clear();
    const unreadMsgs = (state["unread_msgs"] ?? {}) as {
      streams?: { stream_id: number; topic: string; unread_message_ids: number[] }[];
      pms?: { unread_message_ids: number[]; other_user_id?: number; sender_id?: number }[];
      huddles?: { unread_message_ids: number[]; user_ids_string?: string }[];
    };
    for (const s of unreadMsgs.streams ?? []) {
      for (const id of s.unread_message_ids) this.unread.set(id, { streamId: s.stream_id, topic: s.topic });
      this.noteTopic(s.stream_id, s.topic, Math.max(...s.unread_message_ids));
    }
    for (const p of unreadMsgs.pms ?? []) {
      const other = p.other_user_id ?? p.sender_id;
      for (const id of p.unread_message_ids)
        this.unread.set(id, other === undefined ? {} : { dm: String(other) });
    }
    for (const h of unreadMsgs.huddles ?? []) {
      const ids = (h.user_ids_string ?? "")
        .split(",")
        .map(Number)
        .filter((id) => id !== this.me.user_id);
      for (const id of h.unread_message_ids) this.unread.set(id, { dm: ids.sort((a, b) => a - b).join(",") });
    }
    // Loaded messages may be stale (edits, deletions missed while the queue was gone): start over.
    this.messages.clear();
    this.windows.clear();
    this.changed();
  }

  private noteTopic(streamId: number, topic: string, id: number): void {
    let topics = this.topics.get(streamId);
    if (!topics) this.topics.set(streamId, (topics = new Map<string, { name: string; maxId: number }>()));
    const key = topic.toLowerCase();
    const known = topics.get(key);
    if (!known || known.maxId < id) topics.set(key, { name: topic, maxId: id });
  }

  /** A topic edit (Zulip's update_message with `subject`): the moved messages, unread and sidebar follow. */
  private moveTopic(e: Record<string, unknown>, topic: string): void {
    const ids = (e["message_ids"] as number[] | undefined) ?? [Number(e["message_id"])];
    const streamId = typeof e["stream_id"] === "number" ? e["stream_id"] : undefined;
    for (const id of ids) {
      const m = this.messages.get(id);
      if (m) this.messages.set(id, { ...m, subject: topic });
      const key = this.unread.get(id);
      if (key?.streamId !== undefined) this.unread.set(id, { streamId: key.streamId, topic });
    }
    if (streamId === undefined) return;
    if (e["propagate_mode"] === "change_all" && typeof e["orig_subject"] === "string")
      this.topics.get(streamId)?.delete(e["orig_subject"].toLowerCase());
    this.noteTopic(streamId, topic, Math.max(...ids));
  }

  /** Messages fetched outside a narrow's window (Recent conversations): known, not shown in feeds. */
  addMessages(messages: readonly Message[]): void {
    for (const m of messages) if (!this.messages.has(m.id)) this.add(m);
    this.changed();
  }

  /** Unread messages per private conversation (`conversationKey`). */
  privateUnread(): Map<string, number> {
    const out = new Map<string, number>();
    for (const key of this.unread.values())
      if (key.dm !== undefined) out.set(key.dm, (out.get(key.dm) ?? 0) + 1);
    return out;
  }

  private add(m: Message): void {
    this.messages.set(m.id, m);
    if (m.type === "stream" && m.stream_id !== undefined) this.noteTopic(m.stream_id, m.subject, m.id);
  }

  /**
   * Messages fetched for a narrow (GET /messages), next to what it has loaded: they extend the
   * narrow's window. With the oldest (newest) found, the window reaches the start (the future).
   */
  addFetched(narrow: Narrow, messages: Message[], foundOldest: boolean, foundNewest = true): void {
    for (const m of messages) this.add(m);
    const key = narrowKey(narrow);
    const ids = messages.map((m) => m.id);
    const oldest = foundOldest ? 0 : Math.min(...ids, Number.MAX_SAFE_INTEGER);
    const newest = foundNewest ? Number.MAX_SAFE_INTEGER : Math.max(...ids, 0);
    const w = this.windows.get(key);
    const results =
      narrow.search !== undefined ? new Set([...(w?.ids ?? []), ...messages.map((m) => m.id)]) : undefined;
    this.windows.set(key, {
      ...(results ? { ids: results } : {}),
      oldestId: Math.min(w?.oldestId ?? Number.MAX_SAFE_INTEGER, oldest),
      newestId: Math.max(w?.newestId ?? 0, newest),
      foundOldest: foundOldest || (w?.foundOldest ?? false),
      foundNewest: foundNewest || (w?.foundNewest ?? false),
    });
    this.changed();
  }

  /** The loaded messages of a narrow, oldest first (undefined: not loaded yet). */
  feed(narrow: Narrow): { messages: Message[]; foundOldest: boolean; foundNewest: boolean } | undefined {
    const w = this.windows.get(narrowKey(narrow));
    if (!w) return undefined;
    const muted = (streamId: number, topic: string) => this.isMuted(streamId, topic);
    const out: Message[] = [];
    for (const m of this.messages.values()) {
      if (m.id < w.oldestId || m.id > w.newestId) continue;
      if (w.ids ? w.ids.has(m.id) : matchesNarrow(m, narrow, muted, this.me.user_id)) out.push(m);
    }
    out.sort((a, b) => a.id - b.id);
    return { messages: out, foundOldest: w.foundOldest, foundNewest: w.foundNewest };
  }

  unreadCounts(): UnreadCounts {
    const counts: UnreadCounts = { total: 0, private: 0, byStream: new Map(), byTopic: new Map() };
    for (const key of this.unread.values()) {
      if (key.streamId === undefined) {
        counts.private++;
        counts.total++;
        continue;
      }
      const tk = topicKey(key.streamId, key.topic ?? "");
      counts.byTopic.set(tk, (counts.byTopic.get(tk) ?? 0) + 1);
      if (this.muted.has(tk)) continue;
      counts.byStream.set(key.streamId, (counts.byStream.get(key.streamId) ?? 0) + 1);
      counts.total++;
    }
    return counts;
  }

  topicUnread(counts: UnreadCounts, streamId: number, topic: string): number {
    return counts.byTopic.get(topicKey(streamId, topic)) ?? 0;
  }

  /** Marks messages read locally (the server's flag event confirms it). */
  markReadLocally(ids: readonly number[]): void {
    for (const id of ids) {
      this.unread.delete(id);
      const m = this.messages.get(id);
      if (m && !m.flags.includes("read")) this.messages.set(id, { ...m, flags: [...m.flags, "read"] });
    }
    this.changed();
  }

  applyEvents(events: readonly { type: string; [key: string]: unknown }[]): void {
    for (const e of events) this.applyEvent(e);
    this.changed();
  }

  private applyEvent(e: { type: string; [key: string]: unknown }): void {
    switch (e.type) {
      case "message": {
        const m = { ...(e["message"] as Message), flags: (e["flags"] as string[] | undefined) ?? [] };
        this.add(m);
        if (!m.flags.includes("read")) {
          this.unread.set(
            m.id,
            m.type === "stream" && m.stream_id !== undefined
              ? { streamId: m.stream_id, topic: m.subject }
              : { dm: conversationKey(m, this.me.user_id) },
          );
        }
        this.onNewMessage?.(m);
        break;
      }
      case "update_message": {
        const id = Number(e["message_id"]);
        if (typeof e["subject"] === "string") this.moveTopic(e, e["subject"]);
        const m = this.messages.get(id);
        if (m && typeof e["rendered_content"] === "string") {
          const edited = { ...m, content: e["rendered_content"] };
          if (typeof e["edit_timestamp"] === "number") edited.last_edit_timestamp = e["edit_timestamp"];
          this.messages.set(id, edited);
        }
        break;
      }
      case "reaction": {
        const m = this.messages.get(Number(e["message_id"]));
        if (!m) break;
        const r: Reaction = {
          emoji_name: String(e["emoji_name"]),
          emoji_code: String(e["emoji_code"]),
          reaction_type: String(e["reaction_type"]),
          user_id: Number(e["user_id"]),
        };
        const others = (m.reactions ?? []).filter(
          (x) =>
            !(
              x.user_id === r.user_id &&
              x.emoji_code === r.emoji_code &&
              x.reaction_type === r.reaction_type
            ),
        );
        this.messages.set(m.id, { ...m, reactions: e["op"] === "add" ? [...others, r] : others });
        break;
      }
      case "delete_message": {
        const ids = (e["message_ids"] as number[] | undefined) ?? [Number(e["message_id"])];
        for (const id of ids) {
          this.messages.delete(id);
          this.unread.delete(id);
        }
        break;
      }
      case "update_message_flags": {
        const flag = String(e["flag"]);
        if (flag !== "read") {
          // Other flags (starred, …) only change the loaded messages.
          const add = (e["op"] ?? e["operation"]) === "add";
          for (const id of (e["messages"] as number[] | undefined) ?? []) {
            const m = this.messages.get(id);
            if (!m) continue;
            const others = m.flags.filter((f) => f !== flag);
            this.messages.set(id, { ...m, flags: add ? [...others, flag] : others });
          }
          break;
        }
        const op = e["op"] ?? e["operation"];
        if (op === "add" && e["all"] === true) this.unread.clear();
        for (const id of (e["messages"] as number[] | undefined) ?? []) {
          const m = this.messages.get(id);
          if (op === "add") {
            this.unread.delete(id);
            if (m && !m.flags.includes("read")) this.messages.set(id, { ...m, flags: [...m.flags, "read"] });
          } else if (op === "remove" && m) {
            this.messages.set(id, { ...m, flags: m.flags.filter((f) => f !== "read") });
            if (m.type === "stream" && m.stream_id !== undefined)
              this.unread.set(id, { streamId: m.stream_id, topic: m.subject });
            else this.unread.set(id, { dm: conversationKey(m, this.me.user_id) });
          }
        }
        break;
      }
      case "stream": {
        // A stream renamed or described anew (PATCH /streams/{id}), in the sidebar and the stream list.
        if (e["op"] !== "update" || (e["property"] !== "name" && e["property"] !== "description")) break;
        const id = Number(e["stream_id"]);
        const change = { [e["property"]]: text(e["value"]) };
        const sub = this.subscriptions.get(id);
        if (sub) this.subscriptions.set(id, { ...sub, ...change });
        const known = this.streams.get(id);
        if (known) this.streams.set(id, { ...known, ...change });
        break;
      }
      case "subscription": {
        const op = e["op"];
        if (op === "add")
          for (const s of e["subscriptions"] as Subscription[]) this.subscriptions.set(s.stream_id, s);
        if (op === "remove")
          for (const s of e["subscriptions"] as { stream_id: number }[])
            this.subscriptions.delete(s.stream_id);
        break;
      }
      case "realm_user": {
        const person = e["person"] as Person | undefined;
        if (e["op"] === "add" && person) this.users.set(person.user_id, person);
        break;
      }
      case "realm_bot": {
        const bot = e["bot"] as Person | undefined;
        if (e["op"] === "add" && bot) this.users.set(bot.user_id, { ...bot, is_bot: true });
        break;
      }
      case "presence": {
        this.notePresence(Number(e["user_id"]), (e["presence"] ?? {}) as Record<string, unknown>);
        break;
      }
      case "typing": {
        const sender = Number((e["sender"] as { user_id?: number } | undefined)?.user_id);
        const key =
          e["message_type"] === "stream"
            ? typingKey(Number(e["stream_id"]), typeof e["topic"] === "string" ? e["topic"] : "")
            : "private";
        let who = this.typing.get(key);
        if (!who) this.typing.set(key, (who = new Map<number, number>()));
        // Zulip's clients drop a start notice not renewed within 15 s.
        if (e["op"] === "start") who.set(sender, Date.now() + 15_000);
        else who.delete(sender);
        break;
      }
      case "drafts": {
        if (e["op"] === "add") for (const d of e["drafts"] as Draft[]) this.drafts.set(d.id, d);
        if (e["op"] === "update") {
          const d = e["draft"] as Draft;
          this.drafts.set(d.id, d);
        }
        if (e["op"] === "remove") this.drafts.delete(Number(e["draft_id"]));
        break;
      }
      case "user_settings": {
        if (e["op"] === "update" && typeof e["property"] === "string")
          this.settings = { ...this.settings, [e["property"]]: e["value"] };
        break;
      }
      case "update_global_notifications": {
        if (typeof e["notification_name"] === "string")
          this.settings = { ...this.settings, [e["notification_name"]]: e["setting"] };
        break;
      }
      case "realm": {
        if (e["op"] === "update" && e["property"] === "name") this.realmName = text(e["value"]);
        if (e["op"] === "update" && e["property"] === "description")
          this.realm.description = text(e["value"]);
        const data = e["data"] as Record<string, unknown> | undefined;
        // Realm settings changed together (who may invite, …): kept as register gave them.
        if (e["op"] === "update_dict" && data !== undefined) this.realm = { ...this.realm, ...data };
        break;
      }
      case "realm_emoji":
        this.customEmoji = activeCustomEmoji(e["realm_emoji"]);
        break;
      case "muted_topics": {
        this.muted.clear();
        for (const [streamName, topic] of e["muted_topics"] as [string, string, number][]) {
          const s = this.streamByName(streamName);
          if (s) this.muted.add(topicKey(s.stream_id, topic));
        }
        break;
      }
      default:
        break;
    }
  }
}
