import type { Db } from "../db.js";

/** Column types that differ between the dialects; everything else is written once. */
export interface Ddl {
  /** An auto-incrementing integer primary key. */
  id: string;
  /** A 64-bit integer (times, ids that reference an `id`). */
  bigint: string;
  /** For the few statements that differ (full-text search). */
  dialect: Db["dialect"];
}

export function ddlFor(dialect: Db["dialect"]): Ddl {
  return dialect === "sqlite"
    ? { id: "INTEGER PRIMARY KEY AUTOINCREMENT", bigint: "INTEGER", dialect }
    : { id: "BIGSERIAL PRIMARY KEY", bigint: "BIGINT", dialect };
}

export interface Migration {
  /** Unique, ordered: "001-foundation". Never renamed once shipped. */
  id: string;
  /** SQL script for the dialect (several statements separated by `;`). */
  up(ddl: Ddl): string;
}
