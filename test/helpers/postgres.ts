import crypto from "node:crypto";
import pg from "pg";
import { migrations } from "../../src/store/migrations/index.js";
import { ddlFor } from "../../src/store/migrations/types.js";
import { openStore } from "../../src/store/open-store.js";

/** The machine's PostgreSQL (trust auth); tests that need it are skipped where none runs. */
export const POSTGRES_BASE_URL =
  process.env["TEST_POSTGRES_URL"] ?? "postgres://postgres@127.0.0.1:5432/test";

export async function postgresAvailable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: POSTGRES_BASE_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** A fresh schema; returns a URL whose connections use it, and a function that drops it. */
export async function freshPostgresSchema(): Promise<{ url: string; drop: () => Promise<void> }> {
  const schema = `t_${crypto.randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: POSTGRES_BASE_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const url = `${POSTGRES_BASE_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  return {
    url,
    async drop() {
      const c = new pg.Client({ connectionString: POSTGRES_BASE_URL });
      await c.connect();
      await c.query(`DROP SCHEMA ${schema} CASCADE`);
      await c.end();
    },
  };
}

/**
 * Connection options every test server's PostgreSQL connections get: its schema, and commits that
 * do not wait for the disk (visibility and atomicity are unchanged; only an OS crash could lose the
 * last commits of a test database, which is thrown away anyway).
 */
function testUrl(schema: string): string {
  return `${POSTGRES_BASE_URL}?options=${encodeURIComponent(`-c search_path=${schema} -c synchronous_commit=off`)}`;
}

/** Identifies the schema the migrations build (a change to any of them starts a new pool). */
const FINGERPRINT = crypto
  .createHash("sha256")
  .update(JSON.stringify(migrations.map((m) => [m.id, m.up(ddlFor("postgres"))])))
  .digest("hex")
  .slice(0, 10);
const TEMPLATE = `tpl_${FINGERPRINT}`;
const POOL_TABLE = "public.test_schema_pool";

let admin: pg.Pool | undefined;
function adminPool(): pg.Pool {
  admin ??= new pg.Pool({
    connectionString: POSTGRES_BASE_URL,
    max: 2,
    idleTimeoutMillis: 1000,
    allowExitOnIdle: true,
  });
  return admin;
}

async function migrateSchema(schema: string): Promise<void> {
  await adminPool().query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
  const db = await openStore({ databaseUrl: testUrl(schema) });
  await db.close();
}

/** What resetting a used schema to the migrated state takes: statements read once per Jest module. */
let resetScript: Promise<(schema: string) => string> | undefined;

/**
 * Once per run (per fingerprint, under an advisory lock): the pool table and the template schema,
 * a freshly migrated schema nobody writes to. Builds the function that writes the SQL resetting a
 * used schema to the template's state: every table emptied, the tables the migrations fill (the
 * system user groups) copied back, every sequence set where the template's stands.
 */
async function prepare(): Promise<(schema: string) => string> {
  const c = await adminPool().connect();
  try {
    await c.query("SELECT pg_advisory_lock(1717)");
    await c.query(
      `CREATE TABLE IF NOT EXISTS ${POOL_TABLE} (name TEXT PRIMARY KEY, fingerprint TEXT NOT NULL)`,
    );
    // Migrated completely (a run killed while building it leaves it half done: migrate finishes it).
    const applied = await c
      .query<{ n: string }>(`SELECT count(*) AS n FROM ${TEMPLATE}.schema_migrations`)
      .then((r) => Number(r.rows[0]?.n ?? 0))
      .catch(() => 0);
    if (applied !== migrations.length) await migrateSchema(TEMPLATE);
    // Pools built from other migrations are of no use any more.
    const stale = await c.query<{ name: string }>(
      `DELETE FROM ${POOL_TABLE} WHERE fingerprint <> $1 RETURNING name`,
      [FINGERPRINT],
    );
    for (const { name } of stale.rows) await c.query(`DROP SCHEMA IF EXISTS ${name} CASCADE`);
  } finally {
    await c.query("SELECT pg_advisory_unlock(1717)");
    c.release();
  }
  const tables = (
    await adminPool().query<{ name: string }>(
      "SELECT tablename AS name FROM pg_tables WHERE schemaname = $1 AND tablename <> 'schema_migrations' ORDER BY 1",
      [TEMPLATE],
    )
  ).rows.map((r) => r.name);
  const filled: string[] = [];
  for (const t of tables) {
    const any = await adminPool().query(`SELECT 1 FROM ${TEMPLATE}.${t} LIMIT 1`);
    if (any.rowCount !== 0) filled.push(t);
  }
  const sequences: { name: string; last: string; called: boolean }[] = [];
  for (const { name } of (
    await adminPool().query<{ name: string }>(
      "SELECT sequencename AS name FROM pg_sequences WHERE schemaname = $1",
      [TEMPLATE],
    )
  ).rows) {
    const s = await adminPool().query<{ last_value: string; is_called: boolean }>(
      `SELECT last_value, is_called FROM ${TEMPLATE}.${name}`,
    );
    sequences.push({ name, last: String(s.rows[0]!.last_value), called: s.rows[0]!.is_called });
  }
  return (schema) =>
    [
      "BEGIN",
      // Foreign keys are not checked while the tables are emptied (superuser, this transaction only).
      "SET LOCAL session_replication_role = replica",
      ...tables.map((t) => `DELETE FROM ${schema}.${t}`),
      ...filled.map((t) => `INSERT INTO ${schema}.${t} SELECT * FROM ${TEMPLATE}.${t}`),
      ...sequences.map((s) => `SELECT setval('${schema}.${s.name}', ${s.last}, ${s.called})`),
      "COMMIT",
    ].join(";\n");
}

/**
 * A migrated schema for one test server (TEST_STACK=postgres-redis), from a pool shared by every
 * Jest worker: a schema is migrated once, and when its server closes it is reset to the migrated
 * state (tables emptied, seed rows and sequences as the template has them) and goes back to the
 * pool, instead of being dropped and another migrated for the next server (about 1 s of
 * PostgreSQL work each on a loaded machine, against a few tens of milliseconds).
 */
export async function pooledPostgresSchema(): Promise<{ url: string; release: () => Promise<void> }> {
  resetScript ??= prepare();
  const reset = await resetScript;
  const claimed = await adminPool().query<{ name: string }>(
    `DELETE FROM ${POOL_TABLE} WHERE name = (SELECT name FROM ${POOL_TABLE} WHERE fingerprint = $1 LIMIT 1 FOR UPDATE SKIP LOCKED) RETURNING name`,
    [FINGERPRINT],
  );
  let schema = claimed.rows[0]?.name;
  if (schema === undefined) {
    schema = `tp_${crypto.randomBytes(6).toString("hex")}`;
    await migrateSchema(schema);
  }
  const name = schema;
  return {
    url: testUrl(name),
    async release() {
      await adminPool().query(reset(name));
      await adminPool().query(`INSERT INTO ${POOL_TABLE} (name, fingerprint) VALUES ($1, $2)`, [
        name,
        FINGERPRINT,
      ]);
    },
  };
}
