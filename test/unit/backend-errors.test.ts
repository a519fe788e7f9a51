/**
 * What the HTTP layer answers when the database refuses a write because another request got there
 * first (src/http/backend-unavailable.ts): real errors from better-sqlite3 and from the machine's
 * PostgreSQL, thrown inside a real Koa app behind the same two middlewares as the chat server's.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import Database from "better-sqlite3";
import Koa from "koa";
import pg from "pg";
import { backendUnavailable } from "../../src/http/backend-unavailable.js";
import { errorHandler } from "../../src/lib/error-handler.js";
import type { Logger } from "../../src/lib/logger.js";
import { POSTGRES_BASE_URL, postgresAvailable } from "../helpers/postgres.js";

const warnings: { msg: string; fields: Record<string, unknown> | undefined }[] = [];
const logger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: (msg, fields) => warnings.push({ msg, fields }),
  error: () => undefined,
};

let server: Server;
let url: string;
let hasPostgres = false;

/** Runs `fail` as a request's work and returns the answer. */
const routes = new Map<string, () => Promise<void> | void>();
async function answerOf(
  path: string,
  fail: () => Promise<void> | void,
): Promise<{ status: number; body: unknown }> {
  routes.set(path, fail);
  const res = await fetch(`${url}${path}`, { method: "POST" });
  return { status: res.status, body: await res.json() };
}

beforeAll(async () => {
  hasPostgres = await postgresAvailable();
  const app = new Koa();
  app.use(errorHandler(logger));
  app.use(backendUnavailable(logger));
  app.use(async (ctx) => {
    await routes.get(ctx.path)!();
    ctx.body = { result: "success", msg: "" };
  });
  server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const CONFLICT = {
  status: 400,
  body: {
    result: "error",
    msg: "Another request changed the same thing at the same time; try again",
    code: "BAD_REQUEST",
  },
};

describe("a write that lost a race with another request", () => {
  it("is a 400 naming the conflict, not a 500, on SQLite (a unique key written twice), and is logged", async () => {
    const db = new Database(":memory:");
    db.exec("CREATE TABLE muted (user_id INTEGER, other_id INTEGER, PRIMARY KEY (user_id, other_id))");
    db.exec("CREATE TABLE alerts (user_id INTEGER, word TEXT, UNIQUE (user_id, word))");
    const insertTwice = (sql: string) => () => {
      db.prepare(sql).run();
      db.prepare(sql).run();
    };
    expect(await answerOf("/sqlite-key", insertTwice("INSERT INTO muted VALUES (1, 2)"))).toEqual(CONFLICT);
    expect(await answerOf("/sqlite-unique", insertTwice("INSERT INTO alerts VALUES (1, 'ghost')"))).toEqual(
      CONFLICT,
    );
    expect(warnings.at(-1)).toEqual({
      msg: "write lost a race with a concurrent request",
      fields: {
        method: "POST",
        path: "/sqlite-unique",
        reason: expect.stringContaining("UNIQUE constraint"),
      },
    });
    db.close();
  });

  it("is the same 400 on PostgreSQL (a unique key written twice)", async () => {
    if (!hasPostgres) {
      process.stderr.write("PostgreSQL is not running on 127.0.0.1:5432: the PostgreSQL case was skipped\n");
      return;
    }
    const client = new pg.Client({ connectionString: POSTGRES_BASE_URL });
    await client.connect();
    try {
      await client.query(
        "CREATE TEMP TABLE muted (user_id INT, other_id INT, PRIMARY KEY (user_id, other_id))",
      );
      const answer = await answerOf("/pg-key", async () => {
        await client.query("INSERT INTO muted VALUES (1, 2)");
        await client.query("INSERT INTO muted VALUES (1, 2)");
      });
      expect(answer).toEqual(CONFLICT);
    } finally {
      await client.end();
    }
  });

  it("leaves other database errors as they were: a 500 for a bad statement", async () => {
    const db = new Database(":memory:");
    const answer = await answerOf("/sqlite-bad", () => {
      db.prepare("SELECT * FROM no_such_table").all();
    });
    expect(answer).toEqual({ status: 500, body: { result: "error", msg: "Internal server error" } });
    db.close();
  });
});
