import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { ApiError, api, text } from "../lib/api.js";
import { narrowFilter, narrowKey } from "../lib/chat-store.js";
import type { ChatStore, Message, Narrow } from "../lib/chat-store.js";
import { sanitize } from "../lib/sanitize.js";

const PAGE = 50;

async function fetchMessages(store: ChatStore, narrow: Narrow, anchor: number | "newest"): Promise<void> {
  const res = await api.get("/messages", {
    anchor,
    num_before: PAGE,
    num_after: 0,
    include_anchor: anchor === "newest",
    narrow: narrowFilter(narrow, (id) => store.streamName(id)),
    apply_markdown: true,
    client_gravatar: false,
  });
  store.addFetched(narrow, res["messages"] as Message[], res["found_oldest"] === true);
}

function time(ts: number): string {
  return new Date(ts * 1000).toLocaleString(undefined, { dateStyle: "short", timeStyle: "short" });
}

function initials(name: string): string {
  return name
    .split(/\s+/)
    .map((w) => w[0] ?? "")
    .join("")
    .slice(0, 2)
    .toUpperCase();
}

interface HistoryEntry {
  timestamp: number;
  rendered_content?: string;
  prev_rendered_content?: string;
}

function EditHistory({ id, onClose }: { id: number; onClose: () => void }) {
  const [entries, setEntries] = useState<HistoryEntry[] | undefined>();
  const [error, setError] = useState("");
  useEffect(() => {
    api
      .get(`/messages/${id}/history`)
      .then((res) => setEntries(res["message_history"] as HistoryEntry[]))
      .catch((err: unknown) => setError(err instanceof ApiError ? err.message : "Cannot load the history."));
  }, [id]);
  return (
    <div class="history" role="region" aria-label="Edit history">
      {error !== "" && <p role="alert">{error}</p>}
      {entries?.map((h, i) => (
        <div key={i} class="history-entry">
          <div class="meta">
            {i === 0 ? "Original" : "Edited"} · {time(h.timestamp)}
          </div>
          <div class="content" dangerouslySetInnerHTML={{ __html: sanitize(h.rendered_content ?? "") }} />
        </div>
      ))}
      <button type="button" class="secondary" onClick={onClose}>
        Close history
      </button>
    </div>
  );
}

function MessageRow({
  store,
  m,
  showRecipient,
  go,
}: {
  store: ChatStore;
  m: Message;
  showRecipient: boolean;
  go: (n: Narrow) => void;
}) {
  const [editing, setEditing] = useState<string | undefined>();
  const [history, setHistory] = useState(false);
  const [error, setError] = useState("");
  const mine = m.sender_id === store.me.user_id;
  const save = async () => {
    if (editing === undefined) return;
    try {
      await api.patch(`/messages/${m.id}`, { content: editing });
      setEditing(undefined);
      setError("");
    } catch (err) {
      setError(err instanceof ApiError ? err.message : "Cannot save the message.");
    }
  };
  const startEdit = async () => {
    try {
      const res = await api.get(`/messages/${m.id}`, { apply_markdown: false });
      setEditing(text(res["raw_content"]));
    } catch (err) {
      setError(err instanceof ApiError ? err.message : "Cannot load the message.");
    }
  };
  return (
    <article
      class={m.flags.includes("read") ? "msg" : "msg unread"}
      data-message-id={m.id}
      aria-label={`Message from ${m.sender_full_name}`}
    >
      {showRecipient && (
        <div class="recipient">
          {m.type === "stream" && m.stream_id !== undefined ? (
            <a
              href={`#narrow/stream/${m.stream_id}/topic/${encodeURIComponent(m.subject)}`}
              onClick={(e) => {
                e.preventDefault();
                go({ streamId: m.stream_id, topic: m.subject });
              }}
            >
              #{typeof m.display_recipient === "string" ? m.display_recipient : ""} › {m.subject}
            </a>
          ) : (
            <span>
              Private with{" "}
              {Array.isArray(m.display_recipient)
                ? (m.display_recipient.length > 1
                    ? m.display_recipient.filter((r) => r.id !== store.me.user_id)
                    : m.display_recipient
                  )
                    .map((r) => r.full_name)
                    .join(", ")
                : ""}
            </span>
          )}
        </div>
      )}
      <div class="msg-body">
        <span class="avatar" aria-hidden="true">
          {initials(m.sender_full_name)}
        </span>
        <div class="msg-main">
          <div class="meta">
            <strong class="sender">{m.sender_full_name}</strong> <time>{time(m.timestamp)}</time>
            {m.last_edit_timestamp !== undefined && (
              <button
                type="button"
                class="link"
                aria-label="Show edit history"
                onClick={() => setHistory(!history)}
              >
                (edited)
              </button>
            )}
            {mine && editing === undefined && (
              <button type="button" class="link" aria-label="Edit message" onClick={() => void startEdit()}>
                Edit
              </button>
            )}
          </div>
          {editing === undefined ? (
            <div class="content" dangerouslySetInnerHTML={{ __html: sanitize(m.content) }} />
          ) : (
            <div class="edit">
              <textarea
                aria-label="Edit message content"
                value={editing}
                onInput={(e) => setEditing(e.currentTarget.value)}
              />
              <button type="button" onClick={() => void save()}>
                Save
              </button>{" "}
              <button type="button" class="secondary" onClick={() => setEditing(undefined)}>
                Cancel
              </button>
            </div>
          )}
          {error !== "" && (
            <p class="error" role="alert">
              {error}
            </p>
          )}
          {history && <EditHistory id={m.id} onClose={() => setHistory(false)} />}
        </div>
      </div>
    </article>
  );
}

/** Unread messages that have been on screen are marked as read, in batches. */
function useMarkAsRead(store: ChatStore, container: { current: HTMLElement | null }, version: string) {
  useEffect(() => {
    const root = container.current;
    if (!root) return undefined;
    const pending = new Set<number>();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const flush = () => {
      timer = undefined;
      const ids = [...pending];
      pending.clear();
      if (ids.length === 0) return;
      store.markReadLocally(ids);
      void api.post("/messages/flags", { messages: ids, op: "add", flag: "read" }).catch(() => undefined);
    };
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          if (!entry.isIntersecting || document.visibilityState !== "visible") continue;
          const id = Number((entry.target as HTMLElement).dataset["messageId"]);
          if (store.unread.has(id)) pending.add(id);
          observer.unobserve(entry.target);
        }
        if (pending.size > 0 && timer === undefined) timer = setTimeout(flush, 300);
      },
      { root, threshold: 0.6 },
    );
    for (const el of root.querySelectorAll<HTMLElement>("article.msg.unread")) observer.observe(el);
    return () => {
      observer.disconnect();
      if (timer !== undefined) clearTimeout(timer);
      flush();
    };
  }, [store, container, version]);
}

export function Feed({ store, narrow, go }: { store: ChatStore; narrow: Narrow; go: (n: Narrow) => void }) {
  const key = narrowKey(narrow);
  const feed = store.feed(narrow);
  const [error, setError] = useState("");
  const [loadingOlder, setLoadingOlder] = useState(false);
  const scroller = useRef<HTMLDivElement>(null);
  const stickToBottom = useRef(true);
  const keepOffset = useRef<number | undefined>(undefined);

  useEffect(() => {
    stickToBottom.current = true;
    if (store.feed(narrow) !== undefined) return;
    setError("");
    fetchMessages(store, narrow, "newest").catch((err: unknown) =>
      setError(err instanceof ApiError ? err.message : "Cannot load messages."),
    );
  }, [key, store.windows.size === 0]);

  const messages = feed?.messages ?? [];
  const newest = messages[messages.length - 1]?.id ?? 0;
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    if (keepOffset.current !== undefined) {
      el.scrollTop = el.scrollHeight - keepOffset.current;
      keepOffset.current = undefined;
    } else if (stickToBottom.current) {
      el.scrollTop = el.scrollHeight;
    }
  }, [key, newest, messages.length]);

  useMarkAsRead(store, scroller, `${key}:${messages.length}:${newest}`);

  const loadOlder = async () => {
    const oldest = messages[0];
    if (!feed || feed.foundOldest || loadingOlder || oldest === undefined) return;
    setLoadingOlder(true);
    const el = scroller.current;
    if (el) keepOffset.current = el.scrollHeight - el.scrollTop;
    try {
      await fetchMessages(store, narrow, oldest.id);
    } catch (err) {
      keepOffset.current = undefined;
      setError(err instanceof ApiError ? err.message : "Cannot load messages.");
    } finally {
      setLoadingOlder(false);
    }
  };

  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    stickToBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
    if (el.scrollTop < 80) void loadOlder();
  };

  return (
    <div
      class="feed"
      ref={scroller}
      onScroll={onScroll}
      role="log"
      aria-live="polite"
      aria-label="Message feed"
    >
      {feed?.foundOldest === true && messages.length > 0 && <p class="feed-start">This is the beginning.</p>}
      {loadingOlder && <p class="feed-start">Loading older messages…</p>}
      {feed === undefined && error === "" && <p class="feed-start">Loading…</p>}
      {error !== "" && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {feed !== undefined && messages.length === 0 && <p class="feed-start">No messages here yet.</p>}
      {messages.map((m, i) => {
        const prev = messages[i - 1];
        const showRecipient =
          prev === undefined ||
          prev.type !== m.type ||
          prev.stream_id !== m.stream_id ||
          prev.subject.toLowerCase() !== m.subject.toLowerCase();
        return <MessageRow key={m.id} store={store} m={m} showRecipient={showRecipient} go={go} />;
      })}
    </div>
  );
}
