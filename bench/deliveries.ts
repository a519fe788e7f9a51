/**
 * The delivery log's cost on the webhook path (issue 15), run by `npm run bench` (section
 * "deliveries") or alone:
 *
 *   node bin/run-ts.js bench/deliveries.ts [--quick]
 *
 * Real `chat-server serve` processes (fresh SQLite file store each, API and webhook rate limits
 * off), one with the delivery log on and one with `--no-delivery-log`, alternated (off, on, off,
 * on, …) so that drift on a shared machine hits both; each run posts GitHub's
 * test_push_multiple_committers fixture with autocannon (50 connections) to an incoming-webhook bot.
 *
 * - offCpuMsPerRequest / onCpuMsPerRequest: CPU time (user + system, from /proc) the server
 *   process spent per request, median of the runs of each mode — on a machine shared with other
 *   work, far steadier than throughput;
 * - costPercent: (on − off) / off × 100 of the CPU time per request — the target is under 5;
 * - offRequestsPerSec / onRequestsPerSec, throughputCostPercent: the median throughputs and their
 *   difference (noisy when other processes compete for the cores: see the load average);
 * - onP50Ms / offP50Ms, onP99Ms / offP99Ms: latencies of the median runs;
 * - loggedEntries: entries the last "on" server kept for the bot (≤ its --delivery-log-per-bot).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { loadFixtureRequest } from "../src/tools/send-webhook-fixture.js";
import { startProcess } from "../test/helpers/process.js";
import type { RunningProcess } from "../test/helpers/process.js";
import { Client, assertLoopback } from "./lib/http.js";
import type { Account } from "./lib/http.js";
import { round } from "./lib/stats.js";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

interface Run {
  /** CPU time (user + system) the server process spent per request, in ms. */
  cpuMsPerRequest: number;
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  logged: number | undefined;
}

/** The process's CPU time so far (user + system), in ms, from /proc (Linux). */
function cpuMs(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // Fields 14 and 15 of stat (utime, stime), counted after the command name: indexes 11 and 12.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}
const CLOCK_TICKS = 100;

async function runOnce(logOn: boolean, durationSec: number, warmupSec: number): Promise<Run> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-deliveries-"));
  const args = [
    path.join(ROOT, "bin", "chat-server.js"),
    "serve",
    "--port",
    "0",
    "--data-dir",
    dir,
    "--owner-password",
    "pw",
    "--log-level",
    "warn",
    "--rate-limit",
    "off",
    "--webhook-rate-limit",
    "off",
    ...(logOn ? [] : ["--no-delivery-log"]),
  ];
  let chat: RunningProcess | undefined;
  const client = { current: undefined as Client | undefined };
  try {
    chat = startProcess(args);
    const url = (await chat.waitFor(/Chat server listening on (http:\/\/\S+)/))[1]!;
    assertLoopback(url);
    const rc = fs.readFileSync(path.join(dir, "zuliprc"), "utf8");
    const owner: Account = { id: 0, email: /email=(\S+)/.exec(rc)![1]!, apiKey: /key=(\S+)/.exec(rc)![1]! };
    client.current = new Client(url, 4);
    const bot = await client.current.ok("POST", "/api/v1/bots", {
      auth: owner,
      form: { full_name: "GitHub", short_name: "github", bot_type: "2" },
    });
    const fixture = loadFixtureRequest("github", "test_push_multiple_committers");
    const query = new URLSearchParams({
      ...fixture.query,
      api_key: String(bot["api_key"]),
      stream: "general",
    });
    const hook = `${url}/api/v1/external/github?${query.toString()}`;
    const probe = await fetch(hook, {
      method: "POST",
      headers: fixture.headers,
      body: new Uint8Array(fixture.body),
    });
    if (probe.status !== 200) throw new Error(`webhook probe: ${probe.status} ${await probe.text()}`);
    const base = {
      url: hook,
      method: "POST" as const,
      headers: fixture.headers,
      body: fixture.body,
      connections: 50,
    };
    await autocannon({ ...base, duration: warmupSec });
    const pid = chat.child.pid!;
    const cpuBefore = cpuMs(pid);
    const r = await autocannon({ ...base, duration: durationSec });
    // Entries still buffered are written within 50 ms: their cost belongs to these requests.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const cpu = cpuMs(pid) - cpuBefore;
    let logged: number | undefined;
    if (logOn) {
      const list = await client.current.ok(
        "GET",
        `/api/v1/bots/${String(bot["user_id"])}/deliveries?num=200`,
        {
          auth: owner,
        },
      );
      logged = (list["deliveries"] as unknown[]).length;
    }
    return {
      cpuMsPerRequest: round(cpu / r.requests.total, 3),
      requestsPerSec: round(r.requests.total / durationSec, 1),
      p50Ms: r.latency.p50,
      p99Ms: r.latency.p99,
      non2xx: r.non2xx,
      logged,
    };
  } finally {
    client.current?.close();
    await chat?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function medianBy(runs: Run[], key: "requestsPerSec" | "cpuMsPerRequest"): Run {
  const sorted = [...runs].sort((a, b) => a[key] - b[key]);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

export async function deliveriesBench(quick: boolean): Promise<Record<string, unknown>> {
  const pairs = quick ? 1 : 3;
  const durationSec = quick ? 3 : 10;
  const warmupSec = quick ? 1 : 2;
  const off: Run[] = [];
  const on: Run[] = [];
  for (let i = 0; i < pairs; i++) {
    off.push(await runOnce(false, durationSec, warmupSec));
    on.push(await runOnce(true, durationSec, warmupSec));
  }
  const mOff = medianBy(off, "requestsPerSec");
  const mOn = medianBy(on, "requestsPerSec");
  const cpuOff = medianBy(off, "cpuMsPerRequest").cpuMsPerRequest;
  const cpuOn = medianBy(on, "cpuMsPerRequest").cpuMsPerRequest;
  return {
    offCpuMsPerRequest: cpuOff,
    onCpuMsPerRequest: cpuOn,
    costPercent: round(((cpuOn - cpuOff) / cpuOff) * 100, 1),
    offRequestsPerSec: mOff.requestsPerSec,
    onRequestsPerSec: mOn.requestsPerSec,
    throughputCostPercent: round(((mOff.requestsPerSec - mOn.requestsPerSec) / mOff.requestsPerSec) * 100, 1),
    offP50Ms: mOff.p50Ms,
    onP50Ms: mOn.p50Ms,
    offP99Ms: mOff.p99Ms,
    onP99Ms: mOn.p99Ms,
    non2xx: [...off, ...on].reduce((n, r) => n + r.non2xx, 0),
    loggedEntries: mOn.logged ?? null,
    runs: {
      off: off.map((r) => ({ rps: r.requestsPerSec, cpuMs: r.cpuMsPerRequest })),
      on: on.map((r) => ({ rps: r.requestsPerSec, cpuMs: r.cpuMsPerRequest })),
    },
    fixture: "integrations/github/fixtures/cases/test_push_multiple_committers.json",
  };
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const result = await deliveriesBench(process.argv.includes("--quick"));
  process.stdout.write(JSON.stringify(result, null, 2) + "\n");
}
