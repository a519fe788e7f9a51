/**
 * The crash suite (issue 11): a real server process under mixed load (messages, webhooks, edits,
 * subscriptions, messages that trigger outgoing-webhook deliveries to a local receiver) is killed
 * with SIGKILL at random points and restarted. Afterwards: every acknowledged write is there,
 * nothing is duplicated (outgoing deliveries are at-least-once: a repeat carries the same
 * delivery id), every acknowledged delivery arrives, and `PRAGMA integrity_check` says ok.
 *
 * Seeded (CRASH_SEED); CRASH_CYCLES (default 3, more with LONG_FUZZ=1) sets the number of kills.
 */
import { afterAll, describe, expect, it } from "@jest/globals";
import { spawn } from "node:child_process";
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { freshPostgresSchema, postgresAvailable, POSTGRES_BASE_URL } from "../helpers/postgres.js";

const LONG = process.env["LONG_FUZZ"] === "1";
const CYCLES = Number(process.env["CRASH_CYCLES"] ?? (LONG ? "20" : "3"));
const SEED = Number(process.env["CRASH_SEED"] ?? "1124");

/** mulberry32: a small seeded PRNG. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Server {
  child: ChildProcessWithoutNullStreams;
  url: string;
  exited: Promise<unknown>;
}

const children: ChildProcessWithoutNullStreams[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
});

async function startServer(dataDir: string, databaseUrl: string | undefined): Promise<Server> {
  const child = spawn(
    process.execPath,
    [
      "bin/chat-server.js",
      "serve",
      "--port",
      "0",
      "--data-dir",
      dataDir,
      "--owner-password",
      "crash-owner-pw",
      "--rate-limit",
      "off",
      "--log-level",
      "error",
      "--outgoing-webhook-timeout",
      "2",
      // A job claimed by a killed process is due again 2 + 1 s after its attempt started.
      "--outgoing-webhook-lease-grace",
      "1",
      "--outgoing-webhook-allow",
      "127.0.0.1",
      ...(databaseUrl === undefined ? [] : ["--database", databaseUrl]),
    ],
    { stdio: "pipe" },
  );
  children.push(child);
  let out = "";
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (d: Buffer): void => {
      out += d.toString("utf8");
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m?.[1] !== undefined) resolve(m[1]);
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    void exited.then(() => reject(new Error(`server exited:\n${out}`)));
  });
  return { child, url, exited };
}

function zuliprc(dataDir: string): { email: string; key: string } {
  const text = fs.readFileSync(path.join(dataDir, "zuliprc"), "utf8");
  return { email: /^email=(.*)$/m.exec(text)?.[1] ?? "", key: /^key=(.*)$/m.exec(text)?.[1] ?? "" };
}

interface Receiver {
  url: string;
  /** delivery id → message contents received with it (one entry per request). */
  deliveries: { id: string; data: string }[];
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const deliveries: { id: string; data: string }[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (d: Buffer) => (body += d.toString("utf8")));
    req.on("end", () => {
      const json = JSON.parse(body) as { delivery_id: string; data: string };
      deliveries.push({ id: String(req.headers["x-delivery-id"]) + "|" + json.delivery_id, data: json.data });
      // Answer slowly, so that kills land in the middle of deliveries.
      setTimeout(() => {
        res.setHeader("content-type", "application/json");
        res.end(JSON.stringify({ response_not_required: true }));
      }, 250);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    deliveries,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

interface Acked {
  messages: { id: number; content: string }[];
  webhooks: string[];
  mentions: string[];
  /** message id → content of its acknowledged edit */
  edits: Map<number, string>;
  streams: string[];
}

interface StoreState {
  integrity: string;
  contents: { id: number; content: string }[];
  streams: Set<string>;
}

/** SQLite: PRAGMA integrity_check on the file, read after the server stopped. */
function readSqlite(dataDir: string): StoreState {
  const db = new Database(path.join(dataDir, "chat.sqlite3"), { readonly: true });
  const integrity = String(db.pragma("integrity_check", { simple: true }));
  const contents = db.prepare("SELECT id, content FROM messages").all() as { id: number; content: string }[];
  const streams = new Set(
    (db.prepare("SELECT name FROM streams").all() as { name: string }[]).map((s) => s.name),
  );
  db.close();
  return { integrity, contents, streams };
}

/** PostgreSQL: amcheck's bt_index_check on every B-tree index of the schema ("ok" when all pass). */
async function readPostgres(url: string, schema: string): Promise<StoreState> {
  const admin = new pg.Client({ connectionString: POSTGRES_BASE_URL });
  await admin.connect();
  await admin.query("CREATE EXTENSION IF NOT EXISTS amcheck");
  await admin.end();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let integrity = "ok";
  const indexes = await client.query<{ oid: number; name: string }>(
    `SELECT c.oid, c.relname AS name FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
     JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_am am ON am.oid = c.relam
     WHERE n.nspname = $1 AND am.amname = 'btree'`,
    [schema],
  );
  for (const index of indexes.rows) {
    try {
      await client.query("SELECT public.bt_index_check($1::regclass, true)", [index.oid]);
    } catch (err) {
      integrity = `${index.name}: ${(err as Error).message}`;
    }
  }
  const contents = (
    await client.query<{ id: string; content: string }>("SELECT id, content FROM messages")
  ).rows.map((r) => ({ id: Number(r.id), content: r.content }));
  const streams = new Set(
    (await client.query<{ name: string }>("SELECT name FROM streams")).rows.map((r) => r.name),
  );
  await client.end();
  return { integrity, contents, streams };
}

const pgUp = await postgresAvailable();

/** The schema a freshPostgresSchema URL selects (its search_path option). */
function schemaName(url: string): string {
  return (
    /search_path%3D(\w+)/.exec(url)?.[1] ?? /search_path=(\w+)/.exec(decodeURIComponent(url))?.[1] ?? "public"
  );
}

describe.each([
  ["SQLite", false],
  ["PostgreSQL", true],
])("crash suite (%s): kill -9 under mixed load", (dialect, postgres) => {
  it(
    "loses nothing acknowledged, duplicates nothing, keeps the database intact",
    async () => {
      if (postgres && !pgUp) return;
      const random = prng(SEED);
      const dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "rel-crash-")), "data");
      const schema = postgres ? await freshPostgresSchema() : undefined;
      const receiver = await startReceiver();
      let server = await startServer(dataDir, schema?.url);
      const owner = zuliprc(dataDir);
      const auth = (email: string, key: string): string =>
        "Basic " + Buffer.from(`${email}:${key}`).toString("base64");
      const ownerAuth = auth(owner.email, owner.key);
      const form = async (method: string, p: string, params: Record<string, string>): Promise<Response> =>
        fetch(server.url + p, {
          method,
          headers: { authorization: ownerAuth, "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams(params).toString(),
        });

      // Set-up: an outgoing-webhook bot that the receiver serves, an incoming-webhook bot.
      const outgoing = await form("POST", "/api/v1/bots", {
        full_name: "crashbot",
        short_name: "crashbot",
        bot_type: "3",
        payload_url: receiver.url,
        interface_type: "1",
      });
      expect(outgoing.status).toBe(200);
      const incoming = (await (
        await form("POST", "/api/v1/bots", { full_name: "crashhook", short_name: "crashhook", bot_type: "2" })
      ).json()) as { api_key: string };

      const acked: Acked = { messages: [], webhooks: [], mentions: [], edits: new Map(), streams: [] };
      const sent = { requests: 0, acked: 0, failed: 0 };
      let n = 0;
      const editable: number[] = [];

      /** One random operation; records it only once the server acknowledged it (2xx). */
      async function operation(): Promise<void> {
        const tag = `t${SEED}-${++n}`;
        const r = random();
        sent.requests++;
        try {
          if (r < 0.3) {
            const res = await form("POST", "/api/v1/messages", {
              type: "stream",
              to: "general",
              topic: "load",
              content: `msg ${tag}`,
            });
            if (res.ok) {
              const { id } = (await res.json()) as { id: number };
              acked.messages.push({ id, content: `msg ${tag}` });
              editable.push(id);
            }
          } else if (r < 0.5) {
            const res = await fetch(
              `${server.url}/api/v1/external/helloworld?api_key=${incoming.api_key}&stream=general`,
              {
                method: "POST",
                headers: { "content-type": "application/json" },
                body: JSON.stringify({ featured_title: `hook ${tag}`, featured_url: "https://example.com/" }),
              },
            );
            if (res.ok) acked.webhooks.push(`hook ${tag}`);
          } else if (r < 0.7) {
            // Sixteen topics: the server delivers one conversation's mentions one at a time, in
            // order, and the receiver answers each after 250 ms; more conversations means more
            // deliveries in flight when a kill lands, and a backlog that drains in seconds.
            const res = await form("POST", "/api/v1/messages", {
              type: "stream",
              to: "general",
              topic: `bots ${n % 16}`,
              content: `@**crashbot** ping ${tag}`,
            });
            if (res.ok) acked.mentions.push(`@**crashbot** ping ${tag}`);
          } else if (r < 0.85 && editable.length > 0) {
            const id = editable.splice(Math.floor(random() * editable.length), 1)[0]!;
            const res = await form("PATCH", `/api/v1/messages/${id}`, { content: `edited ${tag}` });
            if (res.ok) acked.edits.set(id, `edited ${tag}`);
          } else {
            const res = await form("POST", "/api/v1/users/me/subscriptions", {
              subscriptions: JSON.stringify([{ name: `stream ${tag}` }]),
            });
            if (res.ok) acked.streams.push(`stream ${tag}`);
          }
          sent.acked++;
        } catch {
          sent.failed++; // the server died under this request: not acknowledged
        }
      }

      // PostgreSQL runs fewer kills by default (each restart reconnects and re-checks migrations).
      const cycles = postgres && process.env["CRASH_CYCLES"] === undefined ? Math.max(1, CYCLES - 1) : CYCLES;
      for (let cycle = 0; cycle < cycles; cycle++) {
        let killed = false;
        const workers = Array.from({ length: 4 }, async () => {
          while (!killed) await operation();
        });
        await new Promise((r) => setTimeout(r, 1000 + random() * 1500));
        server.child.kill("SIGKILL");
        killed = true;
        await server.exited;
        await Promise.all(workers);
        server = await startServer(dataDir, schema?.url);
      }

      // Deliveries of acknowledged mentions arrive, after the restarted server retries them. A job
      // claimed by the killed process stays invisible for its lease (--outgoing-webhook-timeout 2 s
      // + --outgoing-webhook-lease-grace 1 s); the wait ends as soon as every one has arrived.
      const deadline = Date.now() + 50_000;
      const delivered = (): Set<string> => new Set(receiver.deliveries.map((d) => d.data));
      while (Date.now() < deadline && !acked.mentions.every((m) => delivered().has(m))) {
        await new Promise((r) => setTimeout(r, 200));
      }
      server.child.kill("SIGTERM");
      await server.exited;
      await receiver.close();

      const { integrity, contents, streams } =
        schema === undefined ? readSqlite(dataDir) : await readPostgres(schema.url, schemaName(schema.url));
      await schema?.drop();
      const count = (pred: (c: string) => boolean): number => contents.filter((m) => pred(m.content)).length;
      const byId = new Map(contents.map((m) => [m.id, m.content]));

      const lost = [
        // A message is there with its text, or with the text of an edit (acknowledged or not).
        ...acked.messages
          .filter((m) => !(byId.get(m.id) === m.content || (byId.get(m.id) ?? "").startsWith("edited ")))
          .map((m) => `message ${m.id} (${m.content})`),
        ...acked.webhooks.filter((w) => count((c) => c.includes(`[${w}]`)) !== 1).map((w) => `webhook ${w}`),
        ...acked.mentions.filter((m) => count((c) => c === m) !== 1).map((m) => `mention ${m}`),
        ...[...acked.edits]
          .filter(([id, text]) => byId.get(id) !== text)
          .map(([id, text]) => `edit ${id} → ${text}`),
        ...acked.streams.filter((s) => !streams.has(s)).map((s) => `stream ${s}`),
        ...acked.mentions.filter((m) => !delivered().has(m)).map((m) => `delivery of ${m}`),
      ];
      const tags = contents
        .map((m) => /(t\d+-\d+)/.exec(m.content)?.[1])
        .filter((t): t is string => t !== undefined);
      const duplicated = tags.filter((t, i) => tags.indexOf(t) !== i);
      // At-least-once deliveries: a message delivered twice must carry one delivery id.
      const idsByMessage = new Map<string, Set<string>>();
      for (const d of receiver.deliveries)
        idsByMessage.set(d.data, (idsByMessage.get(d.data) ?? new Set()).add(d.id));
      const redelivered = receiver.deliveries.length - idsByMessage.size;
      const inconsistentIds = [...idsByMessage].filter(
        ([, ids]) => ids.size !== 1 || [...ids].some((id) => id.split("|")[0] !== id.split("|")[1]),
      );

      const figures = {
        dialect,
        seed: SEED,
        kills: cycles,
        requests: sent.requests,
        acknowledged: sent.acked,
        interrupted: sent.failed,
        ackedMessages: acked.messages.length + acked.webhooks.length + acked.mentions.length,
        ackedEdits: acked.edits.size,
        ackedStreams: acked.streams.length,
        deliveries: receiver.deliveries.length,
        redelivered,
        lost: lost.length,
        duplicated: duplicated.length,
      };
      fs.writeFileSync(
        path.join(os.tmpdir(), `chat-reliability-crash-${dialect}.json`),
        JSON.stringify(figures, null, 2),
      );
      process.stdout.write(`crash figures: ${JSON.stringify(figures)}\n`);

      expect(integrity).toBe("ok");
      expect({ lost, duplicated, inconsistentIds }).toEqual({
        lost: [],
        duplicated: [],
        inconsistentIds: [],
      });
      expect(acked.messages.length).toBeGreaterThan(0);
    },
    180_000 * Math.max(1, CYCLES / 3),
  );
});
