import type { Queryable } from "./db.js";

/** A stored outgoing-webhook / embedded-bot job (see migration 004). */
export interface OutgoingJob {
  id: number;
  botId: number;
  serviceId: number;
  messageId: number;
  /** JSON `{trigger, message}`. */
  payload: string;
  status: "pending" | "failed";
  /** Attempts started so far (a claim counts as one). */
  attempts: number;
  nextAttemptAtMs: number;
  lastError: string | null;
  createdAtMs: number;
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
}

const COLUMNS =
  "id, bot_id, service_id, message_id, payload, status, attempts, next_attempt_at_ms, last_error, created_at_ms";

function toJob(r: JobRow): OutgoingJob {
  return {
    id: Number(r.id),
    botId: Number(r.bot_id),
    serviceId: Number(r.service_id),
    messageId: Number(r.message_id),
    payload: r.payload,
    status: r.status === "failed" ? "failed" : "pending",
    attempts: Number(r.attempts),
    nextAttemptAtMs: Number(r.next_attempt_at_ms),
    lastError: r.last_error,
    createdAtMs: Number(r.created_at_ms),
  };
}

/** The outgoing_webhook_jobs table. */
export class OutgoingRepo {
  constructor(private readonly db: Queryable) {}

  /** A new job, already claimed for its first attempt (due again at `leaseUntilMs` if that is lost). */
  async insert(job: NewOutgoingJob, nowMs: number, leaseUntilMs: number): Promise<OutgoingJob> {
    const row = await this.db.get<JobRow>(
      `INSERT INTO outgoing_webhook_jobs (bot_id, service_id, message_id, payload, status, attempts, next_attempt_at_ms, created_at_ms)
       VALUES (?, ?, ?, ?, 'pending', 1, ?, ?) RETURNING ${COLUMNS}`,
      [job.botId, job.serviceId, job.messageId, job.payload, leaseUntilMs, nowMs],
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
   * waiting for each other; SQLite has a single writer. Oldest due first.
   */
  async claimDue(nowMs: number, leaseUntilMs: number, limit: number): Promise<OutgoingJob[]> {
    const lock = this.db.dialect === "postgres" ? " FOR UPDATE SKIP LOCKED" : "";
    const rows = await this.db.all<JobRow>(
      `UPDATE outgoing_webhook_jobs SET attempts = attempts + 1, next_attempt_at_ms = ?
       WHERE id IN (SELECT id FROM outgoing_webhook_jobs WHERE status = 'pending' AND next_attempt_at_ms <= ?
                    ORDER BY next_attempt_at_ms, id LIMIT ?${lock})
       RETURNING ${COLUMNS}`,
      [leaseUntilMs, nowMs, limit],
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

  async all(): Promise<OutgoingJob[]> {
    const rows = await this.db.all<JobRow>(`SELECT ${COLUMNS} FROM outgoing_webhook_jobs ORDER BY id`);
    return rows.map(toJob);
  }
}
