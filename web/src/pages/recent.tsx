import { useEffect, useState } from "preact/hooks";
import { ApiError, api } from "../lib/api.js";
import { conversationKey } from "../lib/chat-store.js";
import type { ChatStore, Message, Narrow } from "../lib/chat-store.js";
import { narrowHash } from "../lib/narrow-hash.js";
import { dayLabel } from "./feed.js";

/** How many of the newest messages the view reads to find the recent conversations. */
const RECENT_MESSAGES = 400;

/** One row of Recent conversations: a topic or a private conversation. */
export interface Conversation {
  key: string;
  narrow: Narrow;
  kind: "stream" | "private";
  label: string;
  streamId?: number;
  /** Who wrote in it (newest first), or the people of a private conversation. */
  participants: string[];
  /** The newest message's id and time (s); time 0 when only its id is known. */
  lastId: number;
  lastTimestamp: number;
  unread: number;
  muted: boolean;
  /** Whether you wrote in it. */
  mine: boolean;
}

/** The conversations of the loaded messages (and register's private conversations), newest first. */
export function recentConversations(store: ChatStore): Conversation[] {
  const me = store.me.user_id;
  const counts = store.unreadCounts();
  const dmUnread = store.privateUnread();
  const byKey = new Map<string, Conversation & { senders: Map<number, number> }>();
  const personName = (id: number) => store.users.get(id)?.full_name ?? `User ${id}`;
  const sorted: Message[] = [...store.messages.values()].sort((a, b) => b.id - a.id);
  for (const m of sorted) {
    let c: (Conversation & { senders: Map<number, number> }) | undefined;
    if (m.type === "stream" && m.stream_id !== undefined) {
      const key = `s:${m.stream_id}:${m.subject.toLowerCase()}`;
      c = byKey.get(key);
      if (!c) {
        const stream = store.streamName(m.stream_id) ?? String(m.stream_id);
        c = {
          key,
          narrow: { streamId: m.stream_id, topic: m.subject },
          kind: "stream",
          label: `#${stream} › ${m.subject === "" ? "(no topic)" : m.subject}`,
          streamId: m.stream_id,
          participants: [],
          lastId: m.id,
          lastTimestamp: m.timestamp,
          unread: store.topicUnread(counts, m.stream_id, m.subject),
          muted: store.isMuted(m.stream_id, m.subject),
          mine: false,
          senders: new Map(),
        };
        byKey.set(key, c);
      }
    } else {
      const dm = conversationKey(m, me);
      if (dm === "") continue;
      const key = `dm:${dm}`;
      c = byKey.get(key);
      if (!c) {
        const ids = dm.split(",").map(Number);
        c = {
          key,
          narrow: { dm: ids },
          kind: "private",
          label: ids.map(personName).join(", "),
          participants: [],
          lastId: m.id,
          lastTimestamp: m.timestamp,
          unread: dmUnread.get(dm) ?? 0,
          muted: false,
          mine: false,
          senders: new Map(),
        };
        byKey.set(key, c);
      }
    }
    if (!c.senders.has(m.sender_id)) c.senders.set(m.sender_id, m.id);
    if (m.sender_id === me) c.mine = true;
  }
  // Private conversations the server knows of whose messages are not loaded.
  for (const r of store.recentPrivate) {
    const ids = r.userIds.length === 0 ? [me] : r.userIds;
    const key = `dm:${ids.join(",")}`;
    if (byKey.has(key)) continue;
    byKey.set(key, {
      key,
      narrow: { dm: ids },
      kind: "private",
      label: ids.map(personName).join(", "),
      participants: [],
      lastId: r.maxId,
      lastTimestamp: 0,
      unread: dmUnread.get(ids.join(",")) ?? 0,
      muted: false,
      mine: false,
      senders: new Map(ids.map((id) => [id, r.maxId])),
    });
  }
  return [...byKey.values()]
    .map(({ senders, ...c }) => ({ ...c, participants: [...senders.keys()].map(personName) }))
    .sort((a, b) => b.lastId - a.lastId);
}

function when(ts: number): string {
  if (ts === 0) return "";
  const day = dayLabel(ts);
  const t = new Date(ts * 1000).toLocaleTimeString(undefined, { hour: "numeric", minute: "2-digit" });
  return day === "Today" ? t : `${day}, ${t}`;
}

type Kind = "all" | "stream" | "private";

/** Zulip's Recent conversations: the newest topics and private conversations, with filters. */
export function RecentView({ store, go }: { store: ChatStore; go: (n: Narrow) => void }) {
  const [error, setError] = useState("");
  const [loaded, setLoaded] = useState(false);
  const [kind, setKind] = useState<Kind>("all");
  const [unreadOnly, setUnreadOnly] = useState(false);
  const [participated, setParticipated] = useState(false);
  const [includeMuted, setIncludeMuted] = useState(false);
  const [filter, setFilter] = useState("");
  useEffect(() => {
    api
      .get("/messages", {
        anchor: "newest",
        num_before: RECENT_MESSAGES,
        num_after: 0,
        narrow: [],
        apply_markdown: true,
        client_gravatar: false,
      })
      .then((res) => {
        store.addMessages(res["messages"] as Message[]);
        setLoaded(true);
      })
      .catch((err: unknown) =>
        setError(err instanceof ApiError ? err.message : "Cannot load recent conversations."),
      );
  }, [store, store.windows.size === 0]);
  const words = filter.trim().toLowerCase();
  const rows = recentConversations(store).filter(
    (c) =>
      (kind === "all" || c.kind === kind) &&
      (!unreadOnly || c.unread > 0) &&
      (!participated || c.mine) &&
      (includeMuted || !c.muted) &&
      (words === "" || `${c.label} ${c.participants.join(" ")}`.toLowerCase().includes(words)),
  );
  const kinds: [Kind, string][] = [
    ["all", "All"],
    ["stream", "Streams"],
    ["private", "Private messages"],
  ];
  return (
    <div class="view recent" role="region" aria-label="Recent conversations">
      <div class="view-filters" role="group" aria-label="Filters">
        {kinds.map(([k, label]) => (
          <button
            key={k}
            type="button"
            class={kind === k ? "chip on" : "chip"}
            aria-pressed={kind === k}
            onClick={() => setKind(k)}
          >
            {label}
          </button>
        ))}
        <label class="check">
          <input
            type="checkbox"
            checked={unreadOnly}
            onChange={(e) => setUnreadOnly(e.currentTarget.checked)}
          />
          Unread
        </label>
        <label class="check">
          <input
            type="checkbox"
            checked={participated}
            onChange={(e) => setParticipated(e.currentTarget.checked)}
          />
          Participated
        </label>
        <label class="check">
          <input
            type="checkbox"
            checked={includeMuted}
            onChange={(e) => setIncludeMuted(e.currentTarget.checked)}
          />
          Muted
        </label>
        <input
          type="search"
          class="view-search"
          aria-label="Filter conversations"
          placeholder="Filter conversations"
          value={filter}
          onInput={(e) => setFilter(e.currentTarget.value)}
        />
      </div>
      {error !== "" && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {!loaded && error === "" && <p class="feed-start">Loading…</p>}
      {loaded && rows.length === 0 && <p class="feed-start">No conversations match.</p>}
      <ul class="conversations" aria-label="Conversations">
        {rows.map((c) => (
          <li key={c.key} class={c.unread > 0 ? "conversation-row unread" : "conversation-row"}>
            <a
              href={narrowHash(c.narrow)}
              class="conversation-name"
              onClick={(e) => {
                e.preventDefault();
                go(c.narrow);
              }}
            >
              {c.kind === "private" ? `Private with ${c.label}` : c.label}
            </a>
            {c.unread > 0 && (
              <span class="badge" aria-label={`${c.unread} unread`}>
                {c.unread}
              </span>
            )}
            <span class="participants" aria-label="Participants">
              {c.participants.join(", ")}
            </span>
            {c.lastTimestamp > 0 && (
              <time dateTime={new Date(c.lastTimestamp * 1000).toISOString()}>{when(c.lastTimestamp)}</time>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
