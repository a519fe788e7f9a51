/**
 * The store's connection: one async interface, two dialects (SQLite by default, PostgreSQL for
 * deployments that outgrow one process). SQL is written once with `?` placeholders; the PostgreSQL
 * dialect rewrites them to `$n`. Booleans are stored as 0/1 integers and times as integer seconds
 * (or milliseconds where named `_ms`) in both, so rows read back identically.
 */
export type SqlValue = string | number | bigint | null;

export interface RunResult {
  changes: number;
}

export interface Queryable {
  readonly dialect: "sqlite" | "postgres";
  all<T>(sql: string, params?: readonly SqlValue[]): Promise<T[]>;
  get<T>(sql: string, params?: readonly SqlValue[]): Promise<T | undefined>;
  run(sql: string, params?: readonly SqlValue[]): Promise<RunResult>;
  /** Runs a multi-statement script (migrations); no parameters. */
  exec(sql: string): Promise<void>;
}

export interface Db extends Queryable {
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Converts a JS boolean to the stored 0/1. */
export function sqlBool(value: boolean): number {
  return value ? 1 : 0;
}

/** `IN (?, ?, …)` placeholders for a list of `n` values (n ≥ 1). */
export function placeholders(n: number): string {
  return new Array<string>(n).fill("?").join(", ");
}

/**
 * `IN (…)` over one JSON array parameter (`JSON.stringify(ids)`): one constant SQL text for any
 * number of ids, so the statement is prepared once, and no limit on the number of bound parameters
 * (SQLite's 32,766, PostgreSQL's 65,535) is reached by a long list.
 */
export function jsonIdsIn(db: Queryable): string {
  return db.dialect === "sqlite"
    ? "(SELECT value FROM json_each(?))"
    : "(SELECT json_array_elements_text(?::json)::bigint)";
}

/** `jsonIdsIn` for a JSON array of strings. */
export function jsonTextsIn(db: Queryable): string {
  return db.dialect === "sqlite"
    ? "(SELECT value FROM json_each(?))"
    : "(SELECT json_array_elements_text(?::json))";
}
