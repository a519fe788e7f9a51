/**
 * The comparison of issue 16, in one run (section "ratio" of `npm run bench`, or alone):
 *
 *   node bin/run-ts.js bench/ratio.ts [--quick] [--cpu-prof DIR] [--sends N] [--send-only]
 *
 * - bare: Koa + @koa/router + koa-body parsing the GitHub push payload (bench/ratio-child.ts),
 *   loaded before and after the chat server (the mean of the two is the reference);
 * - webhook at 1, 100 and 10,000 subscribers: the same payload and headers posted to
 *   `/api/v1/external/github` into a stream with that many subscribers, every one of them holding a
 *   live event queue (allocated in process, what POST /register calls); requests/s as a ratio to bare;
 * - send to the 10,000-subscriber stream: `POST /api/v1/messages` one at a time, its latency (p50),
 *   and the time from the send's response until every one of the 10,000 live queues holds the event
 *   (0 when they all held it before the response arrived).
 * `--sends N` sets the number of sends (default 11, --quick 3); `--send-only` measures only the sends
 * to the 10,000-subscriber stream (no bare app, no webhook load: what to profile for the send).
 * Every server runs in its own child process; this process is only the client (autocannon 8,
 * 50 connections, 2 s warm-up + 10 s measured; --quick: 1 s + 2 s).
 */
import { fork } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import type { Result } from "autocannon";
import { loadFixtureRequest } from "../src/tools/send-webhook-fixture.js";
import { BotType } from "../src/domain/users/types.js";
import type { Account } from "./lib/http.js";
import { Client, assertLoopback } from "./lib/http.js";
import { spawnChild } from "./lib/rpc.js";
import { now, round, summarizeNs } from "./lib/stats.js";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
export const RATIO_SUBSCRIBERS = [1, 100, 10_000] as const;
const FIXTURE = "test_push_multiple_committers";

export interface Load {
  requestsPerSec: number;
  total: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

export async function load(
  url: string,
  headers: Record<string, string>,
  body: Buffer,
  quick: boolean,
): Promise<Load> {
  assertLoopback(url);
  const durationSec = quick ? 2 : 10;
  const base = { url, method: "POST" as const, headers, body, connections: 50, timeout: 30 };
  await autocannon({ ...base, duration: quick ? 1 : 2 });
  const r: Result = await autocannon({ ...base, duration: durationSec });
  return {
    requestsPerSec: round(r.requests.total / durationSec, 1),
    total: r.requests.total,
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
  };
}

/** The bare app in its own process (bench/ratio-child.ts). */
export async function spawnBare(): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const child = fork(path.join(ROOT, "bin/run-ts.js"), [path.join(ROOT, "bench/ratio-child.ts")], {
    cwd: ROOT,
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    child.on("message", (m: { ready?: { url: string } }) => {
      if (m.ready !== undefined) resolve(m.ready.url);
    });
    void exited.then(() => reject(new Error(`bare app exited (code ${child.exitCode})`)));
  });
  return {
    url,
    pid: child.pid!,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.send({ id: 1, cmd: "close", args: {} });
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

async function bareRun(quick: boolean): Promise<Load> {
  const fixture = loadFixtureRequest("github", FIXTURE);
  const bare = await spawnBare();
  try {
    const url = `${bare.url}/api/v1/external/github?${new URLSearchParams({ ...fixture.query, api_key: "x", stream: "github" }).toString()}`;
    const probe = await fetch(url, {
      method: "POST",
      headers: fixture.headers,
      body: new Uint8Array(fixture.body),
    });
    if (probe.status !== 200) throw new Error(`bare probe: ${probe.status} ${await probe.text()}`);
    return await load(url, fixture.headers, fixture.body, quick);
  } finally {
    await bare.stop();
  }
}

export async function ratioBench(
  quick: boolean,
  options: { cpuProfDir?: string; sends?: number; sendOnly?: boolean } = {},
): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {
    fixture: `integrations/github/fixtures/cases/${FIXTURE}.json`,
    loadAvgAtStart: os.loadavg().map((n) => round(n, 2)),
  };
  const sendOnly = options.sendOnly === true;
  const bareBefore = sendOnly ? undefined : await bareRun(quick);

  const execArgv =
    options.cpuProfDir === undefined
      ? []
      : ["--cpu-prof", `--cpu-prof-dir=${path.resolve(options.cpuProfDir)}`];
  const child = await spawnChild("chat", { execArgv });
  const ready = child.ready as { url: string; owner: Account };
  const client = new Client(ready.url, 8);
  const perSize: Record<number, Load & { queues: number }> = {};
  try {
    const maxSubs = Math.max(...RATIO_SUBSCRIBERS);
    const users = await child.call<Account[]>("bulkUsers", { prefix: "r", count: maxSubs - 1 }, 300_000);
    const bot = await child.call<Account>("createBot", {
      shortName: "github",
      fullName: "GitHub",
      botType: BotType.INCOMING_WEBHOOK,
    });
    const fixture = loadFixtureRequest("github", FIXTURE);
    for (const n of sendOnly ? [maxSubs] : RATIO_SUBSCRIBERS) {
      const stream = `ratio${n}`;
      // n subscribers: the stream's creator (the owner) and n − 1 members, each with a live queue.
      const ids = [ready.owner.id, ...users.slice(0, n - 1).map((u) => u.id)];
      await child.call("createStream", { name: stream, userIds: ids }, 300_000);
      const queues = await child.call<number>(
        "allocateQueues",
        { userIds: ids, eventTypes: ["message"] },
        300_000,
      );
      if (n === maxSubs) {
        // Sends to the largest stream, before the webhook load fills its queues.
        const sendNs: bigint[] = [];
        const afterReturnNs: bigint[] = [];
        const sinceSendNs: bigint[] = [];
        let verifiedMin = Number.POSITIVE_INFINITY;
        const runs = options.sends ?? (quick ? 3 : 11);
        for (let r = 0; r < runs; r++) {
          await child.call<number>("armFanout", { userIds: ids });
          const t0 = now();
          const body = await client.ok("POST", "/api/v1/messages", {
            auth: ready.owner,
            form: { type: "stream", to: stream, topic: "bench", content: `ratio send ${r}` },
          });
          const t1 = now();
          const res = await child.call<{
            doneNs?: string;
            reached: number;
            targets: number;
            verified: number;
          }>("awaitFanout", { timeoutMs: 30_000, messageId: body["id"] as number });
          if (res.doneNs === undefined)
            throw new Error(`send reached ${res.reached}/${res.targets} queues in 30 s`);
          const done = BigInt(res.doneNs);
          sendNs.push(t1 - t0);
          sinceSendNs.push(done - t0);
          afterReturnNs.push(done > t1 ? done - t1 : 0n);
          verifiedMin = Math.min(verifiedMin, res.verified);
        }
        const s = summarizeNs(sendNs);
        const a = summarizeNs(afterReturnNs);
        const f = summarizeNs(sinceSendNs);
        out["send10kRuns"] = runs;
        out["send10kQueues"] = queues;
        out["send10kQueuesVerifiedMin"] = verifiedMin;
        out["send10kP50Ms"] = s.p50Ms;
        out["send10kMaxMs"] = s.maxMs;
        out["send10kAllQueuesAfterReturnP50Ms"] = a.p50Ms;
        out["send10kAllQueuesAfterReturnMaxMs"] = a.maxMs;
        out["send10kAllQueuesSinceSendP50Ms"] = f.p50Ms;
        if (sendOnly) break;
      }
      const query = new URLSearchParams({ ...fixture.query, api_key: bot.apiKey, stream });
      const url = `${ready.url}/api/v1/external/github?${query.toString()}`;
      const probe = await fetch(url, {
        method: "POST",
        headers: fixture.headers,
        body: new Uint8Array(fixture.body),
      });
      if (probe.status !== 200) throw new Error(`webhook probe: ${probe.status} ${await probe.text()}`);
      const r = await load(url, fixture.headers, fixture.body, quick);
      await child.call("idle", {}, 300_000);
      await child.call("deleteQueues", { userIds: ids }, 300_000);
      perSize[n] = { ...r, queues };
    }
  } finally {
    client.close();
    await child.stop(60_000);
  }
  if (bareBefore === undefined) {
    out["loadAvgAtEnd"] = os.loadavg().map((n) => round(n, 2));
    return out;
  }
  const bareAfter = await bareRun(quick);
  const bareRps = round((bareBefore.requestsPerSec + bareAfter.requestsPerSec) / 2, 1);
  out["bareBeforeRequestsPerSec"] = bareBefore.requestsPerSec;
  out["bareAfterRequestsPerSec"] = bareAfter.requestsPerSec;
  out["bareRequestsPerSec"] = bareRps;
  out["bareP50Ms"] = bareBefore.p50Ms;
  for (const n of RATIO_SUBSCRIBERS) {
    const r = perSize[n]!;
    out[`webhook${n}RequestsPerSec`] = r.requestsPerSec;
    out[`webhook${n}P50Ms`] = r.p50Ms;
    out[`webhook${n}P99Ms`] = r.p99Ms;
    out[`webhook${n}Non2xx`] = r.non2xx + r.errors;
    out[`webhook${n}Queues`] = r.queues;
    out[`webhook${n}Ratio`] = round(r.requestsPerSec / bareRps, 4);
  }
  out["loadAvgAtEnd"] = os.loadavg().map((n) => round(n, 2));
  out["webhook100Vs1"] = round(perSize[100]!.requestsPerSec / perSize[1]!.requestsPerSec, 3);
  return out;
}

/** The lines `npm run bench` and the standalone run print. */
export function ratioRows(s: Record<string, unknown>): [string, string][] {
  const v = (k: string): string => (typeof s[k] === "number" ? String(s[k]) : "n/a");
  const rows: [string, string][] = [
    [
      "bare Koa + router + koa-body, GitHub push",
      `${v("bareRequestsPerSec")} req/s (${v("bareBeforeRequestsPerSec")} before, ${v("bareAfterRequestsPerSec")} after)`,
    ],
  ];
  for (const n of RATIO_SUBSCRIBERS) {
    rows.push([
      `webhook, ${n.toLocaleString("en-US")} subscriber(s) with live queues`,
      `${v(`webhook${n}RequestsPerSec`)} req/s = ×${v(`webhook${n}Ratio`)} bare (p50 ${v(`webhook${n}P50Ms`)} ms)`,
    ]);
  }
  rows.push(["webhook 100 subscribers ÷ 1 subscriber", `×${v("webhook100Vs1")}`]);
  rows.push(["send to 10,000 subscribers, p50 (max)", `${v("send10kP50Ms")} ms (${v("send10kMaxMs")})`]);
  rows.push([
    "…every live queue holds it, after the send returned p50 (max)",
    `${v("send10kAllQueuesAfterReturnP50Ms")} ms (${v("send10kAllQueuesAfterReturnMaxMs")})`,
  ]);
  return rows;
}

if (process.argv[1]?.endsWith("ratio.ts")) {
  const i = process.argv.indexOf("--cpu-prof");
  const n = process.argv.indexOf("--sends");
  const result = await ratioBench(process.argv.includes("--quick"), {
    cpuProfDir: i === -1 ? undefined : process.argv[i + 1],
    sends: n === -1 ? undefined : Number(process.argv[n + 1]),
    sendOnly: process.argv.includes("--send-only"),
  });
  const rows = ratioRows(result);
  const w = Math.max(...rows.map((r) => r[0].length));
  for (const [a, b] of rows) process.stdout.write(`${a.padEnd(w)}  ${b}\n`);
  process.stdout.write(`\n${JSON.stringify(result, null, 2)}\n`);
  process.exit(0);
}
