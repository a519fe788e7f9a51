import Database from "better-sqlite3";
import type { Db, Queryable, RunResult, SqlValue } from "./db.js";

type Statement = Database.Statement<unknown[], unknown>;

interface PendingTx {
  fn: (tx: Queryable) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

/** At most this many logical transactions share one SQLite commit. */
const MAX_GROUP = 64;
/** Commits closer together than this mean the store is busy (then a commit waits one tick). */
const BUSY_WINDOW_MS = 50;

function now(): number {
  return performance.now();
}

/**
 * SQLite through better-sqlite3, in WAL mode. The driver is synchronous; the async interface lets
 * the same services run on PostgreSQL.
 *
 * Transactions are serialised (two requests awaiting inside transactions never interleave their
 * statements) and **group-committed**: transactions that queue up while one runs join the same
 * SQLite transaction, each inside its own SAVEPOINT (a failing one rolls back alone), and all of
 * them resolve only after the shared COMMIT. A message to a stream dirties one index page per
 * recipient, so sharing a commit between concurrent sends saves most of the WAL writes.
 * Writes outside a transaction that arrive while one is open are queued as transactions too, so a
 * rollback never takes them along.
 */
export class SqliteDb implements Db {
  readonly dialect = "sqlite" as const;
  private readonly db: Database.Database;
  private readonly statements = new Map<string, Statement>();
  private readonly pending: PendingTx[] = [];
  private draining = false;
  /** Transactions arrived close together recently: worth waiting a tick to group them. */
  private busy = false;
  private lastCommitAt = 0;
  private readonly timers: NodeJS.Timeout[] = [];
  /** What a transaction's callback sees: runs its statements directly, never queued. */
  private readonly inTx: Queryable = {
    dialect: "sqlite",
    all: (sql, params) => Promise.resolve(this.allNow(sql, params)),
    get: (sql, params) => Promise.resolve(this.getNow(sql, params) as never),
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

  /**
   * A transaction-control statement, prepared once (exec would parse it on every call: four of
   * them per logical transaction).
   */
  private control(sql: string): void {
    this.prepare(sql).run();
  }

  /** True when a statement must not run inside someone else's open transaction. */
  private mustQueue(sql: string): boolean {
    return this.draining && !this.prepare(sql).readonly;
  }

  all<T>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> {
    if (this.mustQueue(sql)) return this.transaction((tx) => tx.all<T>(sql, params));
    return Promise.resolve(this.allNow<T>(sql, params));
  }

  get<T>(sql: string, params: readonly SqlValue[] = []): Promise<T | undefined> {
    if (this.mustQueue(sql)) return this.transaction((tx) => tx.get<T>(sql, params));
    return Promise.resolve(this.getNow<T>(sql, params));
  }

  run(sql: string, params: readonly SqlValue[] = []): Promise<RunResult> {
    if (this.mustQueue(sql)) return this.transaction((tx) => tx.run(sql, params));
    return Promise.resolve(this.runNow(sql, params));
  }

  private allNow<T>(sql: string, params: readonly SqlValue[] = []): T[] {
    return this.prepare(sql).all(...params) as T[];
  }

  private getNow<T>(sql: string, params: readonly SqlValue[] = []): T | undefined {
    return this.prepare(sql).get(...params) as T | undefined;
  }

  private runNow(sql: string, params: readonly SqlValue[] = []): RunResult {
    const stmt = this.prepare(sql);
    if (stmt.reader) {
      // INSERT … RETURNING is a reader in better-sqlite3; run it for its side effect.
      return { changes: stmt.all(...params).length };
    }
    return { changes: stmt.run(...params).changes };
  }

  exec(sql: string): Promise<void> {
    this.db.exec(sql);
    return Promise.resolve();
  }

  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ fn, resolve: resolve as (v: unknown) => void, reject });
      if (!this.draining) void this.drain();
    });
  }

  /** Runs queued transactions, several per SQLite commit, until none are left. */
  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.pending.length > 0) {
        const group: { job: PendingTx; ok: boolean; value: unknown; error: unknown }[] = [];
        this.control("BEGIN IMMEDIATE");
        try {
          for (let n = 0; n < MAX_GROUP; n++) {
            if (this.pending.length === 0) {
              // Under load, let the requests already read off the sockets queue their transactions
              // and share this commit; when nothing else is waiting, commit at once.
              if (!this.busy) break;
              await new Promise<void>((resolve) => setImmediate(resolve));
              if (this.pending.length === 0) break;
            }
            const job = this.pending.shift()!;
            this.control("SAVEPOINT logical_tx");
            try {
              const value = await job.fn(this.inTx);
              this.control("RELEASE logical_tx");
              group.push({ job, ok: true, value, error: undefined });
            } catch (err) {
              this.control("ROLLBACK TO logical_tx");
              this.control("RELEASE logical_tx");
              group.push({ job, ok: false, value: undefined, error: err });
            }
          }
          this.control("COMMIT");
          this.busy = group.length > 1 || now() - this.lastCommitAt < BUSY_WINDOW_MS;
          this.lastCommitAt = now();
        } catch (err) {
          // The group could not be committed: nothing of it is stored, so every member fails.
          if (this.db.inTransaction) this.control("ROLLBACK");
          for (const g of group) g.job.reject(g.ok ? err : g.error);
          continue;
        }
        for (const g of group) {
          if (g.ok) g.job.resolve(g.value);
          else g.job.reject(g.error);
        }
      }
    } finally {
      this.draining = false;
    }
  }

  /**
   * Runs `sql` (a write that is a no-op when there is nothing to do) every `ms` until close, in
   * the group-commit queue like any write. A failure is retried at the next tick.
   */
  every(ms: number, sql: string): void {
    const timer = setInterval(() => {
      this.run(sql).catch(() => undefined);
    }, ms);
    timer.unref();
    this.timers.push(timer);
  }

  close(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    this.db.close();
    return Promise.resolve();
  }
}
