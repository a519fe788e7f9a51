import { useEffect, useState } from "preact/hooks";
import type { ChatStore, Narrow } from "../lib/chat-store.js";
import { Compose } from "./compose.js";
import { Feed } from "./feed.js";
import { useStore } from "./use-store.js";

/** `#narrow/stream/<id>/topic/<topic>` (Zulip's URL shape) ↔ a narrow. */
function parseHash(hash: string): Narrow {
  const parts = hash.replace(/^#/, "").split("/").map(decodeURIComponent);
  if (parts[0] !== "narrow") return {};
  if (parts[1] === "is" && parts[2] === "private") return { private: true };
  if (parts[1] !== "stream" || parts[2] === undefined) return {};
  const streamId = Number(parts[2]);
  if (!Number.isSafeInteger(streamId)) return {};
  return parts[3] === "topic" && parts[4] !== undefined ? { streamId, topic: parts[4] } : { streamId };
}

function narrowHash(n: Narrow): string {
  if (n.private) return "#narrow/is/private";
  if (n.streamId === undefined) return "#";
  const s = `#narrow/stream/${n.streamId}`;
  return n.topic === undefined ? s : `${s}/topic/${encodeURIComponent(n.topic)}`;
}

function Badge({ count, label }: { count: number; label: string }) {
  return count > 0 ? (
    <span class="badge" aria-label={`${count} unread${label}`}>
      {count}
    </span>
  ) : null;
}

function Sidebar({
  store,
  narrow,
  go,
  close,
}: {
  store: ChatStore;
  narrow: Narrow;
  go: (n: Narrow) => void;
  close: () => void;
}) {
  const counts = store.unreadCounts();
  const streams = [...store.subscriptions.values()].sort((a, b) => a.name.localeCompare(b.name));
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
        <li>{link({}, "All messages", counts.total)}</li>
        <li>{link({ private: true }, "Private messages", counts.private)}</li>
      </ul>
      <h2>Streams</h2>
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
                      <li key={t.name}>
                        {link(
                          { streamId: s.stream_id, topic: t.name },
                          t.name === "" ? "(no topic)" : t.name,
                          muted ? 0 : store.topicUnread(counts, s.stream_id, t.name),
                          muted ? " muted" : "",
                        )}
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
  const [narrow, setNarrow] = useState<Narrow>(() => parseHash(window.location.hash));
  const [sidebarOpen, setSidebarOpen] = useState(false);
  useEffect(() => {
    const onHash = () => setNarrow(parseHash(window.location.hash));
    window.addEventListener("hashchange", onHash);
    return () => window.removeEventListener("hashchange", onHash);
  }, []);
  const go = (n: Narrow) => {
    window.history.pushState(null, "", narrowHash(n) === "#" ? "/" : narrowHash(n));
    setNarrow(n);
    setSidebarOpen(false);
  };
  const title = narrow.private
    ? "Private messages"
    : narrow.streamId === undefined
      ? "All messages"
      : `#${store.streamName(narrow.streamId) ?? "?"}${narrow.topic !== undefined ? ` › ${narrow.topic}` : ""}`;
  return (
    <div class={sidebarOpen ? "chat sidebar-open" : "chat"}>
      <Sidebar store={store} narrow={narrow} go={go} close={() => setSidebarOpen(false)} />
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
          <h1>{title}</h1>
        </div>
        <Feed store={store} narrow={narrow} go={go} />
        <Compose store={store} narrow={narrow} />
      </section>
    </div>
  );
}
