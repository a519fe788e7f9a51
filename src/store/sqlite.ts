import Database from "better-sqlite3";
import type { Db, Queryable, RunResult, SqlValue } from "./db.js";

type Statement = Database.Statement<unknown[], unknown>;

/**
 * SQLite through better-sqlite3, in WAL mode. The driver is synchronous; the async interface lets
 * the same services run on PostgreSQL. Transactions are serialised by a queue so that two requests
 * awaiting inside transactions never interleave their statements.
 */
export class SqliteDb implements Db {
  readonly dialect = "sqlite" as const;
  private readonly db: Database.Database;
  private readonly statements = new Map<string, Statement>();
  private txQueue: Promise<unknown> = Promise.resolve();
  private txActive = false;
  /** What a transaction's callback sees: runs its statements directly, never queued. */
  private readonly inTx: Queryable = {
    dialect: "sqlite",
    all: (sql, params) => Promise.resolve(this.allNow(sql, params)),
    get: (sql, params) => Promise.resolve(this.prepare(sql).get(...(params ?? [])) as never),
    run: (sql, params) => Promise.resolve(this.runNow(sql, params)),
    exec: (sql) => Promise.resolve(void this.db.exec(sql)),
  };

  constructor(filename: string) {
    this.db = new Database(filename);
    this.db.pragma("journal_mode = WAL");
    // NORMAL in WAL mode survives a killed process (each commit is in the WAL before we answer);
    // only an OS crash or power loss can lose the last transactions.
    this.db.pragma("synchronous = NORMAL");
    // A message to a stream dirties a B-tree page per recipient in each user_messages index:
    // a page cache larger than the 2 MiB default keeps them in memory, and checkpointing every
    // 10,000 WAL pages (instead of 1,000) copies a page that many commits rewrote, and syncs, once.
    this.db.pragma("cache_size = -65536");
    this.db.pragma("wal_autocheckpoint = 10000");
    this.db.pragma("foreign_keys = ON");
    this.db.pragma("busy_timeout = 5000");
  }

  private prepare(sql: string): Statement {
    let stmt = this.statements.get(sql);
    if (stmt === undefined) {
      stmt = this.db.prepare(sql);
      this.statements.set(sql, stmt);
    }
    return stmt;
  }

  all<T>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> {
    return Promise.resolve(this.allNow<T>(sql, params));
  }

  get<T>(sql: string, params: readonly SqlValue[] = []): Promise<T | undefined> {
    return Promise.resolve(this.prepare(sql).get(...params) as T | undefined);
  }

  private allNow<T>(sql: string, params: readonly SqlValue[] = []): T[] {
    return this.prepare(sql).all(...params) as T[];
  }

  private runNow(sql: string, params: readonly SqlValue[] = []): RunResult {
    const stmt = this.prepare(sql);
    if (stmt.reader) {
      // INSERT … RETURNING is a reader in better-sqlite3; run it for its side effect.
      return { changes: stmt.all(...params).length };
    }
    return { changes: stmt.run(...params).changes };
  }

  run(sql: string, params: readonly SqlValue[] = []): Promise<RunResult> {
    if (!this.txActive) return Promise.resolve(this.runNow(sql, params));
    // A write outside the open transaction waits for it, so a rollback never takes it along.
    const result = this.txQueue.then(() => this.runNow(sql, params));
    this.txQueue = result.catch(() => undefined);
    return result;
  }

  exec(sql: string): Promise<void> {
    this.db.exec(sql);
    return Promise.resolve();
  }

  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    const result = this.txQueue.then(async () => {
      this.db.exec("BEGIN IMMEDIATE");
      this.txActive = true;
      try {
        const value = await fn(this.inTx);
        this.db.exec("COMMIT");
        return value;
      } catch (err) {
        if (this.db.inTransaction) this.db.exec("ROLLBACK");
        throw err;
      } finally {
        this.txActive = false;
      }
    });
    this.txQueue = result.catch(() => undefined);
    return result;
  }

  close(): Promise<void> {
    this.db.close();
    return Promise.resolve();
  }
}
