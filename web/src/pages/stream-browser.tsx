import { useEffect, useState } from "preact/hooks";
import { ApiError, api } from "../lib/api.js";
import type { ChatStore, Narrow, StreamInfo } from "../lib/chat-store.js";
import { useStore } from "./use-store.js";

const message = (err: unknown) => (err instanceof ApiError ? err.message : "Cannot reach the server.");

async function reloadStreams(store: ChatStore): Promise<void> {
  const res = await api.get("/streams");
  store.loadStreams(res["streams"] as StreamInfo[]);
}

/** Every stream you can see, to join or leave, and a form to create one. */
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
