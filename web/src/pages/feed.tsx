import { Fragment } from "preact";
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { ApiError, api, text } from "../lib/api.js";
import { conversationKey, narrowFilter, narrowKey } from "../lib/chat-store.js";
import type { ChatStore, Message, Narrow } from "../lib/chat-store.js";
import { hashEncode, narrowOfLink } from "../lib/narrow-hash.js";
import { sanitize } from "../lib/sanitize.js";
import { Reactions } from "./reactions.js";

const PAGE = 50;

/**
 * One page of a narrow: the first screen opens at the first unread message (Zulip's
 * `first_unread` anchor), with some read context above it; later pages extend it up or down.
 */
async function fetchMessages(
  store: ChatStore,
  narrow: Narrow,
  anchor: number | "first_unread",
  direction: "around" | "older" | "newer",
): Promise<void> {
  const res = await api.get("/messages", {
    anchor,
    num_before: direction === "newer" ? 0 : direction === "around" ? 20 : PAGE,
    num_after: direction === "older" ? 0 : PAGE,
    include_anchor: direction === "around",
    narrow: narrowFilter(narrow),
    apply_markdown: true,
    client_gravatar: false,
  });
  store.addFetched(
    narrow,
    res["messages"] as Message[],
    res["found_oldest"] === true,
    direction !== "older" && res["found_newest"] === true,
  );
}

/** The time of a message (its day is in the separator above it). */
/** A message's time, on the 24-hour clock when the user's `twenty_four_hour_time` says so. */
function time(ts: number, twentyFourHour: boolean): string {
  return new Date(ts * 1000).toLocaleTimeString(undefined, {
    hour: "numeric",
    minute: "2-digit",
    hour12: !twentyFourHour,
  });
}

function fullTime(ts: number): string {
  return new Date(ts * 1000).toLocaleString(undefined, { dateStyle: "full", timeStyle: "short" });
}

/** "Today", "Yesterday", or the date, for the separator above a day's first message. */
export function dayLabel(ts: number, now: Date = new Date()): string {
  const day = new Date(ts * 1000);
  const midnight = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
  const days = Math.round((midnight(now) - midnight(day)) / 86_400_000);
  if (days === 0) return "Today";
  if (days === 1) return "Yesterday";
  return day.toLocaleDateString(undefined, {
    weekday: "short",
    day: "numeric",
    month: "short",
    ...(day.getFullYear() !== now.getFullYear() ? { year: "numeric" } : {}),
  });
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
            {i === 0 ? "Original" : "Edited"} · {fullTime(h.timestamp)}
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

/** A message within this many seconds of the one before, by the same sender, joins its group. */
const GROUP_SECONDS = 10 * 60;

function MessageRow({
  store,
  m,
  showRecipient,
  continued,
  go,
  reply,
  markUnreadFrom,
}: {
  store: ChatStore;
  m: Message;
  showRecipient: boolean;
  /** The same sender's next message in a group: no avatar, the name only for screen readers. */
  continued: boolean;
  go: (n: Narrow) => void;
  reply: (m: Message, quote: boolean) => void;
  markUnreadFrom: (m: Message) => Promise<void>;
}) {
  const [confirmDelete, setConfirmDelete] = useState(false);
  // The confirmation takes the focus of the Delete button it replaces (so the actions stay open).
  const confirmButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (confirmDelete) confirmButton.current?.focus();
  }, [confirmDelete]);
  const [copied, setCopied] = useState(false);
  const starred = m.flags.includes("starred");
  const star = () =>
    api
      .post("/messages/flags", { messages: [m.id], op: starred ? "remove" : "add", flag: "starred" })
      .catch((err: unknown) => setError(err instanceof ApiError ? err.message : "Cannot reach the server."));
  const remove = () =>
    api
      .delete(`/messages/${m.id}`)
      .catch((err: unknown) =>
        setError(err instanceof ApiError ? err.message : "Cannot delete the message."),
      );
  const copyLink = async () => {
    const link =
      m.type === "stream" && m.stream_id !== undefined
        ? `${window.location.origin}/#narrow/stream/${m.stream_id}/topic/${hashEncode(m.subject)}/near/${m.id}`
        : `${window.location.origin}/#narrow/is/private/near/${m.id}`;
    try {
      await navigator.clipboard.writeText(link);
      setCopied(true);
    } catch {
      setError(link);
    }
  };
  const [editing, setEditing] = useState<string | undefined>();
  const [history, setHistory] = useState(false);
  const [error, setError] = useState("");
  const mine = m.sender_id === store.me.user_id;
  const mentioned = m.flags.some((f) => f === "mentioned" || f === "wildcard_mentioned");
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
  const [moving, setMoving] = useState<{ topic: string; mode: string } | undefined>();
  const move = async () => {
    if (!moving) return;
    try {
      await api.patch(`/messages/${m.id}`, { topic: moving.topic, propagate_mode: moving.mode });
      setMoving(undefined);
      setError("");
    } catch (err) {
      setError(err instanceof ApiError ? err.message : "Cannot move the topic.");
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
      class={`msg${m.flags.includes("read") ? "" : " unread"}${mentioned ? " mentioned" : ""}${continued ? " continued" : ""}${confirmDelete ? " actions-open" : ""}`}
      data-message-id={m.id}
      tabIndex={-1}
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
          {continued ? "" : initials(m.sender_full_name)}
        </span>
        <div class="msg-main">
          <div class="meta">
            <strong class={continued ? "sender visually-hidden" : "sender"}>{m.sender_full_name}</strong>{" "}
            <time dateTime={new Date(m.timestamp * 1000).toISOString()} title={fullTime(m.timestamp)}>
              {time(m.timestamp, store.settings["twenty_four_hour_time"] === true)}
            </time>
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
          {moving && (
            <form
              class="edit"
              aria-label="Move topic"
              onSubmit={(e) => {
                e.preventDefault();
                void move();
              }}
            >
              <input
                aria-label="New topic"
                value={moving.topic}
                onInput={(e) => setMoving({ ...moving, topic: e.currentTarget.value })}
              />
              <select
                aria-label="Messages to move"
                value={moving.mode}
                onChange={(e) => setMoving({ ...moving, mode: e.currentTarget.value })}
              >
                <option value="change_all">All messages in the topic</option>
                <option value="change_later">This message and the later ones</option>
                <option value="change_one">Only this message</option>
              </select>{" "}
              <button type="submit">Move</button>{" "}
              <button type="button" class="secondary" onClick={() => setMoving(undefined)}>
                Cancel
              </button>
            </form>
          )}
          {history && <EditHistory id={m.id} onClose={() => setHistory(false)} />}
          <Reactions store={store} m={m} />
          <div class="msg-actions" role="group" aria-label="Message actions">
            <button type="button" class="link" onClick={() => reply(m, true)}>
              Quote and reply
            </button>
            <button type="button" class="link" aria-pressed={starred} onClick={() => void star()}>
              {starred ? "Unstar" : "Star"}
            </button>
            <button
              type="button"
              class="link"
              onClick={() =>
                void markUnreadFrom(m).catch((err: unknown) =>
                  setError(err instanceof ApiError ? err.message : "Cannot reach the server."),
                )
              }
            >
              Mark as unread from here
            </button>
            {m.type === "stream" && (
              <button
                type="button"
                class="link"
                onClick={() => setMoving({ topic: m.subject, mode: "change_all" })}
              >
                Move topic
              </button>
            )}
            <button type="button" class="link" onClick={() => void copyLink()}>
              {copied ? "Link copied" : "Copy link"}
            </button>
            {mine &&
              (confirmDelete ? (
                <>
                  <button
                    type="button"
                    class="link danger-text"
                    ref={confirmButton}
                    onClick={() => void remove()}
                  >
                    Yes, delete
                  </button>
                  <button type="button" class="link" onClick={() => setConfirmDelete(false)}>
                    Keep
                  </button>
                </>
              ) : (
                <button type="button" class="link" onClick={() => setConfirmDelete(true)}>
                  Delete
                </button>
              ))}
          </div>
        </div>
      </div>
    </article>
  );
}

/** Unread messages that have been on screen are marked as read, in batches. */
function useMarkAsRead(
  store: ChatStore,
  container: { current: HTMLElement | null },
  version: string,
  paused: boolean,
) {
  useEffect(() => {
    const root = container.current;
    if (!root || paused) return undefined;
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
  }, [store, container, version, paused]);
}

/** "Hamlet is typing…" under the open topic or private messages, until the notice expires. */
function Typing({ store, narrow }: { store: ChatStore; narrow: Narrow }) {
  const [, setTick] = useState(0);
  const who = store.typingIn(narrow);
  useEffect(() => {
    if (who.length === 0) return undefined;
    const t = setInterval(() => setTick((n) => n + 1), 3000);
    return () => clearInterval(t);
  }, [who.length]);
  if (who.length === 0) return null;
  return (
    <p class="typing" role="status">
      {who.join(", ")} {who.length === 1 ? "is" : "are"} typing…
    </p>
  );
}

export function Feed({
  store,
  narrow,
  go,
  reply,
}: {
  store: ChatStore;
  narrow: Narrow;
  go: (n: Narrow) => void;
  reply: (m: Message, quote: boolean) => void;
}) {
  const key = narrowKey(narrow);
  const feed = store.feed(narrow);
  const [error, setError] = useState("");
  const [loading, setLoading] = useState<"" | "older" | "newer">("");
  const scroller = useRef<HTMLDivElement>(null);
  const stickToBottom = useRef(false);
  const keepOffset = useRef<number | undefined>(undefined);
  /** The narrow whose first screen has been placed (at its first unread message). */
  const placed = useRef("");

  useEffect(() => {
    stickToBottom.current = false;
    placed.current = "";
  }, [key]);
  // The view's first messages; loaded again when the connection comes back if that load failed
  // (a network drop while the app starts), or when Retry is pressed.
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (store.feed(narrow) !== undefined || store.connectionDown) return;
    setError("");
    fetchMessages(store, narrow, "first_unread", "around").catch((err: unknown) =>
      setError(err instanceof ApiError ? err.message : "Cannot load messages."),
    );
  }, [key, store.windows.size === 0, store.connectionDown, attempt]);

  const messages = feed?.messages ?? [];
  const newest = messages[messages.length - 1]?.id ?? 0;
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el || feed === undefined) return;
    if (placed.current !== key) {
      // The first screen: the first unread message at the top, else the newest at the bottom.
      placed.current = key;
      const firstUnread = messages.find((m) => !m.flags.includes("read"));
      const target =
        firstUnread && el.querySelector<HTMLElement>(`article[data-message-id="${firstUnread.id}"]`);
      if (target) {
        el.scrollTop += target.getBoundingClientRect().top - el.getBoundingClientRect().top - 8;
      } else {
        el.scrollTop = el.scrollHeight;
      }
      stickToBottom.current = feed.foundNewest && el.scrollHeight - el.scrollTop - el.clientHeight < 40;
    } else if (keepOffset.current !== undefined) {
      el.scrollTop = el.scrollHeight - keepOffset.current;
      keepOffset.current = undefined;
    } else if (stickToBottom.current) {
      el.scrollTop = el.scrollHeight;
    }
  }, [key, newest, messages.length, feed === undefined]);

  // After "Mark as unread from here", this view stops marking messages read (as Zulip's does)
  // until another narrow is opened.
  const [unreadPausedIn, setUnreadPausedIn] = useState<string | undefined>();
  useMarkAsRead(store, scroller, `${key}:${messages.length}:${newest}`, unreadPausedIn === key);
  const markUnreadFrom = async (from: Message) => {
    const ids = messages.filter((m) => m.id >= from.id).map((m) => m.id);
    setUnreadPausedIn(key);
    await api.post("/messages/flags", { messages: ids, op: "remove", flag: "read" });
  };

  const load = async (direction: "older" | "newer") => {
    const edge = direction === "older" ? messages[0] : messages[messages.length - 1];
    if (!feed || loading !== "" || edge === undefined) return;
    if (direction === "older" ? feed.foundOldest : feed.foundNewest) return;
    setLoading(direction);
    const el = scroller.current;
    if (el && direction === "older") keepOffset.current = el.scrollHeight - el.scrollTop;
    try {
      await fetchMessages(store, narrow, edge.id, direction);
    } catch (err) {
      keepOffset.current = undefined;
      setError(err instanceof ApiError ? err.message : "Cannot load messages.");
    } finally {
      setLoading("");
    }
  };

  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    const fromBottom = el.scrollHeight - el.scrollTop - el.clientHeight;
    stickToBottom.current = (feed?.foundNewest ?? false) && fromBottom < 40;
    if (el.scrollTop < 80) void load("older");
    if (fromBottom < 80) void load("newer");
  };

  // Zulip's narrow links in messages (`/#narrow/stream/3-Denmark/topic/castle`) open in the app.
  const onClick = (e: MouseEvent) => {
    const a = (e.target as Element | null)?.closest?.("a");
    const href = a?.getAttribute("href");
    if (!a || href == null || e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey) return;
    const target = narrowOfLink(href, window.location.origin);
    if (target === undefined) return;
    e.preventDefault();
    go(target);
  };

  const me = store.me.user_id;
  return (
    <div
      class="feed"
      ref={scroller}
      onScroll={onScroll}
      onClick={onClick}
      role="log"
      aria-live="polite"
      aria-label="Message feed"
    >
      {feed?.foundOldest === true && messages.length > 0 && <p class="feed-start">This is the beginning.</p>}
      {loading === "older" && <p class="feed-start">Loading older messages…</p>}
      {feed === undefined && error === "" && <p class="feed-start">Loading…</p>}
      {error !== "" && (
        <p class="error" role="alert">
          {error}{" "}
          {feed === undefined && (
            <button type="button" class="link" onClick={() => setAttempt(attempt + 1)}>
              Retry
            </button>
          )}
        </p>
      )}
      {feed !== undefined && messages.length === 0 && <p class="feed-start">No messages here yet.</p>}
      {messages.map((m, i) => {
        const prev = messages[i - 1];
        const day = dayLabel(m.timestamp);
        const newDay = prev === undefined || dayLabel(prev.timestamp) !== day;
        const showRecipient =
          newDay ||
          prev === undefined ||
          prev.type !== m.type ||
          prev.stream_id !== m.stream_id ||
          prev.subject.toLowerCase() !== m.subject.toLowerCase() ||
          conversationKey(prev, me) !== conversationKey(m, me);
        const continued =
          !showRecipient &&
          prev !== undefined &&
          prev.sender_id === m.sender_id &&
          m.timestamp - prev.timestamp < GROUP_SECONDS;
        return (
          <Fragment key={m.id}>
            {newDay && (
              <div class="date-separator" role="separator" aria-label={day}>
                <span>{day}</span>
              </div>
            )}
            <MessageRow
              store={store}
              m={m}
              showRecipient={showRecipient}
              continued={continued}
              go={go}
              reply={reply}
              markUnreadFrom={markUnreadFrom}
            />
          </Fragment>
        );
      })}
      {loading === "newer" && <p class="feed-start">Loading newer messages…</p>}
      <Typing store={store} narrow={narrow} />
    </div>
  );
}
