import pg from "pg";
import type { Db, Queryable, RunResult, SqlValue } from "./db.js";

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

  static connect(url: string): PostgresDb {
    // Connection attempts fail fast while the server is away (503, not a hung request), and an idle
    // client the server dropped is discarded instead of crashing the process ('error' event).
    const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5000 });
    pool.on("error", () => undefined);
    return new PostgresDb(pool);
  }

  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      await client.query("BEGIN");
      const value = await fn(new PgQueryable(client));
      await client.query("COMMIT");
      return value;
    } catch (err) {
      // A connection that broke mid-transaction is discarded, not given back to the pool.
      await client.query("ROLLBACK").catch((rollbackErr: unknown) => {
        broken = rollbackErr as Error;
      });
      throw err;
    } finally {
      client.release(broken);
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
