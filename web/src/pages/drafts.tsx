import { useState } from "preact/hooks";
import { ApiError, api } from "../lib/api.js";
import type { ChatStore, Draft } from "../lib/chat-store.js";
import { dayLabel } from "./feed.js";

/** Where a draft goes, as a line: `#Denmark › castle`, `To King Hamlet`, or no recipient yet. */
export function draftRecipient(store: ChatStore, d: Draft): string {
  if (d.type === "stream" && d.to[0] !== undefined)
    return `#${store.streamName(d.to[0]) ?? d.to[0]} › ${d.topic === "" ? "(no topic)" : d.topic}`;
  if (d.type === "private")
    return `To ${d.to.map((id) => store.users.get(id)?.full_name ?? `User ${id}`).join(", ")}`;
  return "No recipient";
}

/** The Drafts view: unsent messages saved on the server, to restore into the compose box or delete. */
export function DraftsView({ store, restore }: { store: ChatStore; restore: (d: Draft) => void }) {
  const [error, setError] = useState("");
  const drafts = [...store.drafts.values()].sort((a, b) => b.timestamp - a.timestamp || b.id - a.id);
  const remove = async (d: Draft) => {
    setError("");
    try {
      await api.delete(`/drafts/${d.id}`);
      store.drafts.delete(d.id);
      store.changed();
    } catch (err) {
      setError(err instanceof ApiError ? err.message : "Cannot delete the draft.");
    }
  };
  return (
    <div class="view drafts" role="region" aria-label="Drafts">
      <p class="hint">Unsent messages are saved here as you type; restore one to go on writing it.</p>
      {error !== "" && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {drafts.length === 0 && <p class="feed-start">No drafts.</p>}
      <ul class="draft-list" aria-label="Drafts">
        {drafts.map((d) => {
          const to = draftRecipient(store, d);
          return (
            <li key={d.id} class="draft" aria-label={`Draft: ${to}`}>
              <div class="meta">
                <strong>{to}</strong>{" "}
                <time dateTime={new Date(d.timestamp * 1000).toISOString()}>{dayLabel(d.timestamp)}</time>
              </div>
              <p class="draft-content">{d.content}</p>
              <div class="draft-actions">
                <button type="button" onClick={() => restore(d)}>
                  Restore draft
                </button>{" "}
                <button type="button" class="secondary" onClick={() => void remove(d)}>
                  Delete draft
                </button>
              </div>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
