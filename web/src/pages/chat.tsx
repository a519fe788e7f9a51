import { useEffect, useState } from "preact/hooks";
import { api } from "../lib/api.js";
import type { ChatStore, Draft, Message, Narrow } from "../lib/chat-store.js";
import { narrowHash, parseNarrowHash } from "../lib/narrow-hash.js";
import { Compose } from "./compose.js";
import { DraftsView } from "./drafts.js";
import { RecentView } from "./recent.js";
import { Feed } from "./feed.js";
import { ShortcutsDialog } from "./shortcuts.js";
import { StreamBrowser } from "./stream-browser.js";
import { useStore } from "./use-store.js";

/** The narrow of a hash; a private conversation is named by the other people's ids, sorted. */
function parseHash(hash: string, myId: number): Narrow {
  const n = parseNarrowHash(hash) ?? {};
  if (n.dm !== undefined) {
    const others = n.dm.filter((id) => id !== myId);
    n.dm = (others.length === 0 ? [myId] : others).sort((a, b) => a - b);
  }
  return n;
}

/** The oldest unread topic (not muted) other than the open one: where `n` goes. */
function nextUnreadTopic(store: ChatStore, narrow: Narrow): Narrow | undefined {
  const ids = [...store.unread.keys()].sort((a, b) => a - b);
  for (const id of ids) {
    const key = store.unread.get(id);
    if (key?.streamId === undefined || store.isMuted(key.streamId, key.topic ?? "")) continue;
    const here = narrow.streamId === key.streamId && narrow.topic?.toLowerCase() === key.topic?.toLowerCase();
    if (!here) return { streamId: key.streamId, topic: key.topic ?? "" };
  }
  return undefined;
}

/** The view's name, as the heading and the tab title give it. */
export function viewTitle(store: ChatStore, narrow: Narrow): string {
  if (narrow.view === "recent") return "Recent conversations";
  if (narrow.view === "drafts") return "Drafts";
  if (narrow.search !== undefined) return `Search: ${narrow.search}`;
  if (narrow.dm !== undefined)
    return `Private with ${narrow.dm.map((id) => store.users.get(id)?.full_name ?? `User ${id}`).join(", ")}`;
  if (narrow.is === "mentioned") return "Mentions";
  if (narrow.is === "starred") return "Starred messages";
  if (narrow.private) return "Private messages";
  if (narrow.streamId === undefined) return "All messages";
  const stream = `#${store.streamName(narrow.streamId) ?? narrow.streamId}`;
  return narrow.topic !== undefined ? `${stream} › ${narrow.topic}` : stream;
}

function Badge({ count, label }: { count: number; label: string }) {
  return count > 0 ? (
    <span class="badge" aria-label={`${count} unread${label}`}>
      {count}
    </span>
  ) : null;
}

/** The realm's people, active first, each with a presence dot. */
function People({ store }: { store: ChatStore }) {
  const now = Date.now() / 1000;
  const rank = { active: 0, idle: 1, offline: 2 } as const;
  const people = [...store.users.values()]
    .filter((u) => !u.is_bot)
    .map((u) => ({ u, state: store.presenceOf(u.user_id, now) }))
    .sort((a, b) => rank[a.state] - rank[b.state] || a.u.full_name.localeCompare(b.u.full_name));
  return (
    <details class="people" open>
      <summary>People</summary>
      <ul aria-label="People">
        {people.map(({ u, state }) => (
          <li key={u.user_id} class={`person ${state}`}>
            <span class={`dot ${state}`} role="img" aria-label={state} />
            {u.full_name}
            {u.user_id === store.me.user_id ? " (you)" : ""}
          </li>
        ))}
      </ul>
    </details>
  );
}

function Sidebar({
  store,
  narrow,
  go,
  close,
  browse,
}: {
  store: ChatStore;
  narrow: Narrow;
  go: (n: Narrow) => void;
  close: () => void;
  browse: () => void;
}) {
  const counts = store.unreadCounts();
  const streams = [...store.subscriptions.values()].sort((a, b) => a.name.localeCompare(b.name));
  const setMuted = async (streamId: number, topic: string, muted: boolean) => {
    await api
      .patch("/users/me/subscriptions/muted_topics", {
        stream_id: streamId,
        topic,
        op: muted ? "add" : "remove",
      })
      .catch(() => undefined);
  };
  const link = (n: Narrow, label: string, count: number, extra = "") => (
    <a
      href={narrowHash(n)}
      class={"side-link" + extra}
      aria-current={narrowHash(n) === narrowHash(narrow) ? "page" : undefined}
      onClick={(e) => {
        e.preventDefault();
        go(n);
      }}
    >
      <span class="side-name">{label}</span>
      <Badge count={count} label="" />
    </a>
  );
  return (
    <nav class="sidebar" aria-label="Streams">
      <button type="button" class="sidebar-close secondary" onClick={close}>
        Close
      </button>
      <ul>
        <li>{link({ view: "recent" }, "Recent conversations", 0)}</li>
        <li>{link({}, "All messages", counts.total)}</li>
        <li>{link({ private: true }, "Private messages", counts.private)}</li>
        <li>{link({ is: "mentioned" }, "Mentions", 0)}</li>
        <li>{link({ is: "starred" }, "Starred messages", 0)}</li>
        <li>
          {link({ view: "drafts" }, store.drafts.size > 0 ? `Drafts (${store.drafts.size})` : "Drafts", 0)}
        </li>
      </ul>
      <People store={store} />
      <h2>Streams</h2>
      <button type="button" class="link browse-streams" onClick={browse}>
        Browse streams
      </button>
      <ul>
        {streams.map((s) => {
          const topics = [...(store.topics.get(s.stream_id)?.values() ?? [])].sort(
            (a, b) => b.maxId - a.maxId,
          );
          const open = narrow.streamId === s.stream_id;
          return (
            <li key={s.stream_id}>
              {link({ streamId: s.stream_id }, `#${s.name}`, counts.byStream.get(s.stream_id) ?? 0)}
              {open && topics.length > 0 && (
                <ul class="topics" aria-label={`Topics in ${s.name}`}>
                  {topics.slice(0, 30).map((t) => {
                    const muted = store.isMuted(s.stream_id, t.name);
                    return (
                      <li key={t.name} class="topic-row">
                        {link(
                          { streamId: s.stream_id, topic: t.name },
                          t.name === "" ? "(no topic)" : t.name,
                          muted ? 0 : store.topicUnread(counts, s.stream_id, t.name),
                          muted ? " muted" : "",
                        )}
                        <button
                          type="button"
                          class="link mute-toggle"
                          aria-label={`${muted ? "Unmute" : "Mute"} topic ${t.name}`}
                          title={muted ? "Unmute topic" : "Mute topic"}
                          onClick={() => void setMuted(s.stream_id, t.name, !muted)}
                        >
                          {muted ? "Unmute" : "Mute"}
                        </button>
                      </li>
                    );
                  })}
                </ul>
              )}
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

export function ChatPage({ store }: { store: ChatStore }) {
  useStore(store);
  const [narrow, setNarrow] = useState<Narrow>(() => parseHash(window.location.hash, store.me.user_id));
  const [restoring, setRestoring] = useState<{ draft: Draft; nonce: number } | undefined>();
  const [sidebarOpen, setSidebarOpen] = useState(false);
  const [browsing, setBrowsing] = useState(false);
  const [helping, setHelping] = useState(false);
  const [query, setQuery] = useState(narrow.search ?? "");
  const [reply, setReply] = useState<{ m: Message; quote: boolean; nonce: number } | undefined>();
  const replyTo = (m: Message, quote: boolean) => setReply({ m, quote, nonce: Date.now() });
  useEffect(() => setQuery(narrow.search ?? ""), [narrow.search]);
  // Zulip's keyboard shortcuts (`?` lists them), outside text fields.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
      const target = e.target as HTMLElement | null;
      const typing = target !== null && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName);
      if (e.key === "Escape") {
        if (typing) target.blur();
        setHelping(false);
        setBrowsing(false);
        return;
      }
      if (typing || document.querySelector("[role=dialog]") !== null) return;
      const articles = [...document.querySelectorAll<HTMLElement>("article.msg")];
      const current = (document.activeElement as HTMLElement | null)?.closest<HTMLElement>("article.msg");
      const selected = current ?? undefined;
      const handled = (() => {
        switch (e.key) {
          case "/":
            document.getElementById("search-box")?.focus();
            return true;
          case "?":
            setHelping(true);
            return true;
          case "c":
            document.getElementById("compose-message")?.focus();
            return true;
          case "j":
          case "k": {
            const i = selected ? articles.indexOf(selected) : e.key === "j" ? -1 : articles.length;
            const next = articles[i + (e.key === "j" ? 1 : -1)];
            next?.focus();
            next?.scrollIntoView({ block: "nearest" });
            return next !== undefined;
          }
          case "r": {
            const m = selected && store.messages.get(Number(selected.dataset["messageId"]));
            if (m) replyTo(m, false);
            return m !== undefined;
          }
          case "t":
            go({ view: "recent" });
            return true;
          case "d":
            go({ view: "drafts" });
            return true;
          case "n": {
            const next = nextUnreadTopic(store, narrow);
            if (next) go(next);
            return next !== undefined;
          }
          default:
            return false;
        }
      })();
      if (handled) e.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  });
  useEffect(() => {
    const onHash = () => {
      const next = parseHash(window.location.hash, store.me.user_id);
      setNarrow((shown) => (narrowHash(shown) === narrowHash(next) ? shown : next));
    };
    window.addEventListener("hashchange", onHash);
    // The hash may have changed between the first render (which read it) and this listener.
    onHash();
    return () => window.removeEventListener("hashchange", onHash);
  }, []);
  const go = (n: Narrow) => {
    window.history.pushState(null, "", narrowHash(n) === "#" ? "/" : narrowHash(n));
    setNarrow(n);
    setSidebarOpen(false);
  };
  const title = viewTitle(store, narrow);
  // A stream's description under its name (not in a topic: the topic is the subject there).
  const description =
    narrow.streamId !== undefined && narrow.topic === undefined
      ? (store.subscriptions.get(narrow.streamId)?.description ??
        store.streams.get(narrow.streamId)?.description ??
        "")
      : "";
  const unread = store.unreadCounts().total;
  useEffect(() => {
    const name = `${title.replace(" › ", " > ")} - ${store.realmName || "Chat"}`;
    document.title = unread > 0 ? `(${unread}) ${name}` : name;
  }, [title, unread, store.realmName]);
  // The sidebar lists every topic of the open stream (GET /users/me/{id}/topics), not only loaded ones.
  useEffect(() => {
    if (narrow.streamId === undefined) return;
    const id = narrow.streamId;
    api
      .get(`/users/me/${id}/topics`)
      .then((res) => store.loadTopics(id, res["topics"] as { name: string; max_id: number }[]))
      .catch(() => undefined);
  }, [narrow.streamId, store]);
  return (
    <div class={sidebarOpen ? "chat sidebar-open" : "chat"}>
      <Sidebar
        store={store}
        narrow={narrow}
        go={go}
        close={() => setSidebarOpen(false)}
        browse={() => {
          setSidebarOpen(false);
          setBrowsing(true);
        }}
      />
      <section class="conversation" aria-label="Messages">
        <div class="conversation-head">
          <button
            type="button"
            class="sidebar-toggle secondary"
            aria-expanded={sidebarOpen}
            onClick={() => setSidebarOpen(!sidebarOpen)}
          >
            Streams
          </button>
          <div class="conversation-title">
            <h1>{title}</h1>
            {description !== "" && <p class="meta stream-description">{description}</p>}
          </div>
          <form
            role="search"
            class="search-form"
            onSubmit={(e) => {
              e.preventDefault();
              const q = query.trim();
              go(q === "" ? {} : { search: q });
            }}
          >
            <input
              id="search-box"
              type="search"
              aria-label="Search messages"
              placeholder="Search (stream: topic: sender: has: is:)"
              value={query}
              onInput={(e) => setQuery(e.currentTarget.value)}
            />
          </form>
          <button type="button" class="link" aria-label="Keyboard shortcuts" onClick={() => setHelping(true)}>
            ?
          </button>
        </div>
        {narrow.view === "recent" ? (
          <RecentView store={store} go={go} />
        ) : narrow.view === "drafts" ? (
          <DraftsView store={store} restore={(draft) => setRestoring({ draft, nonce: Date.now() })} />
        ) : (
          <Feed store={store} narrow={narrow} go={go} reply={replyTo} />
        )}
        <Compose store={store} narrow={narrow} reply={reply} restore={restoring} />
      </section>
      {browsing && <StreamBrowser store={store} go={go} onClose={() => setBrowsing(false)} />}
      {helping && <ShortcutsDialog onClose={() => setHelping(false)} />}
    </div>
  );
}
