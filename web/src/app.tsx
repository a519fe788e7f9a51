import { useEffect, useState } from "preact/hooks";
import { Link, Route, Switch, useLocation } from "wouter-preact";
import { ApiError, api, setSignedOutHandler } from "./lib/api.js";
import { ChatStore } from "./lib/chat-store.js";
import { EventLoop } from "./lib/event-loop.js";
import type { ServerEvent } from "./lib/event-loop.js";
import { BotsPage } from "./pages/bots.js";
import { ChatPage } from "./pages/chat.js";
import { IntegrationPage } from "./pages/integration.js";
import { IntegrationsPage } from "./pages/integrations.js";
import { LoginPage } from "./pages/login.js";
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
  const loop = new EventLoop({
    register: async () => {
      const state = await api.post("/register", { apply_markdown: true, client_gravatar: false });
      return { queueId: String(state["queue_id"]), lastEventId: Number(state["last_event_id"]), state };
    },
    poll: async (queueId, lastEventId, signal) => {
      const res = await api.get("/events", { queue_id: queueId, last_event_id: lastEventId }, signal);
      return res["events"] as ServerEvent[];
    },
    onRegistered: (r) => store.loadRegister(r.state),
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
  useEffect(() => {
    if (onLogin) return undefined;
    setSignedOutHandler(() => window.location.assign("/login"));
    const loop = startLiveUpdates(store);
    return () => loop.stop();
  }, [onLogin, store]);
  return onLogin ? <LoginPage /> : <Shell store={store} />;
}
