import { useEffect, useState } from "preact/hooks";
import { ApiError, api } from "../lib/api.js";

/** One delivery-log entry as `GET /bots/{id}/deliveries` answers it (docs/integration-operations.md). */
export interface Delivery {
  id: number;
  bot_id: number;
  timestamp: number;
  direction: "incoming" | "outgoing";
  integration: string;
  event: string | null;
  request: {
    method: string;
    url: string;
    headers: Record<string, string>;
    body: string;
    form?: Record<string, string>;
    body_truncated: boolean;
  };
  response: { status: number | null; body: string | null };
  outcome: string;
  message_ids: number[];
  attempts: number;
  error: string | null;
  replay_of: number | null;
}

export const OUTCOMES = ["sent", "ignored", "rejected", "failed", "retrying", "delivered"] as const;
const PAGE = 20;

const message = (err: unknown) => (err instanceof ApiError ? err.message : "Cannot reach the server.");

function when(timestamp: number): string {
  return new Date(timestamp * 1000).toLocaleString();
}

/** JSON shown indented; anything else as it is. */
function pretty(text: string | null): string {
  if (text === null) return "(none)";
  if (text === "") return "(empty)";
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function OutcomeBadge({ outcome }: { outcome: string }) {
  return <span class={`outcome outcome-${outcome}`}>{outcome}</span>;
}

function Detail({ delivery: d, onReplayed }: { delivery: Delivery; onReplayed: (entry: Delivery) => void }) {
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState("");
  const [error, setError] = useState("");
  const replay = async () => {
    setBusy(true);
    setStatus("");
    setError("");
    try {
      const res = await api.post(`/bots/${d.bot_id}/deliveries/${d.id}/replay`);
      const entry = res["delivery"] as Delivery;
      setStatus(`Replayed as #${entry.id}: ${entry.outcome}.`);
      onReplayed(entry);
    } catch (err) {
      setError(message(err));
    } finally {
      setBusy(false);
    }
  };
  const replayable = !d.request.body_truncated && d.event !== "handshake";
  return (
    <section class="delivery-detail" aria-label={`Delivery ${d.id}`}>
      <dl>
        <dt>Outcome</dt>
        <dd>
          <OutcomeBadge outcome={d.outcome} />
          {d.attempts > 1 && ` (attempt ${d.attempts})`}
        </dd>
        {d.error !== null && (
          <>
            <dt>Error</dt>
            <dd>{d.error}</dd>
          </>
        )}
        {d.message_ids.length > 0 && (
          <>
            <dt>Messages</dt>
            <dd>{d.message_ids.join(", ")}</dd>
          </>
        )}
        {d.replay_of !== null && (
          <>
            <dt>Replay of</dt>
            <dd>#{d.replay_of}</dd>
          </>
        )}
      </dl>
      <h4>Request</h4>
      <p class="mono wrap">
        {d.request.method} {d.request.url}
      </p>
      <pre aria-label="Request headers">
        {Object.entries(d.request.headers)
          .map(([k, v]) => `${k}: ${v}`)
          .join("\n")}
      </pre>
      <pre aria-label="Request body">{pretty(d.request.body)}</pre>
      {d.request.body_truncated && <p class="meta">The body was cut: it is longer than the log keeps.</p>}
      <h4>Response</h4>
      <p class="mono">{d.response.status === null ? "No answer" : `HTTP ${d.response.status}`}</p>
      <pre aria-label="Response body">{pretty(d.response.body)}</pre>
      <div class="actions">
        <button type="button" disabled={busy || !replayable} onClick={() => void replay()}>
          Replay
        </button>
        {!replayable && (
          <span class="meta">
            {d.request.body_truncated
              ? "A cut body cannot be replayed."
              : "A set-up request cannot be replayed."}
          </span>
        )}
      </div>
      {status !== "" && <p role="status">{status}</p>}
      {error !== "" && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

/** A bot's recent deliveries: filters by direction and outcome, paging, details and Replay. */
export function DeliveriesPanel({ botId }: { botId: number }) {
  const [direction, setDirection] = useState("");
  const [outcome, setOutcome] = useState("");
  const [entries, setEntries] = useState<Delivery[] | undefined>();
  const [foundOldest, setFoundOldest] = useState(false);
  const [open, setOpen] = useState<number | undefined>();
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);

  const load = async (anchor: number | undefined, previous: Delivery[]) => {
    setBusy(true);
    setError("");
    try {
      const res = await api.get(`/bots/${botId}/deliveries`, {
        num: PAGE,
        ...(anchor === undefined ? {} : { anchor }),
        ...(direction === "" ? {} : { direction }),
        ...(outcome === "" ? {} : { outcome }),
      });
      setEntries([...previous, ...(res["deliveries"] as Delivery[])]);
      setFoundOldest(res["found_oldest"] === true);
    } catch (err) {
      setError(message(err));
    } finally {
      setBusy(false);
    }
  };
  useEffect(() => {
    setOpen(undefined);
    setEntries(undefined);
    void load(undefined, []);
    // Reloaded when a filter changes (load reads them).
  }, [botId, direction, outcome]);

  const last = entries?.[entries.length - 1];
  return (
    <section class="deliveries" aria-label="Deliveries">
      <div class="filters">
        <label>
          Direction
          <select
            aria-label="Direction"
            value={direction}
            onChange={(e) => setDirection(e.currentTarget.value)}
          >
            <option value="">All</option>
            <option value="incoming">Incoming</option>
            <option value="outgoing">Outgoing</option>
          </select>
        </label>
        <label>
          Outcome
          <select aria-label="Outcome" value={outcome} onChange={(e) => setOutcome(e.currentTarget.value)}>
            <option value="">All</option>
            {OUTCOMES.map((o) => (
              <option key={o} value={o}>
                {o}
              </option>
            ))}
          </select>
        </label>
        <button type="button" class="secondary" disabled={busy} onClick={() => void load(undefined, [])}>
          Refresh
        </button>
      </div>
      {error !== "" && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {entries === undefined && error === "" && <p role="status">Loading…</p>}
      {entries !== undefined && entries.length === 0 && <p>No deliveries yet.</p>}
      <ul class="delivery-list">
        {entries?.map((d) => (
          <li key={d.id} class={open === d.id ? "open" : ""}>
            <button
              type="button"
              class="delivery-row"
              aria-expanded={open === d.id}
              aria-label={`Delivery ${d.id}: ${d.direction} ${d.event ?? d.integration}, ${d.outcome}`}
              onClick={() => setOpen(open === d.id ? undefined : d.id)}
            >
              <span class="id">#{d.id}</span>
              <OutcomeBadge outcome={d.outcome} />
              <span class="what">
                {d.direction === "incoming" ? "→" : "←"} {d.integration}
                {d.event !== null && ` · ${d.event}`}
              </span>
              <span class="status">{d.response.status ?? "—"}</span>
              <time class="meta" dateTime={new Date(d.timestamp * 1000).toISOString()}>
                {when(d.timestamp)}
              </time>
            </button>
            {open === d.id && (
              <Detail
                delivery={d}
                onReplayed={(entry) => {
                  // The replay is the newest entry: shown on top when it passes the filters.
                  const shown =
                    (direction === "" || entry.direction === direction) &&
                    (outcome === "" || entry.outcome === outcome);
                  if (shown) setEntries((list) => [entry, ...(list ?? [])]);
                }}
              />
            )}
          </li>
        ))}
      </ul>
      {entries !== undefined && entries.length > 0 && !foundOldest && last !== undefined && (
        <button type="button" class="secondary" disabled={busy} onClick={() => void load(last.id, entries)}>
          Older deliveries
        </button>
      )}
    </section>
  );
}
