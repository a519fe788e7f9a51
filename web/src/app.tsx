import { useEffect, useState } from "preact/hooks";
import { Link, Route, Switch, useLocation } from "wouter-preact";
import { ApiError, api, setSignedOutHandler } from "./lib/api.js";
import { ChatStore } from "./lib/chat-store.js";
import type { StreamInfo } from "./lib/chat-store.js";
import { EventLoop } from "./lib/event-loop.js";
import { notifyNewMessage } from "./lib/notify.js";
import type { ServerEvent } from "./lib/event-loop.js";
import { BotsPage } from "./pages/bots.js";
import { ChatPage } from "./pages/chat.js";
import { IntegrationPage } from "./pages/integration.js";
import { IntegrationsPage } from "./pages/integrations.js";
import { JoinPage } from "./pages/join.js";
import { LoginPage } from "./pages/login.js";
import { SettingsPage } from "./pages/settings.js";
import { useStore } from "./pages/use-store.js";

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(t);
      resolve();
    });
  });
}

/** One store and one event loop for the signed-in app. */
function startLiveUpdates(store: ChatStore): EventLoop {
  store.onNewMessage = (m) => notifyNewMessage(store, m);
  const loop = new EventLoop({
    register: async () => {
      const state = await api.post("/register", {
        apply_markdown: true,
        client_gravatar: false,
        // Typing notices in streams reach only queues that ask for them.
        client_capabilities: { stream_typing_notifications: true },
      });
      return { queueId: String(state["queue_id"]), lastEventId: Number(state["last_event_id"]), state };
    },
    poll: async (queueId, lastEventId, signal) => {
      const res = await api.get("/events", { queue_id: queueId, last_event_id: lastEventId }, signal);
      return res["events"] as ServerEvent[];
    },
    onRegistered: (r) => {
      store.loadRegister(r.state);
      // Names of streams this user is not subscribed to (a link or URL may open one).
      api
        .get("/streams")
        .then((res) => store.loadStreams(res["streams"] as StreamInfo[]))
        .catch(() => undefined);
    },
    onEvents: (events) => store.applyEvents(events),
    onConnectionChange: (down) => {
      store.connectionDown = down;
      store.changed();
    },
    sleep,
    isBadQueue: (err) => err instanceof ApiError && err.code === "BAD_EVENT_QUEUE_ID",
  });
  void loop.start();
  return loop;
}

function Shell({ store }: { store: ChatStore }) {
  useStore(store);
  const [menuOpen, setMenuOpen] = useState(false);
  const [location] = useLocation();
  const logOut = async () => {
    try {
      await api.logout();
    } finally {
      window.location.assign("/login");
    }
  };
  const ready = store.me.user_id !== 0;
  return (
    <div class="shell">
      <header class="topbar">
        <Link href="/" class="brand">
          {store.realmName || "Chat"}
        </Link>
        <button
          type="button"
          class="menu-toggle"
          aria-expanded={menuOpen}
          aria-controls="main-nav"
          onClick={() => setMenuOpen(!menuOpen)}
        >
          Menu
        </button>
        <nav id="main-nav" class={menuOpen ? "nav open" : "nav"} aria-label="Main">
          <Link
            href="/"
            aria-current={location === "/" ? "page" : undefined}
            onClick={() => setMenuOpen(false)}
          >
            Chat
          </Link>
          <Link
            href="/settings"
            aria-current={location === "/settings" ? "page" : undefined}
            onClick={() => setMenuOpen(false)}
          >
            Settings
          </Link>
          <Link
            href="/settings/bots"
            aria-current={location === "/settings/bots" ? "page" : undefined}
            onClick={() => setMenuOpen(false)}
          >
            Your bots
          </Link>
          <Link
            href="/integrations"
            aria-current={location.startsWith("/integrations") ? "page" : undefined}
            onClick={() => setMenuOpen(false)}
          >
            Integrations
          </Link>
          <span class="me" title={store.me.email}>
            {store.me.full_name}
          </span>
          <button type="button" class="secondary" onClick={() => void logOut()}>
            Log out
          </button>
        </nav>
      </header>
      {store.connectionDown && (
        <p class="banner" role="status">
          Connection lost. Reconnecting…
        </p>
      )}
      <main class="main">
        {!ready ? (
          <p class="loading" role="status">
            Loading…
          </p>
        ) : (
          <Switch>
            <Route path="/settings">
              <SettingsPage store={store} />
            </Route>
            <Route path="/settings/bots">
              <BotsPage />
            </Route>
            <Route path="/integrations">
              <IntegrationsPage />
            </Route>
            <Route path="/integrations/:name">
              {(params) => <IntegrationPage store={store} name={params.name} />}
            </Route>
            <Route>
              <ChatPage store={store} />
            </Route>
          </Switch>
        )}
      </main>
    </div>
  );
}

export function App() {
  const [location] = useLocation();
  const [store] = useState(() => new ChatStore());
  const onLogin = location === "/login";
  const joining = /^\/join\/([^/]+)\/?$/.exec(location)?.[1];
  useEffect(() => {
    if (onLogin || joining !== undefined) return undefined;
    setSignedOutHandler(() => window.location.assign("/login"));
    const loop = startLiveUpdates(store);
    // Presence: say we are here now and every minute; the answer has everyone's.
    const here = () =>
      api
        .post("/users/me/presence", { status: "active", new_user_input: true })
        .then((res) => {
          store.loadPresences(res["presences"]);
          store.changed();
        })
        .catch(() => undefined);
    void here();
    const presenceTimer = setInterval(() => void here(), 60_000);
    // Back online, or back in the window: try the server now rather than at the end of a back-off.
    const wake = () => loop.wake();
    window.addEventListener("online", wake);
    window.addEventListener("focus", wake);
    return () => {
      window.removeEventListener("online", wake);
      window.removeEventListener("focus", wake);
      clearInterval(presenceTimer);
      loop.stop();
    };
  }, [onLogin, joining, store]);
  if (joining !== undefined) return <JoinPage inviteKey={decodeURIComponent(joining)} />;
  return onLogin ? <LoginPage /> : <Shell store={store} />;
}
