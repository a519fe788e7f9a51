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
}

export interface Person {
  user_id: number;
  email: string;
  full_name: string;
  is_bot: boolean;
}

export interface Subscription {
  stream_id: number;
  name: string;
  color?: string;
}

/** Which messages a feed shows: everything, one stream, one topic, or private messages. */
export interface Narrow {
  streamId?: number;
  topic?: string;
  private?: boolean;
}

export function narrowKey(n: Narrow): string {
  if (n.private) return "private";
  if (n.streamId === undefined) return "all";
  return n.topic === undefined ? `s:${n.streamId}` : `s:${n.streamId}:${n.topic.toLowerCase()}`;
}

/** The `narrow` argument of GET /messages for a narrow. */
export function narrowFilter(n: Narrow, streamName: (id: number) => string | undefined): object[] {
  if (n.private) return [{ operator: "is", operand: "private" }];
  if (n.streamId === undefined) return [];
  const out: object[] = [{ operator: "stream", operand: streamName(n.streamId) ?? String(n.streamId) }];
  if (n.topic !== undefined) out.push({ operator: "topic", operand: n.topic });
  return out;
}

export function matchesNarrow(m: Message, n: Narrow): boolean {
  if (n.private) return m.type === "private";
  if (n.streamId === undefined) return true;
  if (m.type !== "stream" || m.stream_id !== n.streamId) return false;
  return n.topic === undefined || m.subject.toLowerCase() === n.topic.toLowerCase();
}

interface UnreadKey {
  streamId?: number;
  topic?: string;
}

const topicKey = (streamId: number, topic: string): string => `${streamId}\u0000${topic.toLowerCase()}`;

export interface UnreadCounts {
  total: number;
  private: number;
  byStream: Map<number, number>;
  byTopic: Map<string, number>;
}

/** What one narrow has loaded: messages from `oldestId` up are all there. */
interface NarrowWindow {
  oldestId: number;
  foundOldest: boolean;
}

export class ChatStore {
  me: Person = { user_id: 0, email: "", full_name: "", is_bot: false };
  realmName = "";
  users = new Map<number, Person>();
  subscriptions = new Map<number, Subscription>();
  /** Known topics per stream: topic name → newest message id. */
  topics = new Map<number, Map<string, { name: string; maxId: number }>>();
  messages = new Map<number, Message>();
  unread = new Map<number, UnreadKey>();
  muted = new Set<string>();
  windows = new Map<string, NarrowWindow>();
  connectionDown = false;
  /** The realm's active custom emoji by name (register's `realm_emoji`, kept by its events). */
  customEmoji = new Map<string, CustomEmoji>();
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
    return this.subscriptions.get(id)?.name;
  }

  streamByName(name: string): Subscription | undefined {
    const lower = name.trim().toLowerCase();
    for (const s of this.subscriptions.values()) if (s.name.toLowerCase() === lower) return s;
    return undefined;
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
    };
    this.realmName = text(state["realm_name"]);
    this.users.clear();
    for (const u of [
      ...((state["realm_users"] ?? []) as Person[]),
      ...((state["cross_realm_bots"] ?? []) as Person[]),
    ])
      this.users.set(u.user_id, u);
    this.subscriptions.clear();
    for (const s of (state["subscriptions"] ?? []) as Subscription[]) this.subscriptions.set(s.stream_id, s);
    this.customEmoji = activeCustomEmoji(state["realm_emoji"]);
    this.muted.clear();
    for (const [streamName, topic] of (state["muted_topics"] ?? []) as [string, string, number][]) {
      const s = this.streamByName(streamName);
      if (s) this.muted.add(topicKey(s.stream_id, topic));
    }
    this.unread.clear();
    const unreadMsgs = (state["unread_msgs"] ?? {}) as {
      streams?: { stream_id: number; topic: string; unread_message_ids: number[] }[];
      pms?: { unread_message_ids: number[] }[];
      huddles?: { unread_message_ids: number[] }[];
    };
    for (const s of unreadMsgs.streams ?? []) {
      for (const id of s.unread_message_ids) this.unread.set(id, { streamId: s.stream_id, topic: s.topic });
      this.noteTopic(s.stream_id, s.topic, Math.max(...s.unread_message_ids));
    }
    for (const p of [...(unreadMsgs.pms ?? []), ...(unreadMsgs.huddles ?? [])])
      for (const id of p.unread_message_ids) this.unread.set(id, {});
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

  private add(m: Message): void {
    this.messages.set(m.id, m);
    if (m.type === "stream" && m.stream_id !== undefined) this.noteTopic(m.stream_id, m.subject, m.id);
  }

  /** Messages fetched for a narrow (GET /messages): older ones extend the narrow's window. */
  addFetched(narrow: Narrow, messages: Message[], foundOldest: boolean): void {
    for (const m of messages) this.add(m);
    const key = narrowKey(narrow);
    // With the oldest message found, the window covers everything (even an empty narrow's future).
    const oldest = foundOldest
      ? 0
      : messages.reduce((min, m) => Math.min(min, m.id), Number.MAX_SAFE_INTEGER);
    const w = this.windows.get(key);
    this.windows.set(key, {
      oldestId: Math.min(w?.oldestId ?? Number.MAX_SAFE_INTEGER, oldest),
      foundOldest: foundOldest || (w?.foundOldest ?? false),
    });
    this.changed();
  }

  /** The loaded messages of a narrow, oldest first (undefined: not loaded yet). */
  feed(narrow: Narrow): { messages: Message[]; foundOldest: boolean } | undefined {
    const w = this.windows.get(narrowKey(narrow));
    if (!w) return undefined;
    const out: Message[] = [];
    for (const m of this.messages.values()) if (m.id >= w.oldestId && matchesNarrow(m, narrow)) out.push(m);
    out.sort((a, b) => a.id - b.id);
    return { messages: out, foundOldest: w.foundOldest };
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
              : {},
          );
        }
        break;
      }
      case "update_message": {
        const id = Number(e["message_id"]);
        const m = this.messages.get(id);
        if (m && typeof e["rendered_content"] === "string") {
          const edited = { ...m, content: e["rendered_content"] };
          if (typeof e["edit_timestamp"] === "number") edited.last_edit_timestamp = e["edit_timestamp"];
          this.messages.set(id, edited);
        }
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
        if (e["flag"] !== "read") break;
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
            else this.unread.set(id, {});
          }
        }
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
