/**
 * The delivery log's promise on a clean shutdown: entries still queued (here 60 s after their
 * request) are written before the store closes.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "@jest/globals";
import { DeliveriesRepo } from "../../src/store/deliveries-repo.js";
import { openDeliveriesDb } from "../../src/store/deliveries-db.js";
import { startTestServer } from "../helpers/test-server.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

it("writes every queued entry when the server closes", async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "deliveries-shutdown-"));
  dirs.push(dataDir);
  // A SQLite file of its own (kept on every test stack: a pooled PostgreSQL schema is reset when
  // the server closes), and a flush delay far longer than the test: only the close can write.
  const databaseUrl = `sqlite:${path.join(dataDir, "chat.sqlite3")}`;
  const t = await startTestServer({
    config: { dataDir, databaseUrl, deliveryLog: { flushDelayMs: 60_000 } },
  });
  const bot = t.users.webhookBot;
  const body = '{"featured_title":"Hamlet","featured_url":"https://en.wikipedia.org/wiki/Hamlet"}';
  const statuses: number[] = [];
  for (let i = 0; i < 3; i++) {
    const res = await fetch(`${t.url}/api/v1/external/helloworld?api_key=${bot.apiKey}&stream=nowhere`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    await res.text();
    statuses.push(res.status);
  }
  expect(statuses).toEqual([200, 200, 200]);
  await t.close();

  // The log of a SQLite file store is in its own file (written by its writer thread).
  const { db } = await openDeliveriesDb(
    path.join(dataDir, "deliveries.sqlite3"),
    path.join(dataDir, "chat.sqlite3"),
  );
  try {
    const entries = await new DeliveriesRepo(db).list({ botId: bot.id, limit: 10 });
    expect(entries.map((e) => [e.outcome, e.url, e.requestBody])).toEqual([
      ["failed", "/api/v1/external/helloworld?stream=nowhere", body],
      ["failed", "/api/v1/external/helloworld?stream=nowhere", body],
      ["failed", "/api/v1/external/helloworld?stream=nowhere", body],
    ]);
  } finally {
    await db.close();
  }
});
