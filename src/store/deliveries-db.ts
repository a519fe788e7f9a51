import path from "node:path";
import { webhookDeliveriesSchema } from "./migrations/020-webhook-deliveries.js";
import { ddlFor } from "./migrations/types.js";
import { ensureSecretFile, secureSqliteFiles, sqliteFileOf } from "../secure-files.js";
import { SqliteDb } from "./sqlite.js";
import type { Db } from "./db.js";
import { deliveriesStore } from "./deliveries-repo.js";
import type { DeliveriesRepo } from "./deliveries-repo.js";
import type { TransactionalRepo } from "./repos.js";

/**
 * The delivery log's own SQLite file, next to the main store: the log's writer thread writes it
 * (src/domain/deliveries/writer-thread.ts), so that its commits never take the main file's write
 * lock, which the server's (synchronous) thread would otherwise wait for.
 */

/** Where a SQLite store's delivery log lives: `deliveries.sqlite3` beside `chat.sqlite3`, else `<file>.deliveries.sqlite3`. */
export function deliveriesFileOf(mainFile: string): string {
  const base = path.basename(mainFile);
  return path.join(
    path.dirname(mainFile),
    base === "chat.sqlite3" ? "deliveries.sqlite3" : `${base}.deliveries.sqlite3`,
  );
}

/**
 * The delivery log's file for a store configuration, or undefined when the log stays in the main
 * store (PostgreSQL, in-memory SQLite).
 */
export function deliveriesFileFor(store: {
  databaseUrl: string | undefined;
  dataDir: string;
}): { file: string; mainFile: string } | undefined {
  const mainFile = sqliteFileOf(store.databaseUrl, store.dataDir);
  return mainFile === undefined ? undefined : { file: deliveriesFileOf(mainFile), mainFile };
}

/**
 * Where the delivery log is written, as the composition root finds it for the server's store: in
 * the main store (PostgreSQL, in-memory SQLite), or in a file of its own beside a SQLite file.
 */
export type DeliveriesLocation =
  | { kind: "main-store"; store: TransactionalRepo<DeliveriesRepo> }
  | { kind: "own-file"; file: string; mainFile: string };

export function deliveriesLocation(
  db: Db,
  where: { databaseUrl: string | undefined; dataDir: string },
): DeliveriesLocation {
  const target = deliveriesFileFor(where);
  return target === undefined
    ? { kind: "main-store", store: deliveriesStore(db) }
    : { kind: "own-file", ...target };
}

/** The log's own file, opened (openDeliveriesDb) as its repository. */
export interface DeliveriesFile {
  store: TransactionalRepo<DeliveriesRepo>;
  /** How many entries of the main store were copied in when the file was created. */
  imported: number;
  close(): Promise<void>;
}

export async function openDeliveriesFile(file: string, mainFile: string): Promise<DeliveriesFile> {
  const { db, imported } = await openDeliveriesDb(file, mainFile);
  return { store: deliveriesStore(db), imported, close: () => db.close() };
}

/** Migration 020's table and indexes, without its foreign key (the users are in the main file). */
const SCHEMA = `${webhookDeliveriesSchema(ddlFor("sqlite"), { botForeignKey: false, ifNotExists: true })};
CREATE TABLE IF NOT EXISTS deliveries_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);`;

const COLUMNS =
  "id, bot_id, created_ms, direction, integration, event, method, url, request_headers, request_body, request_form, body_truncated, response_status, response_body, outcome, message_ids, attempts, error, replay_of";

/** Marks a file whose entries of the main store's table were copied (done once, at creation). */
const IMPORTED = "imported_main_store";

/**
 * Opens (creating if needed, mode 0600) the delivery log's file. When the file is new, the entries
 * still in the main store's `webhook_deliveries` (written before the log had its own file) are
 * copied into it with their ids, then deleted from the main store; the table itself stays there
 * (migration 020). Returns the store and how many entries were copied.
 */
export async function openDeliveriesDb(
  file: string,
  mainFile: string,
): Promise<{ db: SqliteDb; imported: number }> {
  ensureSecretFile(file);
  const db = new SqliteDb(file);
  try {
    // A smaller page cache than the main store's: the log is written and read back by small pages.
    await db.exec("PRAGMA cache_size = -8192");
    await db.exec(SCHEMA);
    await addColumnsOfLaterMigrations(db);
    let imported = 0;
    const done = await db.get<{ value: string }>("SELECT value FROM deliveries_meta WHERE key = ?", [
      IMPORTED,
    ]);
    if (done === undefined) imported = await importFromMain(db, mainFile);
    secureSqliteFiles(file);
    return { db, imported };
  } catch (err) {
    await db.close();
    throw err;
  }
}

/**
 * Columns later main-store migrations added to `webhook_deliveries` (100: `old_credential`), added
 * to a file created before them.
 */
async function addColumnsOfLaterMigrations(db: SqliteDb): Promise<void> {
  const columns = await db.all<{ name: string }>("PRAGMA table_info(webhook_deliveries)");
  if (!columns.some((c) => c.name === "old_credential"))
    await db.exec("ALTER TABLE webhook_deliveries ADD COLUMN old_credential TEXT");
}

async function importFromMain(db: SqliteDb, mainFile: string): Promise<number> {
  let upto: number | undefined;
  let count = 0;
  let attached = false;
  try {
    await db.run("ATTACH DATABASE ? AS main_store", [mainFile]);
    attached = true;
    await db.transaction(async (tx) => {
      const table = await tx.get<{ name: string }>(
        "SELECT name FROM main_store.sqlite_master WHERE type = 'table' AND name = 'webhook_deliveries'",
      );
      if (table !== undefined) {
        const max = await tx.get<{ upto: number | null; n: number }>(
          "SELECT MAX(id) AS upto, COUNT(*) AS n FROM main_store.webhook_deliveries",
        );
        if (max?.upto !== null && max?.upto !== undefined) {
          upto = max.upto;
          count = max.n;
          await tx.run(
            `INSERT OR IGNORE INTO webhook_deliveries (${COLUMNS}) SELECT ${COLUMNS} FROM main_store.webhook_deliveries WHERE id <= ?`,
            [upto],
          );
        }
      }
      await tx.run("INSERT INTO deliveries_meta (key, value) VALUES (?, ?)", [IMPORTED, String(Date.now())]);
    });
    // Committed above: the copies are safe, the originals can go (a crash here leaves them in the
    // main store, never copied twice: the mark says the import is done).
    if (upto !== undefined) await db.run("DELETE FROM main_store.webhook_deliveries WHERE id <= ?", [upto]);
  } finally {
    if (attached) await db.run("DETACH DATABASE main_store");
  }
  return count;
}
