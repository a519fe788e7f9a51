import type { Db } from "./db.js";
import { ddlFor } from "./migrations/types.js";
import type { Migration } from "./migrations/types.js";
import { migrations as allMigrations } from "./migrations/index.js";

/** Applies every migration not yet applied, each in its own transaction. Returns the ids applied. */
export async function migrate(db: Db, migrations: readonly Migration[] = allMigrations): Promise<string[]> {
  await db.exec(
    "CREATE TABLE IF NOT EXISTS schema_migrations (id TEXT PRIMARY KEY, applied_at TEXT NOT NULL)",
  );
  const done = new Set(
    (await db.all<{ id: string }>("SELECT id FROM schema_migrations")).map((row) => row.id),
  );
  const ddl = ddlFor(db.dialect);
  const applied: string[] = [];
  for (const migration of migrations) {
    if (done.has(migration.id)) continue;
    await db.transaction(async (tx) => {
      for (const statement of migration.up(ddl).split(/;\s*\n/)) {
        if (statement.trim() !== "") await tx.exec(statement);
      }
      await tx.run("INSERT INTO schema_migrations (id, applied_at) VALUES (?, ?)", [
        migration.id,
        new Date().toISOString(),
      ]);
    });
    applied.push(migration.id);
  }
  return applied;
}
