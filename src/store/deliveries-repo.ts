import type { Db, Queryable, SqlValue } from "./db.js";
import type { TransactionalRepo } from "./repos.js";
import type { Delivery, Direction, NewDelivery, OldCredential, Outcome } from "../domain/deliveries/types.js";

interface Row {
  id: number | string;
  bot_id: number | string;
  created_ms: number | string;
  direction: string;
  integration: string;
  event: string | null;
  method: string;
  url: string;
  request_headers: string;
  /** Text; SQLite: bytes when the entry was written from the request's raw body. */
  request_body: string | Buffer;
  request_form: string | null;
  body_truncated: number | string;
  response_status: number | string | null;
  response_body: string | null;
  outcome: string;
  message_ids: string;
  attempts: number | string;
  error: string | null;
  replay_of: number | string | null;
  old_credential: string | null;
}

const COLUMNS =
  "id, bot_id, created_ms, direction, integration, event, method, url, request_headers, request_body, request_form, body_truncated, response_status, response_body, outcome, message_ids, attempts, error, replay_of, old_credential";
const INSERT_COLUMNS = COLUMNS.slice("id, ".length);
/** One row's placeholders. */
const ROW = `(${new Array(19).fill("?").join(", ")})`;
/** Rows per INSERT statement (19 parameters each: far below SQLite's and PostgreSQL's limits). */
const ROWS_PER_INSERT = 32;

function toDelivery(r: Row): Delivery {
  return {
    id: Number(r.id),
    botId: Number(r.bot_id),
    createdMs: Number(r.created_ms),
    direction: r.direction as Direction,
    integration: r.integration,
    event: r.event,
    method: r.method,
    url: r.url,
    requestHeaders: JSON.parse(r.request_headers) as Record<string, string>,
    requestBody: typeof r.request_body === "string" ? r.request_body : r.request_body.toString("utf8"),
    requestForm: r.request_form === null ? null : (JSON.parse(r.request_form) as Record<string, string>),
    bodyTruncated: Number(r.body_truncated) === 1,
    responseStatus: r.response_status === null ? null : Number(r.response_status),
    responseBody: r.response_body,
    outcome: r.outcome as Outcome,
    messageIds: JSON.parse(r.message_ids) as number[],
    attempts: Number(r.attempts),
    error: r.error,
    replayOf: r.replay_of === null ? null : Number(r.replay_of),
    oldCredential: r.old_credential as OldCredential | null,
  };
}

/**
 * A request body as bound: PostgreSQL's TEXT takes text; SQLite (better-sqlite3) takes the bytes
 * as they are, which spares decoding and encoding them again. SqlValue has no Buffer (no other
 * repository binds bytes), hence the cast, for SQLite only.
 */
function bodyValue(body: string | Buffer, dialect: "sqlite" | "postgres"): SqlValue {
  if (typeof body === "string") return body;
  return dialect === "sqlite" ? (body as unknown as SqlValue) : body.toString("utf8");
}

function values(d: NewDelivery, dialect: "sqlite" | "postgres"): SqlValue[] {
  return [
    d.botId,
    d.createdMs,
    d.direction,
    d.integration,
    d.event,
    d.method,
    d.url,
    JSON.stringify(d.requestHeaders),
    bodyValue(d.requestBody, dialect),
    d.requestForm === null ? null : JSON.stringify(d.requestForm),
    d.bodyTruncated ? 1 : 0,
    d.responseStatus,
    d.responseBody,
    d.outcome,
    JSON.stringify(d.messageIds),
    d.attempts,
    d.error,
    d.replayOf,
    d.oldCredential,
  ];
}

export interface DeliveryQuery {
  botId: number;
  direction?: Direction | undefined;
  outcome?: Outcome | undefined;
  /** Entries with a smaller id than this (newest first); none: from the newest. */
  before?: number | undefined;
  limit: number;
}

/** The webhook_deliveries table (migration 020). */
export class DeliveriesRepo {
  constructor(private readonly db: Queryable) {}

  async insert(d: NewDelivery): Promise<number> {
    const row = await this.db.get<{ id: number | string }>(
      `INSERT INTO webhook_deliveries (${INSERT_COLUMNS}) VALUES ${ROW} RETURNING id`,
      values(d, this.db.dialect),
    );
    return Number(row!.id);
  }

  /**
   * Writes entries with one multi-row INSERT per ROWS_PER_INSERT (the statements are prepared
   * once per row count and cached by the store).
   */
  async insertMany(entries: readonly NewDelivery[]): Promise<void> {
    for (let i = 0; i < entries.length; i += ROWS_PER_INSERT) {
      const chunk = entries.slice(i, i + ROWS_PER_INSERT);
      await this.db.run(
        `INSERT INTO webhook_deliveries (${INSERT_COLUMNS}) VALUES ${new Array(chunk.length).fill(ROW).join(", ")}`,
        chunk.flatMap((d) => values(d, this.db.dialect)),
      );
    }
  }

  async byId(botId: number, id: number): Promise<Delivery | undefined> {
    const row = await this.db.get<Row>(
      `SELECT ${COLUMNS} FROM webhook_deliveries WHERE bot_id = ? AND id = ?`,
      [botId, id],
    );
    return row === undefined ? undefined : toDelivery(row);
  }

  /** Newest first. */
  async list(q: DeliveryQuery): Promise<Delivery[]> {
    const where = ["bot_id = ?"];
    const params: SqlValue[] = [q.botId];
    if (q.direction !== undefined) {
      where.push("direction = ?");
      params.push(q.direction);
    }
    if (q.outcome !== undefined) {
      where.push("outcome = ?");
      params.push(q.outcome);
    }
    if (q.before !== undefined) {
      where.push("id < ?");
      params.push(q.before);
    }
    params.push(q.limit);
    const rows = await this.db.all<Row>(
      `SELECT ${COLUMNS} FROM webhook_deliveries WHERE ${where.join(" AND ")} ORDER BY id DESC LIMIT ?`,
      params,
    );
    return rows.map(toDelivery);
  }

  /** Deletes a bot's entries beyond its newest `keep`, at most `batch` of them; returns how many. */
  async pruneBot(botId: number, keep: number, batch: number): Promise<number> {
    const edge = await this.db.get<{ id: number | string }>(
      "SELECT id FROM webhook_deliveries WHERE bot_id = ? ORDER BY id DESC LIMIT 1 OFFSET ?",
      [botId, keep],
    );
    if (edge === undefined) return 0;
    const result = await this.db.run(
      "DELETE FROM webhook_deliveries WHERE id IN (SELECT id FROM webhook_deliveries WHERE bot_id = ? AND id <= ? ORDER BY id LIMIT ?)",
      [botId, Number(edge.id), batch],
    );
    return result.changes;
  }

  /** Deletes entries created before `beforeMs`, at most `batch` of them; returns how many. */
  async pruneOlderThan(beforeMs: number, batch: number): Promise<number> {
    const result = await this.db.run(
      "DELETE FROM webhook_deliveries WHERE id IN (SELECT id FROM webhook_deliveries WHERE created_ms < ? ORDER BY id LIMIT ?)",
      [beforeMs, batch],
    );
    return result.changes;
  }
}

/** The delivery log's repository over one store (the log may open a store of its own). */
export function deliveriesStore(db: Db): TransactionalRepo<DeliveriesRepo> {
  // Built here, not with repos.ts's transactional(): the writer thread loads this module alone.
  return {
    read: new DeliveriesRepo(db),
    transaction: (fn) => db.transaction((tx) => fn(new DeliveriesRepo(tx))),
  };
}
