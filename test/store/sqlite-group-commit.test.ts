import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SqliteDb } from "../../src/store/sqlite.js";

let dir: string;
let db: SqliteDb;
beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "group-commit-"));
  db = new SqliteDb(path.join(dir, "t.sqlite3"));
  await db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)");
});
afterEach(async () => {
  await db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const values = async (): Promise<string[]> =>
  (await db.all<{ v: string }>("SELECT v FROM t ORDER BY id")).map((r) => r.v);

describe("SqliteDb transactions", () => {
  it("commits concurrent transactions together, rolling back only the one that failed", async () => {
    const results = await Promise.allSettled([
      db.transaction(async (tx) => {
        await tx.run("INSERT INTO t (v) VALUES (?)", ["a"]);
        await tx.run("INSERT INTO t (v) VALUES (?)", ["a2"]);
        return 1;
      }),
      db.transaction(async (tx) => {
        await tx.run("INSERT INTO t (v) VALUES (?)", ["b"]);
        throw new Error("boom");
      }),
      db.transaction(async (tx) => {
        await tx.run("INSERT INTO t (v) VALUES (?)", ["c"]);
        return 3;
      }),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(await values()).toEqual(["a", "a2", "c"]);
  });

  it("never interleaves two transactions' statements", async () => {
    const order: string[] = [];
    await Promise.all(
      ["x", "y"].map((name) =>
        db.transaction(async (tx) => {
          order.push(`${name}1`);
          await tx.run("INSERT INTO t (v) VALUES (?)", [name]);
          await new Promise((r) => setTimeout(r, 5));
          order.push(`${name}2`);
        }),
      ),
    );
    expect(order).toEqual(["x1", "x2", "y1", "y2"]);
  });

  it("keeps a write made outside a transaction out of a rolled-back one", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const failing = db.transaction(async (tx) => {
      await tx.run("INSERT INTO t (v) VALUES (?)", ["doomed"]);
      await gate;
      throw new Error("rollback");
    });
    const outside = db.run("INSERT INTO t (v) VALUES (?)", ["kept"]);
    release();
    await expect(failing).rejects.toThrow("rollback");
    await outside;
    expect(await values()).toEqual(["kept"]);
  });

  it("resolves only after the data is committed (visible to a second connection)", async () => {
    await db.transaction((tx) => tx.run("INSERT INTO t (v) VALUES (?)", ["durable"]));
    const other = new SqliteDb(path.join(dir, "t.sqlite3"));
    expect((await other.all<{ v: string }>("SELECT v FROM t")).map((r) => r.v)).toEqual(["durable"]);
    await other.close();
  });
});
