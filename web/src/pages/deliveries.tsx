import { useEffect, useState } from "preact/hooks";
import { ApiError, api } from "../lib/api.js";
import { DeadLettersPanel } from "./dead-letters.js";

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
  /** The old credential the request used during a rotation's overlap, or null. */
  old_credential: "api_key" | "token" | "signing_secret" | null;
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

const OLD_CREDENTIAL = {
  api_key: "old API key",
  token: "old token",
  signing_secret: "old signing secret",
} as const;

const OLD_CREDENTIAL_TITLE = {
  api_key: "Authenticated with the bot's old API key, still valid during the rotation's overlap",
  token: "Sent with the bot's old outgoing token, still used during the rotation's overlap",
  signing_secret: "Signed with the bot's old signing secret too, still valid during the rotation's overlap",
} as const;

/** Marks a request that used an old credential during a rotation's overlap (amber, as a warning). */
function OldCredentialBadge({ credential }: { credential: Delivery["old_credential"] }) {
  if (credential === null || credential === undefined) return null;
  return (
    <span class="outcome outcome-retrying old-credential" title={OLD_CREDENTIAL_TITLE[credential]}>
      {OLD_CREDENTIAL[credential]}
    </span>
  );
}

/** A dry-run replay's answer (POST …/replay with dry_run=true; docs/integration-operations.md). */
interface DryRun {
  delivery_id?: number;
  event?: string | null;
  topic: string | null;
  content: string | null;
  error: string | null;
  posted: { topic: string; content: string } | null;
  changed: boolean;
}

/** Lines of `a` not in `b`, and of `b` not in `a`: a line diff good enough for a message. */
function lineDiff(then: string, now: string): { line: string; kind: "removed" | "added" | "same" }[] {
  const before = then.split("\n");
  const after = now.split("\n");
  const kept = new Set(after);
  const had = new Set(before);
  return [
    ...before.filter((l) => !kept.has(l)).map((line) => ({ line, kind: "removed" as const })),
    ...after.map((line) => ({ line, kind: had.has(line) ? ("same" as const) : ("added" as const) })),
  ];
}

/** What today's code would post for an incoming delivery, beside what was posted then. */
function DryRunView({ run }: { run: DryRun }) {
  const then = run.posted === null ? "" : `${run.posted.topic}\n${run.posted.content}`;
  const now = run.content === null ? "" : `${run.topic ?? ""}\n${run.content}`;
  return (
    <section class="dry-run" aria-label="Dry run">
      <p role="status">
        {run.error !== null
          ? `Today's code would answer: ${run.error}`
          : run.changed
            ? "Today's code would post this differently."
            : "Today's code would post the same."}
      </p>
      <pre aria-label="Dry-run diff">
        {lineDiff(then, now).map((d, i) => (
          <span key={i} class={`diff-${d.kind}`}>
            {d.kind === "removed" ? "- " : d.kind === "added" ? "+ " : "  "}
            {d.line}
            {"\n"}
          </span>
        ))}
      </pre>
    </section>
  );
}

/** The bulk dry run's answer (POST …/deliveries/dry_run). */
interface BulkDryRun {
  dry_runs: DryRun[];
  changed: number;
}

/**
 * "Run a changed integration over the last N deliveries of a bot and list the ones whose output
 * changes": today's code (or a draft template) over the bot's last incoming deliveries, posting
 * nothing; each delivery whose message would change, with its diff.
 */
function BulkDryRunPanel({ botId, template }: { botId: number; template: boolean }) {
  const [num, setNum] = useState("50");
  const [draftTopic, setDraftTopic] = useState("");
  const [draftBody, setDraftBody] = useState("");
  const [result, setResult] = useState<BulkDryRun | undefined>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const run = async () => {
    setBusy(true);
    setError("");
    try {
      const params: Record<string, string | number> = { num: Number(num) };
      if (template && draftTopic.trim() !== "") params["template_topic"] = draftTopic;
      if (template && draftBody.trim() !== "") params["template_body"] = draftBody;
      setResult((await api.post(`/bots/${botId}/deliveries/dry_run`, params)) as unknown as BulkDryRun);
    } catch (err) {
      setResult(undefined);
      setError(message(err));
    } finally {
      setBusy(false);
    }
  };
  const changed = result?.dry_runs.filter((r) => r.changed) ?? [];
  return (
    <section class="bulk-dry-run" aria-label="Bulk dry run">
      <div class="filters">
        <label>
          Last deliveries
          <input
            type="number"
            min={1}
            max={200}
            value={num}
            aria-label="Number of deliveries"
            onInput={(e) => setNum(e.currentTarget.value)}
          />
        </label>
        <button type="button" class="secondary" disabled={busy} onClick={() => void run()}>
          Dry run over them
        </button>
      </div>
      {template && (
        <>
          <label>
            Draft template topic (optional, for the dry run over them)
            <input value={draftTopic} onInput={(e) => setDraftTopic(e.currentTarget.value)} />
          </label>
          <label>
            Draft template body (optional, for the dry run over them)
            <textarea value={draftBody} onInput={(e) => setDraftBody(e.currentTarget.value)} rows={3} />
          </label>
        </>
      )}
      {error !== "" && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {result !== undefined && (
        <>
          <p role="status">
            {result.dry_runs.length === 0
              ? "No incoming deliveries to run again."
              : `${result.changed} of ${result.dry_runs.length} deliveries would be posted differently.`}
          </p>
          <ul class="bulk-dry-run-changes" aria-label="Deliveries that would change">
            {changed.map((r) => (
              <li key={r.delivery_id} aria-label={`Delivery ${r.delivery_id ?? ""}`}>
                <span class="id">#{r.delivery_id}</span>
                {r.event !== undefined && r.event !== null && <span class="what"> · {r.event}</span>}
                <DryRunView run={r} />
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

function Detail({ delivery: d, onReplayed }: { delivery: Delivery; onReplayed: (entry: Delivery) => void }) {
  const [dryRun, setDryRun] = useState<DryRun | undefined>();
  const [draft, setDraft] = useState("");
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
  const tryDry = async () => {
    setBusy(true);
    setError("");
    try {
      const params: Record<string, string | boolean> = { dry_run: true };
      if (draft.trim() !== "") params["template_body"] = draft;
      setDryRun((await api.post(`/bots/${d.bot_id}/deliveries/${d.id}/replay`, params)) as unknown as DryRun);
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
        {d.old_credential !== null && d.old_credential !== undefined && (
          <>
            <dt>Credential</dt>
            <dd>
              <OldCredentialBadge credential={d.old_credential} />
            </dd>
          </>
        )}
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
        {d.direction === "incoming" && (
          <button type="button" disabled={busy || !replayable} onClick={() => void tryDry()}>
            Dry run
          </button>
        )}
        {!replayable && (
          <span class="meta">
            {d.request.body_truncated
              ? "A cut body cannot be replayed."
              : "A set-up request cannot be replayed."}
          </span>
        )}
      </div>
      {d.direction === "incoming" && d.integration === "template" && replayable && (
        <label>
          Draft template body (optional, for the dry run)
          <textarea value={draft} onInput={(e) => setDraft(e.currentTarget.value)} rows={3} />
        </label>
      )}
      {dryRun !== undefined && <DryRunView run={dryRun} />}
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
      <DeadLettersPanel botId={botId} />
      {entries !== undefined && entries.some((d) => d.direction === "incoming") && (
        <BulkDryRunPanel
          botId={botId}
          template={entries.some((d) => d.direction === "incoming" && d.integration === "template")}
        />
      )}
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
              aria-label={`Delivery ${d.id}: ${d.direction} ${d.event ?? d.integration}, ${d.outcome}${d.old_credential ? `, ${OLD_CREDENTIAL[d.old_credential]}` : ""}`}
              onClick={() => setOpen(open === d.id ? undefined : d.id)}
            >
              <span class="id">#{d.id}</span>
              <OutcomeBadge outcome={d.outcome} />
              <OldCredentialBadge credential={d.old_credential} />
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
