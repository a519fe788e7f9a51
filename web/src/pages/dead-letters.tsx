import { useEffect, useState } from "preact/hooks";
import { ApiError, api } from "../lib/api.js";

/** A dead outgoing delivery as `GET /bots/{id}/dead_deliveries` answers it (docs/integration-operations.md). */
interface DeadDelivery {
  id: number;
  delivery_id: string;
  message_id: number;
  trigger: string;
  attempts: number;
  error: string | null;
  dead_at: number | null;
}

interface Endpoint {
  service_id: number;
  url: string;
  state: "ok" | "failing" | "circuit_open" | "disabled";
  consecutive_failures: number;
  next_probe_at: number | null;
  last_error: string | null;
  disabled_reason: string | null;
}

const message = (err: unknown) => (err instanceof ApiError ? err.message : "Cannot reach the server.");

function endpointText(e: Endpoint): string {
  switch (e.state) {
    case "disabled":
      return `Disabled: ${e.disabled_reason ?? "unknown reason"}. Nothing is sent until you re-enable it.`;
    case "circuit_open":
      return `Circuit open after ${e.consecutive_failures} failures in a row: one delivery probes it now and then, the rest wait.`;
    case "failing":
      return `${e.consecutive_failures} failed attempt${e.consecutive_failures === 1 ? "" : "s"} in a row (${e.last_error ?? ""}).`;
    default:
      return "Delivering.";
  }
}

/** An outgoing bot's endpoints and dead letters: Re-enable endpoint and Replay all. */
export function DeadLettersPanel({ botId }: { botId: number }) {
  const [dead, setDead] = useState<DeadDelivery[] | undefined>();
  const [endpoints, setEndpoints] = useState<Endpoint[]>([]);
  const [status, setStatus] = useState("");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);

  const load = async () => {
    try {
      const res = await api.get(`/bots/${botId}/dead_deliveries`);
      setDead(res["dead_deliveries"] as DeadDelivery[]);
      setEndpoints(res["endpoints"] as Endpoint[]);
    } catch (err) {
      setError(message(err));
    }
  };
  useEffect(() => {
    void load();
  }, [botId]);

  const act = async (path: string, done: (res: Record<string, unknown>) => string) => {
    setBusy(true);
    setError("");
    try {
      setStatus(done(await api.post(path)));
      await load();
    } catch (err) {
      setError(message(err));
    } finally {
      setBusy(false);
    }
  };

  if (dead === undefined || (endpoints.length === 0 && dead.length === 0)) return null;
  return (
    <section class="dead-letters" aria-label="Dead letters">
      {endpoints.map((e) => (
        <p key={e.service_id} class={`endpoint endpoint-${e.state}`}>
          <strong>{e.url}</strong> {endpointText(e)}{" "}
          {e.state !== "ok" && (
            <button
              type="button"
              class="secondary"
              disabled={busy}
              onClick={() => void act(`/bots/${botId}/endpoints/enable`, () => "Endpoint re-enabled.")}
            >
              Re-enable endpoint
            </button>
          )}
        </p>
      ))}
      <h4>Dead letters ({dead.length})</h4>
      {dead.length === 0 ? (
        <p>No dead deliveries.</p>
      ) : (
        <>
          <ul class="dead-list">
            {dead.map((d) => (
              <li key={d.id} class="dead-row" aria-label={`Dead delivery ${d.delivery_id}`}>
                <span class="id">{d.delivery_id}</span> <span class="what">{d.trigger}</span>{" "}
                <span class="error">{d.error}</span>{" "}
                <span class="meta">
                  after {d.attempts} attempt{d.attempts === 1 ? "" : "s"}
                  {d.dead_at !== null && `, ${new Date(d.dead_at * 1000).toLocaleString()}`}
                </span>
              </li>
            ))}
          </ul>
          <button
            type="button"
            disabled={busy}
            onClick={() =>
              void act(`/bots/${botId}/dead_deliveries/replay`, (res) => {
                const n = Number(res["replayed"]);
                return `Replayed ${n} deliver${n === 1 ? "y" : "ies"}.`;
              })
            }
          >
            Replay all
          </button>
        </>
      )}
      {status !== "" && <p role="status">{status}</p>}
      {error !== "" && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
