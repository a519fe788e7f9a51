/**
 * Scale-out on PostgreSQL + Redis (issue 17), run by `npm run bench` (section "scale") or alone:
 *
 *   node bin/run-ts.js bench/scale.ts [--quick]
 *
 * Real processes, each on a fresh PostgreSQL database and Redis prefix:
 * - oneWorker / twoWorkers: `chat-server serve --workers 1` and `--workers 2` (node:cluster, one
 *   port), loaded by the same autocannon settings: 50 connections POSTing private messages for the
 *   same time, the two configurations alternating (two rounds each; one with --quick); messages
 *   per second and latency percentiles;
 * - crossProcess: two separate `serve` processes on one database and Redis; a client long-polls
 *   its queue on A while messages are sent through B: send → event latency across processes
 *   (the event travels B → Redis queue → pub/sub → A's waiter).
 * The 1-minute load average before and after is reported with the figures (the machine is shared).
 * Needs PostgreSQL (127.0.0.1:5432, database `test`) and Redis (127.0.0.1:6379).
 */
import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import type { Result } from "autocannon";
import pg from "pg";
import { Redis } from "ioredis";
import { startProcess } from "../test/helpers/process.js";
import type { RunningProcess } from "../test/helpers/process.js";
import type { Account } from "./lib/http.js";
import { Client, basicAuth } from "./lib/http.js";
import { now, round, summarizeNs } from "./lib/stats.js";

const PG_URL = process.env["BENCH_POSTGRES_URL"] ?? "postgres://postgres@127.0.0.1:5432/test";
const REDIS_URL = process.env["BENCH_REDIS_URL"] ?? "redis://127.0.0.1:6379";

async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((resolve) => srv.listen(0, "127.0.0.1", () => resolve()));
  const { port } = srv.address() as net.AddressInfo;
  await new Promise((r) => srv.close(r));
  return port;
}

/** A fresh database on the machine's PostgreSQL; `drop()` removes it. */
async function freshDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `bench_scale_${crypto.randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

interface Deployment {
  url: string;
  urls: string[];
  owner: Account;
  procs: RunningProcess[];
  stop(): Promise<void>;
}

/** `serve` processes on one fresh database and Redis prefix: one per entry of `workers`. */
async function deploy(workers: number[]): Promise<Deployment> {
  const db = await freshDatabase();
  const prefix = `bench:${crypto.randomBytes(4).toString("hex")}:`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-scale-"));
  const procs: RunningProcess[] = [];
  const urls: string[] = [];
  const stop = async (): Promise<void> => {
    for (const p of procs) await p.stop();
    await db.drop().catch(() => undefined);
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    for (const n of workers) {
      const port = await freePort();
      const p = startProcess(
        [
          "bin/chat-server.js",
          "serve",
          "--port",
          String(port),
          "--workers",
          String(n),
          "--data-dir",
          dataDir,
          "--database",
          db.url,
          "--redis",
          REDIS_URL,
          "--redis-prefix",
          prefix,
          "--owner-password",
          "bench-owner-password",
          "--rate-limit",
          "off",
          "--log-level",
          "warn",
        ],
        {},
      );
      procs.push(p);
      await p.waitFor(n > 1 ? /Chat server: \d+ workers serving/ : /Chat server listening on/, 90_000);
      urls.push(`http://127.0.0.1:${port}`);
    }
    const key = /^key=(.*)$/m.exec(fs.readFileSync(path.join(dataDir, "zuliprc"), "utf8"))![1]!;
    const creds = { email: "owner@example.com", apiKey: key };
    const client = new Client(urls[0]!);
    const me = await client.ok("GET", "/api/v1/users/me", { auth: { ...creds, id: 0 } });
    client.close();
    const owner = { ...creds, id: me["user_id"] as number };
    return { url: urls[0]!, urls, owner, procs, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** Messages per second that `workers` cluster workers take from one autocannon run. */
async function throughput(workers: number, quick: boolean): Promise<Record<string, number>> {
  const d = await deploy([workers]);
  try {
    const client = new Client(d.url);
    const user = await client.ok("POST", "/api/v1/users", {
      auth: d.owner,
      form: { email: "load@example.com", password: "load-password-1", full_name: "Load" },
    });
    client.close();
    const opts = {
      url: `${d.url}/api/v1/messages`,
      method: "POST" as const,
      connections: 50,
      timeout: 30,
      headers: { authorization: basicAuth(d.owner), "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        type: "private",
        to: JSON.stringify([user["user_id"] as number]),
        content: "load",
      }).toString(),
    };
    const duration = quick ? 3 : 10;
    await autocannon({ ...opts, duration: 1 });
    const r: Result = await autocannon({ ...opts, duration });
    return {
      messagesPerSec: round(r.requests.total / duration, 1),
      p50Ms: r.latency.p50,
      p99Ms: r.latency.p99,
      non2xx: r.non2xx,
      errors: r.errors + r.timeouts,
    };
  } finally {
    await d.stop();
  }
}

/** Send on B → event in a long poll on A, two processes sharing PostgreSQL + Redis. */
async function crossProcess(quick: boolean): Promise<Record<string, number>> {
  const d = await deploy([1, 1]);
  const urlB = d.urls[1]!;
  const a = new Client(d.url);
  const b = new Client(urlB);
  try {
    const reg = await a.ok("POST", "/api/v1/register", {
      auth: d.owner,
      form: { event_types: JSON.stringify(["message"]) },
    });
    const queueId = reg["queue_id"] as string;
    let last = reg["last_event_id"] as number;
    const samples: bigint[] = [];
    const n = quick ? 20 : 200;
    for (let i = 0; i < n; i++) {
      const poll = a.ok(
        "GET",
        `/api/v1/events?queue_id=${encodeURIComponent(queueId)}&last_event_id=${last}`,
        { auth: d.owner, timeoutMs: 30_000 },
      );
      await new Promise((r) => setTimeout(r, 5)); // the poll is waiting on A
      const t0 = now();
      await b.ok("POST", "/api/v1/messages", {
        auth: d.owner,
        form: { type: "stream", to: "general", topic: "bench", content: `m${i}` },
      });
      const events = (await poll)["events"] as { id: number }[];
      samples.push(now() - t0);
      last = events[events.length - 1]!.id;
    }
    const s = summarizeNs(samples);
    return { sendToEventP50Ms: s.p50Ms, sendToEventP99Ms: s.p99Ms, samples: s.count };
  } finally {
    a.close();
    b.close();
    await d.stop();
  }
}

/** The 1-minute load average, to two decimals (the machine is shared: read figures with it). */
function load1(): number {
  return round(os.loadavg()[0]!, 2);
}

export async function scaleBench(quick: boolean): Promise<Record<string, unknown>> {
  const loadBefore = load1();
  // One worker and two alternate (1, 2, 1, 2 …) so that a change in the machine's load during the
  // run falls on both; each configuration's figure is the mean of its rounds.
  const rounds = quick ? 1 : 2;
  const ones: Record<string, number>[] = [];
  const twos: Record<string, number>[] = [];
  for (let i = 0; i < rounds; i++) {
    ones.push(await throughput(1, quick));
    twos.push(await throughput(2, quick));
  }
  const mean = (rs: Record<string, number>[], k: string): number =>
    round(rs.reduce((sum, r) => sum + r[k]!, 0) / rs.length, 1);
  const sum = (rs: Record<string, number>[], k: string): number => rs.reduce((t, r) => t + r[k]!, 0);
  const cross = await crossProcess(quick);
  const one = mean(ones, "messagesPerSec");
  const two = mean(twos, "messagesPerSec");
  return {
    oneWorkerMessagesPerSec: one,
    twoWorkersMessagesPerSec: two,
    twoVsOne: round(two / one, 2),
    oneWorkerRounds: ones.map((r) => r["messagesPerSec"]),
    twoWorkersRounds: twos.map((r) => r["messagesPerSec"]),
    oneWorkerP50Ms: mean(ones, "p50Ms"),
    twoWorkersP50Ms: mean(twos, "p50Ms"),
    oneWorkerP99Ms: mean(ones, "p99Ms"),
    twoWorkersP99Ms: mean(twos, "p99Ms"),
    crossProcessSendToEventP50Ms: cross["sendToEventP50Ms"],
    crossProcessSendToEventP99Ms: cross["sendToEventP99Ms"],
    crossProcessSamples: cross["samples"],
    errors: sum(ones, "errors") + sum(twos, "errors") + sum(ones, "non2xx") + sum(twos, "non2xx"),
    cpus: os.cpus().length,
    loadAverageBefore: loadBefore,
    loadAverageAfter: load1(),
  };
}

if (process.argv[1]?.endsWith("scale.ts")) {
  const result = await scaleBench(process.argv.includes("--quick"));
  process.stdout.write(JSON.stringify(result, null, 2) + "\n");
}
