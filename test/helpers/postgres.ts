import crypto from "node:crypto";
import pg from "pg";

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
