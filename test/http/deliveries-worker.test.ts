/**
 * The delivery log of a SQLite file store: its own file (deliveries.sqlite3, mode 0600) written by
 * a writer thread. Reads see every answered request, replays get the new id, retention holds,
 * nothing answered is lost on close or restart, old entries of the main store are copied over,
 * a failing write never breaks a webhook, a thread that cannot start falls back to the server's
 * thread, and no secret reaches the file.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, afterEach, describe, expect, it } from "@jest/globals";
import { ManualClock } from "../../src/clock.js";
import type { Logger } from "../../src/lib/logger.js";
import { DeliveryLog } from "../../src/domain/deliveries/delivery-log.js";
import type { IncomingCapture } from "../../src/domain/deliveries/entries.js";
import { DEFAULT_DELIVERY_LOG } from "../../src/domain/deliveries/types.js";
import type { DeliveryLogConfig } from "../../src/domain/deliveries/types.js";
import { deliveriesFileFor } from "../../src/store/deliveries-db.js";
import type { DeliveriesLocation } from "../../src/store/deliveries-db.js";
import { openStore } from "../../src/store/open-store.js";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer } from "../helpers/test-server.js";
import { rawRequest } from "./deliveries-helpers.js";

const dirs: string[] = [];
const servers: TestServer[] = [];
afterEach(async () => {
  for (const t of servers.splice(0)) await t.close();
});
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "deliveries-worker-"));
  dirs.push(dir);
  return dir;
}

/** The log's own file beside a SQLite store in `dir` (where a file store's log goes). */
function ownFile(dir: string): DeliveriesLocation {
  const target = deliveriesFileFor({ databaseUrl: undefined, dataDir: dir });
  if (target === undefined) throw new Error(`no SQLite file in ${dir}`);
  return { kind: "own-file", ...target };
}

/** A server on a SQLite file of its own (on every test stack). */
async function server(
  dataDir: string,
  opts: { clock?: ManualClock; deliveryLog?: Partial<DeliveryLogConfig> } = {},
): Promise<TestServer> {
  const t = await startTestServer({
    config: {
      dataDir,
      databaseUrl: `sqlite:${path.join(dataDir, "chat.sqlite3")}`,
      ...(opts.deliveryLog ? { deliveryLog: { ...DEFAULT_DELIVERY_LOG, ...opts.deliveryLog } } : {}),
    },
    ...(opts.clock ? { clock: opts.clock } : {}),
  });
  servers.push(t);
  return t;
}

const hamlet = '{"featured_title":"Hamlet","featured_url":"https://en.wikipedia.org/wiki/Hamlet"}';

async function helloworld(t: TestServer, query = "stream=nowhere", body = hamlet): Promise<number> {
  const res = await rawRequest(
    t.url,
    "POST",
    `/api/v1/external/helloworld?api_key=${t.users.webhookBot.apiKey}&${query}`,
    { "content-type": "application/json" },
    body,
  );
  return res.status;
}

async function list(t: TestServer): Promise<Record<string, unknown>[]> {
  const res = await t.api.get(`/api/v1/bots/${t.users.webhookBot.id}/deliveries`, { as: t.users.iago });
  expect(res.status).toBe(200);
  return res.body.deliveries as Record<string, unknown>[];
}

const urls = (entries: Record<string, unknown>[]): string[] =>
  entries.map((d) => (d["request"] as { url: string }).url);

/** Rows of a SQLite file's webhook_deliveries, read with a connection of the test's own. */
function rows(file: string): { id: number; bot_id: number; url: string; request_body: string | Buffer }[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare("SELECT id, bot_id, url, request_body FROM webhook_deliveries ORDER BY id").all() as {
      id: number;
      bot_id: number;
      url: string;
      request_body: string | Buffer;
    }[];
  } finally {
    db.close();
  }
}

function recordingLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const at = (level: string) => (msg: string, fields?: Record<string, unknown>) => {
    lines.push(`${level} ${msg} ${JSON.stringify(fields ?? {})}`);
  };
  return { logger: { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") }, lines };
}

function capture(botId: number, url: string, body: string): IncomingCapture {
  return {
    botId,
    createdMs: Date.UTC(2026, 10, 24),
    integration: "helloworld",
    event: "default",
    method: "POST",
    url,
    headers: { "content-type": "application/json" },
    rawBody: Buffer.from(body, "utf8"),
    form: undefined,
    responseStatus: 200,
    responseBody: '{"result":"success","msg":""}',
    outcome: "sent",
    messageIds: [1],
    error: undefined,
    replayOf: null,
  };
}

async function waitFor(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
}

describe("the delivery log's own file", () => {
  it("holds the entries, 0600, readable right after the request; the main file holds none", async () => {
    const dir = tempDir();
    const t = await server(dir);
    expect(await helloworld(t, "stream=nowhere")).toBe(200);
    // No wait: the read has the writer thread write what was handed over before it.
    const entries = await list(t);
    expect(urls(entries)).toEqual(["/api/v1/external/helloworld?stream=nowhere"]);
    expect(entries[0]!["outcome"]).toBe("failed");
    const file = path.join(dir, "deliveries.sqlite3");
    for (const f of [file, `${file}-wal`, `${file}-shm`]) {
      expect([f, fs.statSync(f).mode & 0o777]).toEqual([f, 0o600]);
    }
    expect(rows(file).map((r) => r.url)).toEqual(["/api/v1/external/helloworld?stream=nowhere"]);
    expect(rows(path.join(dir, "chat.sqlite3"))).toEqual([]);
  });

  it("answers a replay with the new entry's id", async () => {
    const t = await server(tempDir());
    await helloworld(t, "stream=later");
    const [failed] = await list(t);
    const sub = await t.api.post("/api/v1/users/me/subscriptions", {
      as: t.users.iago,
      params: { subscriptions: [{ name: "later" }], principals: [t.users.webhookBot.email] },
    });
    expect(sub.status).toBe(200);
    const res = await t.api.post(
      `/api/v1/bots/${t.users.webhookBot.id}/deliveries/${failed!["id"] as number}/replay`,
      { as: t.users.iago },
    );
    expect(res.status).toBe(200);
    const delivery = res.body.delivery as Record<string, unknown>;
    expect(delivery["id"]).toBe((failed!["id"] as number) + 1);
    expect(delivery["replay_of"]).toBe(failed!["id"]);
    expect(delivery["outcome"]).toBe("sent");
    const entries = await list(t);
    expect(entries.map((d) => d["id"])).toEqual([delivery["id"], failed!["id"]]);
  });

  it("keeps the newest entries per bot and prunes by age", async () => {
    const clock = new ManualClock();
    const t = await server(tempDir(), { clock, deliveryLog: { maxPerBot: 3, maxAgeMs: 24 * 3600 * 1000 } });
    for (let i = 0; i < 5; i++) expect(await helloworld(t, `stream=s${i}`)).toBe(200);
    expect(urls(await list(t))).toEqual([
      "/api/v1/external/helloworld?stream=s4",
      "/api/v1/external/helloworld?stream=s3",
      "/api/v1/external/helloworld?stream=s2",
    ]);
    clock.advance(2 * 24 * 3600 * 1000);
    await helloworld(t, "stream=new");
    expect(urls(await list(t))).toEqual(["/api/v1/external/helloworld?stream=new"]);
  });

  it("writes every answered request on close, with a flush delay far longer than the test", async () => {
    const dir = tempDir();
    const t = await server(dir, { deliveryLog: { flushDelayMs: 60_000 } });
    for (let i = 0; i < 3; i++) expect(await helloworld(t, `stream=c${i}`)).toBe(200);
    servers.splice(servers.indexOf(t), 1);
    await t.close();
    expect(rows(path.join(dir, "deliveries.sqlite3")).map((r) => [r.url, String(r.request_body)])).toEqual([
      ["/api/v1/external/helloworld?stream=c0", hamlet],
      ["/api/v1/external/helloworld?stream=c1", hamlet],
      ["/api/v1/external/helloworld?stream=c2", hamlet],
    ]);
  });

  it("never writes a secret to the file", async () => {
    const dir = tempDir();
    const t = await server(dir);
    const key = t.users.webhookBot.apiKey;
    const body =
      '{"zen":"Keep it logically awesome.","hook_id":1,"token":"body-token-123","secret":"body-secret"}';
    const res = await rawRequest(
      t.url,
      "POST",
      `/api/v1/external/github?api_key=${key}&stream=test&token=query-token-456`,
      {
        "content-type": "application/json",
        "x-github-event": "ping",
        "x-hub-signature-256": "sha256=0123456789abcdef",
        authorization: "Bearer bearer-token-789",
        "x-gitlab-token": "gitlab-token-000",
      },
      body,
    );
    const [entry] = await list(t);
    expect((entry!["response"] as { status: number }).status).toBe(res.status);
    expect((entry!["request"] as { body: string }).body).toBe(
      '{"zen":"Keep it logically awesome.","hook_id":1,"token":"[redacted]","secret":"[redacted]"}',
    );
    servers.splice(servers.indexOf(t), 1);
    await t.close();
    // Every byte of the log's file and its companions (whatever is left of them after the close).
    const file = path.join(dir, "deliveries.sqlite3");
    const bytes = [file, `${file}-wal`, `${file}-shm`]
      .filter((f) => fs.existsSync(f))
      .map((f) => fs.readFileSync(f).toString("latin1"))
      .join("");
    expect(bytes).toContain("Keep it logically awesome.");
    for (const secret of [
      key,
      "body-token-123",
      "body-secret",
      "query-token-456",
      "0123456789abcdef",
      "bearer-token-789",
      "gitlab-token-000",
    ]) {
      expect([secret, bytes.includes(secret)]).toEqual([secret, false]);
    }
  });

  it("logs a failed write and goes on answering webhooks", async () => {
    const dir = tempDir();
    const t = await server(dir);
    expect(await helloworld(t, "stream=before")).toBe(200);
    expect(urls(await list(t))).toEqual(["/api/v1/external/helloworld?stream=before"]);
    const db = new Database(path.join(dir, "deliveries.sqlite3"));
    db.exec("DROP TABLE webhook_deliveries");
    db.close();
    for (let i = 0; i < 3; i++) expect(await helloworld(t, `stream=after${i}`)).toBe(200);
    const read = await t.api.get(`/api/v1/bots/${t.users.webhookBot.id}/deliveries`, { as: t.users.iago });
    expect(read.status).toBe(500);
    expect(await helloworld(t, "stream=still")).toBe(200);
  });
});

describe("DeliveryLog with a file store", () => {
  const config = { ...DEFAULT_DELIVERY_LOG, maxPerBot: 100 };

  /** A log in its own file in a fresh folder (so the writer thread runs). */
  function fileLog(): { dir: string; lines: string[]; log: DeliveryLog } {
    const dir = tempDir();
    const { logger, lines } = recordingLogger();
    const log = new DeliveryLog(ownFile(dir), config, new ManualClock(), logger);
    return { dir, lines, log };
  }

  it("reports a failed write of the writer thread as a warning", async () => {
    const { dir, lines, log } = fileLog();
    try {
      log.recordIncoming(capture(7, "/a", '{"a":1}'));
      expect((await log.list({ botId: 7, limit: 10 })).map((d) => d.url)).toEqual(["/a"]);
      const db = new Database(path.join(dir, "deliveries.sqlite3"));
      db.exec("DROP TABLE webhook_deliveries");
      db.close();
      log.recordIncoming(capture(7, "/b", '{"b":1}'));
      await log.flush();
      await waitFor(() => lines.some((l) => l.startsWith("warn delivery log: could not write entries")));
      expect(lines.filter((l) => l.startsWith("warn"))).toEqual([
        'warn delivery log: could not write entries {"count":1,"error":"no such table: webhook_deliveries"}',
      ]);
    } finally {
      await log.close();
    }
  });

  it("redacts the captures it is handed in the writer thread: no secret reaches the file", async () => {
    const { dir, lines, log } = fileLog();
    try {
      const incoming = capture(7, "/api/v1/external/github?api_key=key-111&token=query-222", "");
      log.recordIncoming({
        ...incoming,
        headers: { "content-type": "application/json", "x-hub-signature-256": "sha256=sig-333" },
        rawBody: Buffer.from('{"ref":"main","secret":"body-444"}', "utf8"),
      });
      log.recordOutgoing(() => ({
        botId: 7,
        createdMs: Date.UTC(2026, 10, 24),
        integration: "generic",
        event: "mention",
        url: "https://bots.example/hook",
        headers: { "x-delivery-id": "1.1" },
        body: '{"data":"hello","token":"outgoing-555"}',
        contentType: "application/json",
        responseStatus: 200,
        responseBody: "{}",
        outcome: "delivered",
        messageIds: [],
        attempts: 1,
        error: undefined,
        replayOf: null,
      }));
      const [outgoing, logged] = await log.list({ botId: 7, limit: 10 });
      expect(logged!.url).toBe("/api/v1/external/github?token=%5Bredacted%5D");
      expect(logged!.requestHeaders["x-hub-signature-256"]).toBe("[redacted]");
      expect(logged!.requestBody).toBe('{"ref":"main","secret":"[redacted]"}');
      expect(outgoing!.requestBody).toBe('{"data":"hello","token":"[redacted]"}');
    } finally {
      await log.close();
    }
    expect(lines).toEqual([]);
    const file = path.join(dir, "deliveries.sqlite3");
    const bytes = [file, `${file}-wal`, `${file}-shm`]
      .filter((f) => fs.existsSync(f))
      .map((f) => fs.readFileSync(f).toString("latin1"))
      .join("");
    expect(bytes).toContain('{"data":"hello","token":"[redacted]"}');
    for (const secret of ["key-111", "query-222", "sig-333", "body-444", "outgoing-555"]) {
      expect([secret, bytes.includes(secret)]).toEqual([secret, false]);
    }
  });

  it("closes once however often asked, and drops (with a warning) what is queued after", async () => {
    const { dir, lines, log } = fileLog();
    log.recordIncoming(capture(7, "/a", '{"a":1}'));
    await Promise.all([log.close(), log.close()]);
    await log.close();
    log.recordIncoming(capture(7, "/late", '{"b":1}'));
    await expect(log.list({ botId: 7, limit: 10 })).rejects.toThrow("the delivery log is closed");
    expect(lines).toEqual(["warn delivery log: an entry queued after the log closed was dropped {}"]);
    expect(rows(path.join(dir, "deliveries.sqlite3")).map((r) => r.url)).toEqual(["/a"]);
  });

  it("keeps its entries across a restart, and copies those of an older main store once", async () => {
    const dir = tempDir();
    const mainFile = path.join(dir, "chat.sqlite3");
    const main = await openStore({ dataDir: dir });
    await main.close();
    // Entries written by a version that kept the log in the main store (bot 7 need not exist here).
    const old = new Database(mainFile);
    old.pragma("foreign_keys = OFF");
    const insert = old.prepare(
      "INSERT INTO webhook_deliveries (id, bot_id, created_ms, direction, integration, method, url, request_headers, request_body, outcome) VALUES (?, 7, ?, 'incoming', 'helloworld', 'POST', ?, '{}', 'x', 'sent')",
    );
    const clock = new ManualClock();
    insert.run(40, clock.now() - 2000, "/old1");
    insert.run(41, clock.now() - 1000, "/old2");
    old.close();

    const { logger, lines } = recordingLogger();
    const open = (): DeliveryLog => new DeliveryLog(ownFile(dir), config, clock, logger);
    const first = open();
    first.recordIncoming(capture(7, "/new", '{"n":1}'));
    expect((await first.list({ botId: 7, limit: 10 })).map((d) => [d.id, d.url])).toEqual([
      [42, "/new"],
      [41, "/old2"],
      [40, "/old1"],
    ]);
    await first.close();
    expect(rows(mainFile)).toEqual([]);
    expect(lines.filter((l) => l.includes("copied"))).toHaveLength(1);

    const second = open();
    try {
      expect((await second.list({ botId: 7, limit: 10 })).map((d) => d.url)).toEqual([
        "/new",
        "/old2",
        "/old1",
      ]);
      expect(lines.filter((l) => l.includes("copied"))).toHaveLength(1);
    } finally {
      await second.close();
    }
  });

  it("writes in the server's thread when the writer thread cannot start, and says so", async () => {
    const dir = tempDir();
    const script = path.join(dir, "broken-writer.js");
    fs.writeFileSync(script, 'throw new Error("no loader here");\n');
    const { logger, lines } = recordingLogger();
    const log = new DeliveryLog(ownFile(dir), config, new ManualClock(), logger, new URL(`file://${script}`));
    try {
      log.recordIncoming(capture(7, "/a", '{"a":1}'));
      // Handed over before the failure shows: redone here, nothing lost.
      await new Promise((r) => setImmediate(r));
      expect((await log.list({ botId: 7, limit: 10 })).map((d) => d.url)).toEqual(["/a"]);
      const warnings = lines.filter((l) => l.startsWith("warn"));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(
        /^warn delivery log: its writer thread failed; writing in the server's thread instead \{"error":".*no loader here","ready":false\}$/,
      );
      log.recordIncoming(capture(7, "/b", '{"b":1}'));
      expect((await log.list({ botId: 7, limit: 10 })).map((d) => d.url)).toEqual(["/b", "/a"]);
    } finally {
      await log.close();
    }
    expect(rows(path.join(dir, "deliveries.sqlite3")).map((r) => r.url)).toEqual(["/a", "/b"]);
  });
});

describe("the delivery log's backlog in GET /metrics", () => {
  async function backlog(t: TestServer): Promise<number | undefined> {
    const text = await (await fetch(`${t.url}/metrics`)).text();
    const line = text.split("\n").find((l) => l.startsWith("chat_delivery_log_backlog "));
    return line === undefined ? undefined : Number(line.slice("chat_delivery_log_backlog ".length));
  }

  it("counts entries handed to the writer thread and not yet written, then none once written", async () => {
    // Written a minute after they are queued: until a read flushes them, they are the backlog.
    const t = await server(tempDir(), { deliveryLog: { flushDelayMs: 60_000 } });
    expect(await backlog(t)).toBe(0);
    for (let i = 0; i < 3; i++) expect(await helloworld(t)).toBe(200);
    expect(await backlog(t)).toBe(3);
    expect(await list(t)).toHaveLength(3);
    expect(await backlog(t)).toBe(0);
  });
});
