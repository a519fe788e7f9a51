import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { migrate } from "../../src/store/migrate.js";
import { openStore } from "../../src/store/open-store.js";
import { SEARCH_CATCH_UP_SQL } from "../../src/store/search-index.js";
import { SqliteDb } from "../../src/store/sqlite.js";
import { MessagesRepo } from "../../src/store/messages-repo.js";

/**
 * SQLite's batched full-text index (migration 026): messages enter the index when it catches up
 * (before a search, every second), and edits and deletes keep it exact on both sides of `upto`.
 */
let dir: string;
let db: SqliteDb;
beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "search-index-"));
  db = new SqliteDb(path.join(dir, "chat.sqlite3")); // no timer: the test decides when to catch up
  await migrate(db);
  await db.exec("PRAGMA foreign_keys = OFF");
});
afterEach(async () => {
  await db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function insert(topic: string, content: string): Promise<number> {
  const row = await db.get<{ id: number }>(
    `INSERT INTO messages (sender_id, recipient_id, stream_id, topic, content, rendered_content, client, date_sent)
     VALUES (1, 1, 1, ?, ?, '', 'test', 0) RETURNING id`,
    [topic, content],
  );
  return row!.id;
}

const matches = async (query: string): Promise<number[]> =>
  (
    await db.all<{ rowid: number }>(
      "SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rowid",
      [query],
    )
  ).map((r) => r.rowid);

const upto = async (): Promise<number> =>
  (await db.get<{ upto: number }>("SELECT upto FROM messages_fts_state"))!.upto;

describe("the batched full-text index", () => {
  it("indexes new messages only when it catches up, all of them in one statement", async () => {
    const a = await insert("deploy", "the build failed");
    const b = await insert("lunch", "pizza today");
    expect(await upto()).toBe(0);
    expect(await matches("pizza")).toEqual([]);
    expect((await db.run(SEARCH_CATCH_UP_SQL)).changes).toBe(1);
    expect(await upto()).toBe(b);
    expect(await matches("pizza")).toEqual([b]);
    expect(await matches("deploy")).toEqual([a]);
    expect(await matches("fail")).toEqual([a]); // Porter stemming, as before
    expect((await db.run(SEARCH_CATCH_UP_SQL)).changes).toBe(0); // nothing left: no write
  });

  it("keeps edits and deletes exact for messages in the index and for those still waiting", async () => {
    const indexed = await insert("deploy", "pizza in the index");
    const gone = await insert("deploy", "doomed words");
    await db.run(SEARCH_CATCH_UP_SQL);
    const waiting = await insert("lunch", "sushi waiting");
    const waitingGone = await insert("lunch", "vanishing words");

    await db.run("UPDATE messages SET content = ? WHERE id = ?", ["ramen in the index", indexed]);
    await db.run("UPDATE messages SET content = ?, topic = ? WHERE id = ?", ["tacos", "dinner", waiting]);
    await db.run("DELETE FROM messages WHERE id IN (?, ?)", [gone, waitingGone]);
    expect(await matches("pizza")).toEqual([]);
    expect(await matches("ramen")).toEqual([indexed]);
    expect(await matches("doomed")).toEqual([]);

    await db.run(SEARCH_CATCH_UP_SQL);
    expect(await matches("tacos")).toEqual([waiting]);
    expect(await matches("dinner")).toEqual([waiting]);
    expect(await matches("sushi")).toEqual([]);
    expect(await matches("vanishing")).toEqual([]);
    expect(await matches("words")).toEqual([]);
    // The index agrees with its content table (FTS5's own consistency check throws if not).
    await db.run("INSERT INTO messages_fts(messages_fts, rank) VALUES ('integrity-check', 1)");
  });

  it("stays exact when a topic's messages are renamed or deleted together (one statement each)", async () => {
    const repo = new MessagesRepo(db);
    const indexed = [await insert("standup", "alpha"), await insert("standup", "beta")];
    await db.run(SEARCH_CATCH_UP_SQL);
    const waiting = [await insert("standup", "gamma")];
    await repo.updateTopics([...indexed, ...waiting], "retro");
    expect(await matches("standup")).toEqual([]);
    expect(await matches("retro")).toEqual(indexed);
    await db.run(SEARCH_CATCH_UP_SQL);
    expect(await matches("retro")).toEqual([...indexed, ...waiting]);

    expect(await repo.deleteMany([indexed[0]!, waiting[0]!, 999_999])).toEqual([indexed[0], waiting[0]]);
    expect(await matches("retro")).toEqual([indexed[1]]);
    expect(await matches("alpha OR gamma")).toEqual([]);
    await db.run("INSERT INTO messages_fts(messages_fts, rank) VALUES ('integrity-check', 1)");
  });

  it("catches up on its own every second in a store opened by openStore", async () => {
    await db.close();
    const store = await openStore({ dataDir: dir });
    try {
      await store.exec("PRAGMA foreign_keys = OFF");
      const id = (await store.get<{ id: number }>(
        `INSERT INTO messages (sender_id, recipient_id, stream_id, topic, content, rendered_content, client, date_sent)
         VALUES (1, 1, 1, 't', 'eventually found', '', 'test', 0) RETURNING id`,
      ))!.id;
      const deadline = Date.now() + 5000;
      let state = 0;
      while (state < id && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
        state = (await store.get<{ upto: number }>("SELECT upto FROM messages_fts_state"))!.upto;
      }
      expect(state).toBe(id);
    } finally {
      await store.close();
      db = new SqliteDb(path.join(dir, "chat.sqlite3"));
    }
  });
});
