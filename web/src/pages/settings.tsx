import { useState } from "preact/hooks";
import { Link } from "wouter-preact";
import { ApiError, api, text } from "../lib/api.js";
import type { ChatStore } from "../lib/chat-store.js";
import { Invitations } from "./invitations.js";
import { useStore } from "./use-store.js";

const message = (err: unknown) => (err instanceof ApiError ? err.message : "Cannot reach the server.");

function Profile({ store }: { store: ChatStore }) {
  const [name, setName] = useState(store.me.full_name);
  const [status, setStatus] = useState("");
  const [error, setError] = useState("");
  const save = async (e: Event) => {
    e.preventDefault();
    setStatus("");
    setError("");
    try {
      await api.patch("/settings", { full_name: name.trim() });
      store.me = { ...store.me, full_name: name.trim() };
      store.changed();
      setStatus("Name saved.");
    } catch (err) {
      setError(message(err));
    }
  };
  return (
    <form class="card" aria-label="Profile" onSubmit={(e) => void save(e)}>
      <h2>Profile</h2>
      <label>
        Full name
        <input required maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} />
      </label>
      <label>
        Email
        <input readOnly value={store.me.email} />
      </label>
      <button type="submit">Save name</button>
      {status !== "" && <p role="status">{status}</p>}
      {error !== "" && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}

function Password() {
  const [oldPassword, setOld] = useState("");
  const [newPassword, setNew] = useState("");
  const [status, setStatus] = useState("");
  const [error, setError] = useState("");
  const save = async (e: Event) => {
    e.preventDefault();
    setStatus("");
    setError("");
    try {
      await api.patch("/settings", { old_password: oldPassword, new_password: newPassword });
      setOld("");
      setNew("");
      setStatus("Password changed.");
    } catch (err) {
      setError(message(err));
    }
  };
  return (
    <form class="card" aria-label="Password" onSubmit={(e) => void save(e)}>
      <h2>Password</h2>
      <label>
        Current password
        <input
          type="password"
          required
          autoComplete="current-password"
          value={oldPassword}
          onInput={(e) => setOld(e.currentTarget.value)}
        />
      </label>
      <label>
        New password
        <input
          type="password"
          required
          autoComplete="new-password"
          value={newPassword}
          onInput={(e) => setNew(e.currentTarget.value)}
        />
      </label>
      <button type="submit">Change password</button>
      {status !== "" && <p role="status">{status}</p>}
      {error !== "" && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}

/**
 * Checkboxes of the user's settings (PATCH /settings): a box moves at once (the store changes
 * first) and moves back, with the server's error, if the change is refused.
 */
function useSettingToggles(
  store: ChatStore,
  saved: string,
  before?: (name: string, value: boolean) => Promise<void>,
) {
  useStore(store);
  const [status, setStatus] = useState("");
  const [error, setError] = useState("");
  const on = (name: string, fallback: boolean) => {
    const v = store.settings[name];
    return typeof v === "boolean" ? v : fallback;
  };
  const save = async (name: string, value: boolean) => {
    setStatus("");
    setError("");
    const previous = store.settings[name];
    store.settings = { ...store.settings, [name]: value };
    store.changed();
    try {
      await before?.(name, value);
      await api.patch("/settings", { [name]: value });
      setStatus(saved);
    } catch (err) {
      store.settings = { ...store.settings, [name]: previous };
      store.changed();
      setError(message(err));
    }
  };
  const toggle = (name: string, label: string, fallback = true) => (
    <label class="check">
      <input
        type="checkbox"
        checked={on(name, fallback)}
        onChange={(e) => void save(name, e.currentTarget.checked)}
      />
      {label}
    </label>
  );
  const feedback = (
    <>
      {status !== "" && <p role="status">{status}</p>}
      {error !== "" && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </>
  );
  return { toggle, feedback };
}

type Permission = NotificationPermission | "unsupported";
const browserPermission = (): Permission =>
  typeof Notification === "undefined" ? "unsupported" : Notification.permission;

/** Notification settings, stored on the server (PATCH /settings); desktop ones need the browser's permission. */
function Notifications({ store }: { store: ChatStore }) {
  const [permission, setPermission] = useState<Permission>(browserPermission);
  const { toggle, feedback } = useSettingToggles(
    store,
    "Notification settings saved.",
    async (name, value) => {
      if (name === "enable_desktop_notifications" && value && permission === "default") {
        setPermission(await Notification.requestPermission());
      }
    },
  );
  return (
    <section class="card" aria-label="Notifications">
      <h2>Notifications</h2>
      {toggle("enable_desktop_notifications", "Desktop notifications for mentions and private messages")}
      {toggle("pm_content_in_desktop_notifications", "Show private message content in desktop notifications")}
      {toggle("wildcard_mentions_notify", "Notify on @all and @everyone mentions")}
      <p class="hint">
        {permission === "granted"
          ? "This browser shows notifications from this site while the tab is in the background."
          : permission === "denied"
            ? "This browser blocks notifications from this site: allow them in its site settings."
            : permission === "unsupported"
              ? "This browser has no desktop notifications."
              : "The browser asks for permission when desktop notifications are turned on."}
      </p>
      {permission === "default" && (
        <button
          type="button"
          class="secondary"
          onClick={() => void Notification.requestPermission().then(setPermission)}
        >
          Allow notifications in this browser
        </button>
      )}
      {feedback}
    </section>
  );
}

/** Display and privacy settings the app and the server act on (PATCH /settings). */
function DisplayAndPrivacy({ store }: { store: ChatStore }) {
  const { toggle, feedback } = useSettingToggles(store, "Settings saved.");
  return (
    <section class="card" aria-label="Display and privacy">
      <h2>Display and privacy</h2>
      {toggle("twenty_four_hour_time", "Show times on a 24-hour clock", false)}
      {toggle("send_stream_typing_notifications", "Let others see when I am typing in a stream", true)}
      {toggle("send_private_typing_notifications", "Let others see when I am typing a private message", true)}
      {toggle("send_read_receipts", "Let others see when I have read their messages", true)}
      {feedback}
    </section>
  );
}

/** The organization's settings, for administrators: what PATCH /realm can change. */
function Organization({ store }: { store: ChatStore }) {
  const [topics, setTopics] = useState(text(store.realm["topics_policy"], "allow_empty_topic"));
  const [name, setName] = useState(store.realmName);
  const [description, setDescription] = useState(text(store.realm["description"]));
  const [status, setStatus] = useState("");
  const [error, setError] = useState("");
  const save = async (changes: Record<string, string>) => {
    setStatus("");
    setError("");
    try {
      await api.patch("/realm", changes);
      store.realm = { ...store.realm, ...changes };
      if (changes["name"] !== undefined) store.realmName = changes["name"].trim();
      store.changed();
      setStatus("Organization settings saved.");
    } catch (err) {
      setError(message(err));
    }
  };
  const saveTopics = (value: string) => {
    setTopics(value);
    void save({ topics_policy: value });
  };
  return (
    <section class="card" aria-label="Organization">
      <h2>Organization</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void save({ name, description });
        }}
      >
        <label>
          Organization name
          <input value={name} maxLength={40} required onInput={(e) => setName(e.currentTarget.value)} />
        </label>
        <label>
          Description
          <textarea
            value={description}
            maxLength={1000}
            rows={3}
            onInput={(e) => setDescription(e.currentTarget.value)}
          />
        </label>
        <button type="submit">Save name and description</button>
      </form>
      <label>
        Messages without a topic
        <select value={topics} onChange={(e) => saveTopics(e.currentTarget.value)}>
          <option value="allow_empty_topic">Allowed (shown as “general chat”)</option>
          <option value="disable_empty_topic">Not allowed: every message needs a topic</option>
        </select>
      </label>
      {status !== "" && <p role="status">{status}</p>}
      {error !== "" && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

/** `/settings`: the signed-in person's own settings, and links to the operator pages. */
export function SettingsPage({ store }: { store: ChatStore }) {
  useStore(store);
  return (
    <div class="page settings">
      <h1>Settings</h1>
      <Profile store={store} />
      <Password />
      <Notifications store={store} />
      <DisplayAndPrivacy store={store} />
      {store.me.is_admin === true && <Organization store={store} />}
      <Invitations store={store} />
      <section class="card" aria-label="More settings">
        <h2>More</h2>
        <ul>
          <li>
            <Link href="/settings/bots">Your bots</Link>
          </li>
          <li>
            <Link href="/integrations">Integrations</Link>
          </li>
        </ul>
      </section>
    </div>
  );
}
