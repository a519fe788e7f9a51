import { useEffect, useState } from "preact/hooks";
import { ApiError, api } from "../lib/api.js";
import type { ChatStore, Narrow, StreamInfo } from "../lib/chat-store.js";
import { useStore } from "./use-store.js";

const message = (err: unknown) => (err instanceof ApiError ? err.message : "Cannot reach the server.");

async function reloadStreams(store: ChatStore): Promise<void> {
  const res = await api.get("/streams");
  store.loadStreams(res["streams"] as StreamInfo[]);
}

/** A stream's settings as an administrator edits them. */
interface Editing {
  id: number;
  name: string;
  description: string;
  confirmArchive: boolean;
}

/**
 * Every stream you can see, to join or leave, and a form to create one; administrators also rename,
 * describe and archive streams (PATCH and DELETE /streams/{id}).
 */
export function StreamBrowser({
  store,
  go,
  onClose,
}: {
  store: ChatStore;
  go: (n: Narrow) => void;
  onClose: () => void;
}) {
  useStore(store);
  const [filter, setFilter] = useState("");
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [isPrivate, setPrivate] = useState(false);
  const [error, setError] = useState("");
  const [status, setStatus] = useState("");
  const [editing, setEditing] = useState<Editing | undefined>();
  const admin = store.me.is_admin === true;
  useEffect(() => void reloadStreams(store).catch(() => undefined), [store]);
  const run = async (work: () => Promise<unknown>, done: string) => {
    setError("");
    setStatus("");
    try {
      await work();
      await reloadStreams(store);
      setStatus(done);
    } catch (err) {
      setError(message(err));
    }
  };
  const join = (s: StreamInfo) =>
    run(
      () => api.post("/users/me/subscriptions", { subscriptions: [{ name: s.name }] }),
      `Joined #${s.name}.`,
    );
  const leave = (s: StreamInfo) =>
    run(() => api.delete("/users/me/subscriptions", { subscriptions: [s.name] }), `Left #${s.name}.`);
  const create = (e: Event) => {
    e.preventDefault();
    const n = name.trim();
    void run(
      () =>
        api.post("/users/me/subscriptions", {
          subscriptions: [{ name: n, description: description.trim() }],
          invite_only: isPrivate,
        }),
      `Created #${n}.`,
    ).then(() => {
      setName("");
      setDescription("");
    });
  };
  const save = (e: Event) => {
    e.preventDefault();
    if (!editing) return;
    const before = store.streams.get(editing.id);
    const changes: Record<string, string> = {};
    const newName = editing.name.trim();
    if (newName !== before?.name) changes["new_name"] = newName;
    if (editing.description !== (before?.description ?? "")) changes["description"] = editing.description;
    void run(() => api.patch(`/streams/${editing.id}`, changes), `Saved #${newName}.`).then(() =>
      setEditing(undefined),
    );
  };
  const archive = (s: StreamInfo) =>
    void run(() => api.delete(`/streams/${s.stream_id}`), `Archived #${s.name}.`).then(() =>
      setEditing(undefined),
    );
  const q = filter.trim().toLowerCase();
  const streams = [...store.streams.values()]
    .filter((s) => q === "" || s.name.toLowerCase().includes(q))
    .sort((a, b) => a.name.localeCompare(b.name));
  return (
    <div
      class="dialog-backdrop"
      onKeyDown={(e) => {
        if (e.key === "Escape") onClose();
      }}
    >
      <section class="dialog card" role="dialog" aria-modal="true" aria-label="Streams">
        <div class="page-head">
          <h2>Streams</h2>
          <button type="button" class="secondary" onClick={onClose}>
            Close
          </button>
        </div>
        <label>
          Filter streams
          <input type="search" value={filter} onInput={(e) => setFilter(e.currentTarget.value)} />
        </label>
        <ul class="stream-list" aria-label="All streams">
          {streams.map((s) => {
            const joined = store.subscriptions.has(s.stream_id);
            return (
              <li key={s.stream_id} aria-label={s.name}>
                <a
                  href={`#narrow/stream/${s.stream_id}`}
                  onClick={(e) => {
                    e.preventDefault();
                    onClose();
                    go({ streamId: s.stream_id });
                  }}
                >
                  #{s.name}
                </a>
                {s.invite_only === true && <span class="tag">private</span>}
                {s.description !== undefined && s.description !== "" && (
                  <span class="meta"> {s.description}</span>
                )}
                <button
                  type="button"
                  class="secondary"
                  onClick={() => void (joined ? leave(s) : join(s))}
                  aria-label={`${joined ? "Leave" : "Join"} ${s.name}`}
                >
                  {joined ? "Leave" : "Join"}
                </button>
                {admin && (
                  <button
                    type="button"
                    class="secondary"
                    aria-expanded={editing?.id === s.stream_id}
                    aria-label={`Settings of ${s.name}`}
                    onClick={() =>
                      setEditing(
                        editing?.id === s.stream_id
                          ? undefined
                          : {
                              id: s.stream_id,
                              name: s.name,
                              description: s.description ?? "",
                              confirmArchive: false,
                            },
                      )
                    }
                  >
                    Settings
                  </button>
                )}
                {editing?.id === s.stream_id && (
                  <form
                    class="inline-form wrap stream-settings"
                    aria-label={`Settings of ${s.name}`}
                    onSubmit={save}
                  >
                    <label class="grow">
                      Name
                      <input
                        required
                        maxLength={60}
                        value={editing.name}
                        onInput={(e) => setEditing({ ...editing, name: e.currentTarget.value })}
                      />
                    </label>
                    <label class="grow">
                      Description
                      <input
                        value={editing.description}
                        onInput={(e) => setEditing({ ...editing, description: e.currentTarget.value })}
                      />
                    </label>
                    <button type="submit">Save</button>
                    {editing.confirmArchive ? (
                      <>
                        <button type="button" class="danger" onClick={() => archive(s)}>
                          Archive #{s.name}: everyone is unsubscribed
                        </button>
                        <button
                          type="button"
                          class="secondary"
                          onClick={() => setEditing({ ...editing, confirmArchive: false })}
                        >
                          Keep it
                        </button>
                      </>
                    ) : (
                      <button
                        type="button"
                        class="secondary"
                        onClick={() => setEditing({ ...editing, confirmArchive: true })}
                      >
                        Archive…
                      </button>
                    )}
                  </form>
                )}
              </li>
            );
          })}
        </ul>
        <form class="inline-form wrap" aria-label="Create a stream" onSubmit={create}>
          <label class="grow">
            New stream name
            <input required maxLength={60} value={name} onInput={(e) => setName(e.currentTarget.value)} />
          </label>
          <label class="grow">
            Description
            <input value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
          </label>
          <label class="check">
            <input
              type="checkbox"
              checked={isPrivate}
              onChange={(e) => setPrivate(e.currentTarget.checked)}
            />
            Private
          </label>
          <button type="submit">Create stream</button>
        </form>
        {status !== "" && <p role="status">{status}</p>}
        {error !== "" && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
      </section>
    </div>
  );
}
