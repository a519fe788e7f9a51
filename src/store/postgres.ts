import pg from "pg";
import type { Db, Queryable, RunResult, SqlValue } from "./db.js";
import { isDatabaseConnectionError } from "../infra/unavailable.js";

export interface PostgresTimeouts {
  connectTimeoutMs: number;
  /** 0: statements run as long as they take. */
  statementTimeoutMs: number;
}

// BIGINT (int8) and NUMERIC come back as strings by default; our ids and times fit in a double.
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number(v));

/** Rewrites `?` placeholders to `$1, $2, …`, leaving quoted strings alone. */
export function toPgPlaceholders(sql: string): string {
  let out = "";
  let n = 0;
  let quote: string | null = null;
  for (const ch of sql) {
    if (quote !== null) {
      if (ch === quote) quote = null;
      out += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      out += ch;
    } else if (ch === "?") {
      n += 1;
      out += `$${n}`;
    } else {
      out += ch;
    }
  }
  return out;
}

class PgQueryable implements Queryable {
  readonly dialect = "postgres" as const;
  private readonly cache = new Map<string, string>();
  constructor(protected readonly client: pg.Pool | pg.PoolClient) {}

  private text(sql: string): string {
    let t = this.cache.get(sql);
    if (t === undefined) {
      t = toPgPlaceholders(sql);
      this.cache.set(sql, t);
    }
    return t;
  }

  async all<T>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> {
    const res = await this.client.query(this.text(sql), params as unknown[]);
    return res.rows as T[];
  }

  async get<T>(sql: string, params: readonly SqlValue[] = []): Promise<T | undefined> {
    const rows = await this.all<T>(sql, params);
    return rows[0];
  }

  async run(sql: string, params: readonly SqlValue[] = []): Promise<RunResult> {
    const res = await this.client.query(this.text(sql), params as unknown[]);
    return { changes: res.rowCount ?? 0 };
  }

  async exec(sql: string): Promise<void> {
    await this.client.query(sql);
  }
}

/** PostgreSQL through a pg pool: the second dialect of the same schema. */
export class PostgresDb extends PgQueryable implements Db {
  constructor(private readonly pool: pg.Pool) {
    super(pool);
  }

  /**
   * A pool of 10 connections. Nothing waits for an unreachable server longer than the timeouts
   * (docs/reliability.md): opening a connection, or waiting for a free one, gives up after
   * `connectTimeoutMs`; the server cancels a statement after `statementTimeoutMs`
   * (`statement_timeout`), and the client abandons one still unanswered a second later
   * (`query_timeout`: packets dropped on the way, the server never heard of it). 0 = no limit
   * (migrations). An idle client the server dropped is discarded instead of crashing the process.
   */
  static connect(
    url: string,
    timeouts: PostgresTimeouts = { connectTimeoutMs: 5000, statementTimeoutMs: 5000 },
  ): PostgresDb {
    const pool = new pg.Pool({
      connectionString: url,
      max: 10,
      connectionTimeoutMillis: timeouts.connectTimeoutMs,
      keepAlive: true,
      ...(timeouts.statementTimeoutMs > 0
        ? {
            statement_timeout: timeouts.statementTimeoutMs,
            query_timeout: timeouts.statementTimeoutMs + 1000,
          }
        : {}),
    });
    pool.on("error", () => undefined);
    return new PostgresDb(pool);
  }

  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    // The pool listens for errors only on idle clients: a connection lost while this one is checked
    // out and between statements would emit an 'error' nobody handles and end the process.
    const onError = (err: Error): void => {
      broken = err;
    };
    client.on("error", onError);
    try {
      await client.query("BEGIN");
      const value = await fn(new PgQueryable(client));
      await client.query("COMMIT");
      return value;
    } catch (err) {
      // A connection that broke mid-transaction is discarded, not given back to the pool; one whose
      // statement went unanswered is discarded at once (a ROLLBACK would wait behind it).
      if (isDatabaseConnectionError(err)) broken = err as Error;
      else
        await client.query("ROLLBACK").catch((rollbackErr: unknown) => {
          broken = rollbackErr as Error;
        });
      throw err;
    } finally {
      client.off("error", onError);
      client.release(broken);
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
