import type { Queryable } from "./db.js";

/** A stored outgoing-webhook / embedded-bot job (see migration 004). */
export interface OutgoingJob {
  id: number;
  botId: number;
  serviceId: number;
  messageId: number;
  /** JSON `{trigger, message}`. */
  payload: string;
  /** `dead`: parked after its last attempt (or its endpoint gone or disabled), until replayed. */
  status: "pending" | "failed" | "dead";
  /** Attempts started so far (a claim counts as one). */
  attempts: number;
  nextAttemptAtMs: number;
  lastError: string | null;
  createdAtMs: number;
  /** When it ended failed or dead. */
  finishedAtMs: number | null;
}

export type NewOutgoingJob = Pick<OutgoingJob, "botId" | "serviceId" | "messageId" | "payload">;

interface JobRow {
  id: number | string;
  bot_id: number | string;
  service_id: number | string;
  message_id: number | string;
  payload: string;
  status: string;
  attempts: number | string;
  next_attempt_at_ms: number | string;
  last_error: string | null;
  created_at_ms: number | string;
  finished_at_ms: number | string | null;
}

const COLUMNS =
  "id, bot_id, service_id, message_id, payload, status, attempts, next_attempt_at_ms, last_error, created_at_ms, finished_at_ms";

/** Service ids whose jobs wait: the endpoint is disabled or its circuit is open (then only a probe goes). */
const HELD_SERVICES =
  "SELECT service_id FROM outgoing_endpoints WHERE disabled_at_ms IS NOT NULL OR consecutive_failures >= ?";

function toJob(r: JobRow): OutgoingJob {
  return {
    id: Number(r.id),
    botId: Number(r.bot_id),
    serviceId: Number(r.service_id),
    messageId: Number(r.message_id),
    payload: r.payload,
    status: r.status === "failed" ? "failed" : r.status === "dead" ? "dead" : "pending",
    attempts: Number(r.attempts),
    nextAttemptAtMs: Number(r.next_attempt_at_ms),
    lastError: r.last_error,
    createdAtMs: Number(r.created_at_ms),
    finishedAtMs: r.finished_at_ms === null ? null : Number(r.finished_at_ms),
  };
}

/** The outgoing_webhook_jobs table. */
export class OutgoingRepo {
  constructor(private readonly db: Queryable) {}

  /**
   * A new job, already claimed for its first attempt (due again at `leaseUntilMs` if that is lost);
   * with `leaseUntilMs` undefined, not claimed: due now, for the worker (its endpoint is held).
   */
  async insert(job: NewOutgoingJob, nowMs: number, leaseUntilMs: number | undefined): Promise<OutgoingJob> {
    const row = await this.db.get<JobRow>(
      `INSERT INTO outgoing_webhook_jobs (bot_id, service_id, message_id, payload, status, attempts, next_attempt_at_ms, created_at_ms)
       VALUES (?, ?, ?, ?, 'pending', ?, ?, ?) RETURNING ${COLUMNS}`,
      [
        job.botId,
        job.serviceId,
        job.messageId,
        job.payload,
        leaseUntilMs === undefined ? 0 : 1,
        leaseUntilMs ?? nowMs,
        nowMs,
      ],
    );
    return toJob(row!);
  }

  async byId(id: number): Promise<OutgoingJob | undefined> {
    const row = await this.db.get<JobRow>(`SELECT ${COLUMNS} FROM outgoing_webhook_jobs WHERE id = ?`, [id]);
    return row === undefined ? undefined : toJob(row);
  }

  /** The earliest `next_attempt_at_ms` of a pending job, if any. */
  async nextDueAt(): Promise<number | undefined> {
    const row = await this.db.get<{ at: number | string | null }>(
      "SELECT MIN(next_attempt_at_ms) AS at FROM outgoing_webhook_jobs WHERE status = 'pending'",
    );
    return row?.at === null || row?.at === undefined ? undefined : Number(row.at);
  }

  /**
   * Claims up to `limit` due pending jobs for one attempt each, in one statement: each gets its
   * attempt counted and is invisible until `leaseUntilMs` (a process killed mid-delivery leaves
   * the job to whichever process scans after the lease). On PostgreSQL the rows are taken with
   * `FOR UPDATE SKIP LOCKED`, so processes scanning at the same moment take disjoint jobs without
   * waiting for each other; SQLite has a single writer. Oldest due first. Jobs of a held endpoint
   * (disabled, or its circuit open: `circuitThreshold` consecutive failures) are left waiting;
   * `serviceId` claims only that service's jobs (a circuit's probe), held or not.
   */
  async claimDue(
    nowMs: number,
    leaseUntilMs: number,
    limit: number,
    maxAttempts: number,
    circuitThreshold: number = 2_000_000_000,
    serviceId?: number,
  ): Promise<OutgoingJob[]> {
    const lock = this.db.dialect === "postgres" ? " FOR UPDATE SKIP LOCKED" : "";
    const which = serviceId === undefined ? `service_id NOT IN (${HELD_SERVICES})` : "service_id = ?";
    const rows = await this.db.all<JobRow>(
      `UPDATE outgoing_webhook_jobs SET attempts = attempts + 1, next_attempt_at_ms = ?
       WHERE id IN (SELECT id FROM outgoing_webhook_jobs WHERE status = 'pending' AND next_attempt_at_ms <= ?
                    AND attempts < ? AND ${which} ORDER BY next_attempt_at_ms, id LIMIT ?${lock})
       RETURNING ${COLUMNS}`,
      [leaseUntilMs, nowMs, maxAttempts, serviceId ?? circuitThreshold, limit],
    );
    return rows.map(toJob).sort((x, y) => x.id - y.id);
  }

  /** Parks a job as dead (its last attempt failed, or its endpoint is gone or disabled). */
  async park(id: number, nowMs: number, error: string): Promise<void> {
    await this.db.run(
      "UPDATE outgoing_webhook_jobs SET status = 'dead', last_error = ?, finished_at_ms = ?, dead_notified_at_ms = NULL WHERE id = ?",
      [error, nowMs, id],
    );
  }

  /** Parks every due pending job of a service (its endpoint is disabled); answers them. */
  async parkDueOfService(serviceId: number, nowMs: number, error: string): Promise<OutgoingJob[]> {
    const rows = await this.db.all<JobRow>(
      `UPDATE outgoing_webhook_jobs SET status = 'dead', last_error = ?, finished_at_ms = ?
       WHERE service_id = ? AND status = 'pending' AND next_attempt_at_ms <= ?
       RETURNING ${COLUMNS}`,
      [error, nowMs, serviceId, nowMs],
    );
    return rows.map(toJob).sort((x, y) => x.id - y.id);
  }

  /** Service ids of disabled endpoints that have due pending jobs. */
  async disabledServicesWithDueJobs(nowMs: number): Promise<number[]> {
    const rows = await this.db.all<{ service_id: number | string }>(
      `SELECT DISTINCT j.service_id FROM outgoing_webhook_jobs j JOIN outgoing_endpoints e ON e.service_id = j.service_id
       WHERE j.status = 'pending' AND j.next_attempt_at_ms <= ? AND e.disabled_at_ms IS NOT NULL`,
      [nowMs],
    );
    return rows.map((r) => Number(r.service_id));
  }

  /** Bots with dead jobs not yet in a summary, the oldest of which died at or before `diedByMs`. */
  async botsWithDeadToNotify(diedByMs: number): Promise<number[]> {
    const rows = await this.db.all<{ bot_id: number | string }>(
      `SELECT bot_id FROM outgoing_webhook_jobs WHERE status = 'dead' AND dead_notified_at_ms IS NULL
       GROUP BY bot_id HAVING MIN(finished_at_ms) <= ? ORDER BY bot_id`,
      [diedByMs],
    );
    return rows.map((r) => Number(r.bot_id));
  }

  /**
   * Takes a bot's dead jobs not yet summarised, marking them summarised in the same statement
   * (so exactly one process sends the summary that names them).
   */
  async takeDeadToNotify(botId: number, nowMs: number): Promise<OutgoingJob[]> {
    const rows = await this.db.all<JobRow>(
      `UPDATE outgoing_webhook_jobs SET dead_notified_at_ms = ?
       WHERE bot_id = ? AND status = 'dead' AND dead_notified_at_ms IS NULL RETURNING ${COLUMNS}`,
      [nowMs, botId],
    );
    return rows.map(toJob).sort((x, y) => x.id - y.id);
  }

  /** A bot's dead jobs, oldest first. */
  async deadOfBot(botId: number): Promise<OutgoingJob[]> {
    const rows = await this.db.all<JobRow>(
      `SELECT ${COLUMNS} FROM outgoing_webhook_jobs WHERE bot_id = ? AND status = 'dead' ORDER BY id`,
      [botId],
    );
    return rows.map(toJob);
  }

  /**
   * Replays every dead job of a bot: pending again, due now, with a fresh set of attempts and a
   * fresh age (the same job, so the same delivery id). Answers the jobs.
   */
  async replayDead(botId: number, nowMs: number): Promise<OutgoingJob[]> {
    const rows = await this.db.all<JobRow>(
      `UPDATE outgoing_webhook_jobs SET status = 'pending', attempts = 0, next_attempt_at_ms = ?, created_at_ms = ?,
         last_error = NULL, finished_at_ms = NULL, dead_notified_at_ms = NULL
       WHERE bot_id = ? AND status = 'dead' RETURNING ${COLUMNS}`,
      [nowMs, nowMs, botId],
    );
    return rows.map(toJob).sort((x, y) => x.id - y.id);
  }

  /**
   * Ends, as failed with `error` (not dead: replaying a delivery that may crash the server is not
   * offered), every due pending job whose attempts are used up: its last
   * attempt was claimed but never finished (the process died during it, for example because of
   * that very delivery), so it must not be claimed again. One statement; the jobs it ended are
   * returned to the one process that ended them.
   */
  async failExhausted(nowMs: number, maxAttempts: number, error: string): Promise<OutgoingJob[]> {
    const rows = await this.db.all<JobRow>(
      `UPDATE outgoing_webhook_jobs SET status = 'failed', last_error = ?, finished_at_ms = ?
       WHERE status = 'pending' AND next_attempt_at_ms <= ? AND attempts >= ?
       RETURNING ${COLUMNS}`,
      [error, nowMs, nowMs, maxAttempts],
    );
    return rows.map(toJob).sort((x, y) => x.id - y.id);
  }

  /** Delivered: the row goes. */
  async complete(id: number): Promise<void> {
    await this.db.run("DELETE FROM outgoing_webhook_jobs WHERE id = ?", [id]);
  }

  /** Schedules another attempt. */
  async retryAt(id: number, atMs: number, error: string): Promise<void> {
    await this.db.run(
      "UPDATE outgoing_webhook_jobs SET next_attempt_at_ms = ?, last_error = ? WHERE id = ?",
      [atMs, error, id],
    );
  }

  /** Gives an interrupted attempt back (shutdown): due now, the attempt not counted. */
  async release(id: number, atMs: number): Promise<void> {
    await this.db.run(
      "UPDATE outgoing_webhook_jobs SET next_attempt_at_ms = ?, attempts = attempts - 1 WHERE id = ? AND status = 'pending'",
      [atMs, id],
    );
  }

  async fail(id: number, nowMs: number, error: string): Promise<void> {
    await this.db.run(
      "UPDATE outgoing_webhook_jobs SET status = 'failed', last_error = ?, finished_at_ms = ? WHERE id = ?",
      [error, nowMs, id],
    );
  }

  /** Jobs grouped by status and attempts made (the metrics' `chat_outgoing_webhook_jobs`). */
  async jobCounts(): Promise<{ status: string; attempts: number; count: number }[]> {
    const rows = await this.db.all<{ status: string; attempts: number; count: number | string }>(
      "SELECT status, attempts, COUNT(*) AS count FROM outgoing_webhook_jobs GROUP BY status, attempts",
    );
    return rows.map((r) => ({ status: r.status, attempts: Number(r.attempts), count: Number(r.count) }));
  }

  async all(): Promise<OutgoingJob[]> {
    const rows = await this.db.all<JobRow>(`SELECT ${COLUMNS} FROM outgoing_webhook_jobs ORDER BY id`);
    return rows.map(toJob);
  }
}
