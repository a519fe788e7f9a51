import fs from "node:fs";
import path from "node:path";
import type { Db } from "./db.js";
import { migrate } from "./migrate.js";
import type { PostgresTimeouts } from "./postgres.js";
import { SqliteDb } from "./sqlite.js";
import { SEARCH_CATCH_UP_MS, SEARCH_CATCH_UP_SQL } from "./search-index.js";

/**
 * Opens the store named by `databaseUrl` (postgres://… or sqlite:PATH), or by default the SQLite
 * file `chat.sqlite3` in `dataDir` (":memory:" for tests), and applies pending migrations.
 */
export async function openStore(options: {
  databaseUrl?: string | undefined;
  dataDir?: string;
  /** PostgreSQL: the request-time limits (migrations run without a statement limit). */
  timeouts?: PostgresTimeouts | undefined;
}): Promise<Db> {
  const url = options.databaseUrl;
  let db: Db;
  if (url !== undefined && /^postgres(ql)?:\/\//.test(url)) {
    const { PostgresDb } = await import("./postgres.js"); // node-postgres only when it is used
    const timeouts = options.timeouts ?? { connectTimeoutMs: 5000, statementTimeoutMs: 5000 };
    const migrator = PostgresDb.connect(url, { ...timeouts, statementTimeoutMs: 0 });
    try {
      await migrate(migrator);
    } finally {
      await migrator.close();
    }
    return PostgresDb.connect(url, timeouts);
  } else if (url !== undefined && url.startsWith("sqlite:")) {
    db = new SqliteDb(url.slice("sqlite:".length));
  } else if (url !== undefined && url !== "") {
    throw new Error(`Unsupported database URL '${url}': use postgres://… or sqlite:PATH`);
  } else if (options.dataDir === ":memory:") {
    db = new SqliteDb(":memory:");
  } else {
    const dir = options.dataDir ?? "data";
    fs.mkdirSync(dir, { recursive: true });
    db = new SqliteDb(path.join(dir, "chat.sqlite3"));
  }
  await migrate(db);
  if (db instanceof SqliteDb) db.every(SEARCH_CATCH_UP_MS, SEARCH_CATCH_UP_SQL);
  return db;
}
