import type { Queryable } from "./db.js";

/** The delivery health of one bot service's endpoint (see migration 075). */
export interface EndpointState {
  serviceId: number;
  botId: number;
  consecutiveFailures: number;
  /** Since when it has failed without a success in between (null: its last attempt succeeded). */
  failingSinceMs: number | null;
  /** While the circuit is open: the next probe is due at this time. */
  probeAtMs: number;
  lastError: string | null;
  disabledAtMs: number | null;
  disabledReason: string | null;
}

interface EndpointRow {
  service_id: number | string;
  bot_id: number | string;
  consecutive_failures: number | string;
  failing_since_ms: number | string | null;
  probe_at_ms: number | string;
  last_error: string | null;
  disabled_at_ms: number | string | null;
  disabled_reason: string | null;
}

const COLUMNS =
  "service_id, bot_id, consecutive_failures, failing_since_ms, probe_at_ms, last_error, disabled_at_ms, disabled_reason";

function nullableNumber(v: number | string | null): number | null {
  return v === null ? null : Number(v);
}

function toState(r: EndpointRow): EndpointState {
  return {
    serviceId: Number(r.service_id),
    botId: Number(r.bot_id),
    consecutiveFailures: Number(r.consecutive_failures),
    failingSinceMs: nullableNumber(r.failing_since_ms),
    probeAtMs: Number(r.probe_at_ms),
    lastError: r.last_error,
    disabledAtMs: nullableNumber(r.disabled_at_ms),
    disabledReason: r.disabled_reason,
  };
}

/** The outgoing_endpoints table: failure counts, circuit and disabling per bot service. */
export class OutgoingEndpointsRepo {
  constructor(private readonly db: Queryable) {}

  async byService(serviceId: number): Promise<EndpointState | undefined> {
    const row = await this.db.get<EndpointRow>(
      `SELECT ${COLUMNS} FROM outgoing_endpoints WHERE service_id = ?`,
      [serviceId],
    );
    return row === undefined ? undefined : toState(row);
  }

  async ofBot(botId: number): Promise<EndpointState[]> {
    const rows = await this.db.all<EndpointRow>(
      `SELECT ${COLUMNS} FROM outgoing_endpoints WHERE bot_id = ? ORDER BY service_id`,
      [botId],
    );
    return rows.map(toState);
  }

  /** One more failed attempt, in one statement; answers the state after it. */
  // CAST: PostgreSQL would type a parameter of `CASE … ELSE 0` as integer (32 bits).
  async recordFailure(
    serviceId: number,
    botId: number,
    nowMs: number,
    error: string,
    threshold: number,
    probeAtMs: number,
  ): Promise<EndpointState> {
    const row = await this.db.get<EndpointRow>(
      `INSERT INTO outgoing_endpoints (service_id, bot_id, consecutive_failures, failing_since_ms, probe_at_ms, last_error)
       VALUES (?, ?, 1, ?, CASE WHEN 1 >= ? THEN CAST(? AS BIGINT) ELSE 0 END, ?)
       ON CONFLICT (service_id) DO UPDATE SET
         consecutive_failures = outgoing_endpoints.consecutive_failures + 1,
         failing_since_ms = COALESCE(outgoing_endpoints.failing_since_ms, excluded.failing_since_ms),
         probe_at_ms = CASE WHEN outgoing_endpoints.consecutive_failures + 1 >= ? THEN CAST(? AS BIGINT) ELSE 0 END,
         last_error = excluded.last_error
       RETURNING ${COLUMNS}`,
      [serviceId, botId, nowMs, threshold, probeAtMs, error, threshold, probeAtMs],
    );
    return toState(row!);
  }

  /** A successful attempt: the counters and the circuit reset (a disabled endpoint stays disabled). */
  async recordSuccess(serviceId: number): Promise<boolean> {
    const row = await this.db.get<{ service_id: number | string }>(
      `UPDATE outgoing_endpoints SET consecutive_failures = 0, failing_since_ms = NULL, probe_at_ms = 0, last_error = NULL
       WHERE service_id = ? AND consecutive_failures > 0 RETURNING service_id`,
      [serviceId],
    );
    return row !== undefined;
  }

  /** Disables the endpoint; true when this call did (it was not disabled already). */
  async disable(serviceId: number, botId: number, nowMs: number, reason: string): Promise<boolean> {
    const row = await this.db.get<{ service_id: number | string }>(
      `INSERT INTO outgoing_endpoints (service_id, bot_id, disabled_at_ms, disabled_reason, last_error)
       VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (service_id) DO UPDATE SET disabled_at_ms = excluded.disabled_at_ms,
         disabled_reason = excluded.disabled_reason, last_error = excluded.last_error
       WHERE outgoing_endpoints.disabled_at_ms IS NULL
       RETURNING service_id`,
      [serviceId, botId, nowMs, reason, reason],
    );
    return row !== undefined;
  }

  /** Re-enables every endpoint of a bot: its state starts afresh. Answers how many had a state. */
  async enableBot(botId: number): Promise<number> {
    const rows = await this.db.all<{ service_id: number | string }>(
      "DELETE FROM outgoing_endpoints WHERE bot_id = ? RETURNING service_id",
      [botId],
    );
    return rows.length;
  }

  /**
   * Takes the probe of an endpoint whose circuit is open and whose probe is due: moves the next
   * probe to `nextProbeAtMs` in one conditional statement, so one process (and one attempt) probes.
   */
  async takeProbe(
    serviceId: number,
    nowMs: number,
    nextProbeAtMs: number,
    threshold: number,
  ): Promise<boolean> {
    const row = await this.db.get<{ service_id: number | string }>(
      `UPDATE outgoing_endpoints SET probe_at_ms = ?
       WHERE service_id = ? AND disabled_at_ms IS NULL AND consecutive_failures >= ? AND probe_at_ms <= ?
       RETURNING service_id`,
      [nextProbeAtMs, serviceId, threshold, nowMs],
    );
    return row !== undefined;
  }

  /** Endpoints whose circuit is open and whose probe is due now. */
  async probesDue(nowMs: number, threshold: number): Promise<EndpointState[]> {
    const rows = await this.db.all<EndpointRow>(
      `SELECT ${COLUMNS} FROM outgoing_endpoints
       WHERE disabled_at_ms IS NULL AND consecutive_failures >= ? AND probe_at_ms <= ? ORDER BY service_id`,
      [threshold, nowMs],
    );
    return rows.map(toState);
  }

  /** Gives a probe back unused (no job was due for it). */
  async releaseProbe(serviceId: number, probeAtMs: number): Promise<void> {
    await this.db.run("UPDATE outgoing_endpoints SET probe_at_ms = ? WHERE service_id = ?", [
      probeAtMs,
      serviceId,
    ]);
  }
}
