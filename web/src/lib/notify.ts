/**
 * Desktop notifications (the browser's Notification API) for a new message that mentions you or
 * is a private message, while the tab is hidden. Opt-in twice: the browser's permission (asked
 * from the settings page) and the `enable_desktop_notifications` setting (on by default, as Zulip's).
 */
import type { ChatStore, Message } from "./chat-store.js";
import { narrowHash } from "./narrow-hash.js";
import { conversationKey } from "./chat-store.js";

/** Whether a new message calls for a notification under the user's settings. */
export function wantsNotification(store: ChatStore, m: Message): boolean {
  if (m.sender_id === store.me.user_id) return false;
  if (store.settings["enable_desktop_notifications"] === false) return false;
  if (m.type === "private") return true;
  if (m.flags.includes("mentioned")) return true;
  return m.flags.includes("wildcard_mentioned") && store.settings["wildcard_mentions_notify"] !== false;
}

/** The text of rendered message HTML. */
function plainText(html: string): string {
  const doc = new DOMParser().parseFromString(html, "text/html");
  return (doc.body.textContent ?? "").replace(/\s+/g, " ").trim();
}

export function notifyNewMessage(store: ChatStore, m: Message): void {
  if (typeof Notification === "undefined" || Notification.permission !== "granted") return;
  if (document.visibilityState === "visible") return;
  if (!wantsNotification(store, m)) return;
  const where = m.type === "stream" ? ` (#${store.streamName(m.stream_id ?? 0) ?? ""} > ${m.subject})` : "";
  const showContent = m.type !== "private" || store.settings["pm_content_in_desktop_notifications"] !== false;
  const body = showContent ? plainText(m.content).slice(0, 300) : "New private message";
  const n = new Notification(`${m.sender_full_name}${where}`, { body, tag: String(m.id) });
  n.onclick = () => {
    window.focus();
    const target =
      m.type === "stream" && m.stream_id !== undefined
        ? narrowHash({ streamId: m.stream_id, topic: m.subject })
        : narrowHash({ dm: conversationKey(m, store.me.user_id).split(",").map(Number) });
    window.location.hash = target;
    n.close();
  };
}
