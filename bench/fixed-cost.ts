/**
 * The fixed cost of one request (issue 16), measured as server CPU per request:
 *
 *   node bin/run-ts.js bench/fixed-cost.ts [--quick] [--cpu-prof DIR] [--only bare,webhook,messages,plain]
 *   node bin/run-ts.js bench/fixed-cost.ts --ab DIR_BEFORE DIR_AFTER --only webhook|messages|plain
 *     [--rounds 10] [--slice 3] [--rate 250|400]      (paired comparison of two checkouts: fixedCostAb)
 *
 * Three servers, each in its own child process and loaded alone (autocannon, 50 connections,
 * 2 s warm-up + 10 s measured; --quick 1 s + 2 s):
 * - bare: Koa + @koa/router + koa-body parsing the GitHub push payload (bench/ratio-child.ts);
 * - webhook: the chat server, the same payload posted to `/api/v1/external/github` into a stream
 *   whose only subscriber is its creator (one live event queue): no per-recipient work to speak of;
 * - messages: the chat server, `POST /api/v1/messages` of `hello **world**` to such a stream;
 * - plain: the same with text that has no markup (`hello world, how are you?`).
 * CPU = utime + stime of the server process (/proc/PID/stat) over the measured 10 s, divided by the
 * requests completed in it. With `--cpu-prof DIR` the two chat servers run under `node --cpu-prof`
 * (one profile each; summarise with bench/profile-summary.ts); CPU figures are then inflated.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import autocannon from "autocannon";
import type { Result } from "autocannon";
import { loadFixtureRequest } from "../src/tools/send-webhook-fixture.js";
import { BotType } from "../src/domain/users/types.js";
import type { Account } from "./lib/http.js";
import { assertLoopback, basicAuth } from "./lib/http.js";
import { spawnChild } from "./lib/rpc.js";
import { round } from "./lib/stats.js";
import { spawnBare } from "./ratio.js";

const FIXTURE = "test_push_multiple_committers";

/** User + system CPU of process `pid` so far, in ms (Linux /proc; fields 14 and 15, in clock ticks). */
function cpuMs(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1000) / 100; // USER_HZ is 100 on Linux
}

interface Measured {
  requestsPerSec: number;
  p50Ms: number;
  cpuMsPerRequest: number;
  non2xx: number;
}

async function measure(
  pid: number,
  opts: { url: string; headers: Record<string, string>; body: Buffer | string },
  quick: boolean,
): Promise<Measured> {
  assertLoopback(opts.url);
  const durationSec = quick ? 2 : 10;
  const base = { ...opts, method: "POST" as const, connections: 50, timeout: 30 };
  await autocannon({ ...base, duration: quick ? 1 : 2 });
  const c0 = cpuMs(pid);
  const r: Result = await autocannon({ ...base, duration: durationSec });
  const c1 = cpuMs(pid);
  return {
    requestsPerSec: round(r.requests.total / durationSec, 1),
    p50Ms: r.latency.p50,
    cpuMsPerRequest: round((c1 - c0) / Math.max(1, r.requests.total), 3),
    non2xx: r.non2xx + r.errors + r.timeouts,
  };
}

const CONTENT = { messages: "hello **world**", plain: "hello world, how are you?" } as const;

type ChatKind = "webhook" | "messages" | "plain";
type Spawn = typeof spawnChild;
interface Loadable {
  child: Awaited<ReturnType<Spawn>>;
  opts: { url: string; headers: Record<string, string>; body: Buffer | string };
}

/** A chat server with a 1-subscriber stream (one live queue) and the request `kind` posts. */
async function setupChat(spawn: Spawn, kind: ChatKind, execArgv: string[]): Promise<Loadable> {
  const child = await spawn("chat", { execArgv });
  const ready = child.ready as { url: string; owner: Account };
  await child.call("createStream", { name: "fixed", userIds: [ready.owner.id] });
  await child.call("allocateQueues", { userIds: [ready.owner.id], eventTypes: ["message"] });
  if (kind !== "webhook") {
    const body = new URLSearchParams({ type: "stream", to: "fixed", topic: "bench", content: CONTENT[kind] });
    return {
      child,
      opts: {
        url: `${ready.url}/api/v1/messages`,
        headers: {
          authorization: basicAuth(ready.owner),
          "content-type": "application/x-www-form-urlencoded",
        },
        body: body.toString(),
      },
    };
  }
  const bot = await child.call<Account>("createBot", {
    shortName: "github",
    fullName: "GitHub",
    botType: BotType.INCOMING_WEBHOOK,
  });
  const fixture = loadFixtureRequest("github", FIXTURE);
  const query = new URLSearchParams({ ...fixture.query, api_key: bot.apiKey, stream: "fixed" });
  return {
    child,
    opts: {
      url: `${ready.url}/api/v1/external/github?${query.toString()}`,
      headers: fixture.headers,
      body: fixture.body,
    },
  };
}

async function chatServer(kind: ChatKind, quick: boolean, cpuProfDir?: string): Promise<Measured> {
  const execArgv =
    cpuProfDir === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${path.resolve(cpuProfDir, kind)}`];
  const server = await setupChat(spawnChild, kind, execArgv);
  try {
    return await measure(server.child.pid, server.opts, quick);
  } finally {
    await server.child.stop(30_000);
  }
}

/**
 * Paired comparison of two checkouts (`--ab DIR_BEFORE DIR_AFTER`, each with node_modules): one
 * server from each, set up alike, loaded in turn at a fixed rate (`rate` requests/s, 20
 * connections) for `slice` seconds, the order swapped every round, so that the machine's load
 * drifts hit both alike and batching (group commit) is the same for both. CPU per request of each
 * over all rounds, their ratio, and in how many rounds the second one used less.
 */
export async function fixedCostAb(
  dirs: [string, string],
  kind: ChatKind,
  o: { rounds: number; slice: number; rate: number },
): Promise<Record<string, unknown>> {
  const servers: Loadable[] = [];
  for (const dir of dirs) {
    const rpc = (await import(pathToFileURL(path.resolve(dir, "bench/lib/rpc.ts")).href)) as {
      spawnChild: Spawn;
    };
    servers.push(await setupChat(rpc.spawnChild, kind, []));
  }
  // autocannon's `overallRate` (requests/s across connections) is missing from its type definitions.
  const rateOption: object = { overallRate: o.rate };
  const total = servers.map(() => ({ cpuMs: 0, requests: 0, failed: 0 }));
  const ratios: number[] = [];
  const slice = async (i: number, duration: number) => {
    const s = servers[i]!;
    assertLoopback(s.opts.url);
    const c0 = cpuMs(s.child.pid);
    const r = await autocannon({
      ...s.opts,
      method: "POST",
      connections: 20,
      duration,
      timeout: 30,
      ...rateOption,
    });
    return {
      cpuMs: cpuMs(s.child.pid) - c0,
      requests: r.requests.total,
      failed: r.non2xx + r.errors + r.timeouts,
    };
  };
  try {
    await slice(0, 2);
    await slice(1, 2);
    for (let round = 0; round < o.rounds; round++) {
      const perRequest = [0, 0];
      for (const i of round % 2 === 0 ? [0, 1] : [1, 0]) {
        const m = await slice(i, o.slice);
        total[i]!.cpuMs += m.cpuMs;
        total[i]!.requests += m.requests;
        total[i]!.failed += m.failed;
        perRequest[i] = m.cpuMs / Math.max(1, m.requests);
      }
      ratios.push(perRequest[1]! / perRequest[0]!);
    }
  } finally {
    for (const s of servers) await s.child.stop(30_000);
  }
  const [before, after] = total.map((t) => t.cpuMs / Math.max(1, t.requests)) as [number, number];
  ratios.sort((a, b) => a - b);
  return {
    kind,
    ...o,
    loadAvg: os.loadavg().map((n) => round(n, 2)),
    before: { dir: dirs[0], cpuMsPerRequest: round(before, 4), ...total[0] },
    after: { dir: dirs[1], cpuMsPerRequest: round(after, 4), ...total[1] },
    afterOverBefore: round(after / before, 3),
    medianRoundRatio: round(ratios[Math.floor(ratios.length / 2)]!, 3),
    roundsAfterCheaper: ratios.filter((r) => r < 1).length,
  };
}

export type FixedCostKind = "bare" | "webhook" | "messages" | "plain";

export async function fixedCostBench(
  quick: boolean,
  cpuProfDir?: string,
  only: readonly FixedCostKind[] = ["bare", "webhook", "messages"],
): Promise<Record<string, unknown>> {
  const fixture = loadFixtureRequest("github", FIXTURE);
  const out: Partial<Record<FixedCostKind, Measured>> = {};
  for (const kind of only) {
    if (kind !== "bare") {
      out[kind] = await chatServer(kind, quick, cpuProfDir);
      continue;
    }
    const bareApp = await spawnBare();
    try {
      const query = new URLSearchParams({ ...fixture.query, api_key: "x", stream: "fixed" });
      out.bare = await measure(
        bareApp.pid,
        {
          url: `${bareApp.url}/api/v1/external/github?${query.toString()}`,
          headers: fixture.headers,
          body: fixture.body,
        },
        quick,
      );
    } finally {
      await bareApp.stop();
    }
  }
  const { bare, webhook } = out;
  return {
    loadAvg: os.loadavg().map((n) => round(n, 2)),
    ...out,
    ...(bare !== undefined && webhook !== undefined
      ? { webhookCpuVsBare: round(webhook.cpuMsPerRequest / bare.cpuMsPerRequest, 1) }
      : {}),
  };
}

const argAfter = (name: string): string | undefined => {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
};

if (process.argv[1]?.endsWith("fixed-cost.ts") && process.argv.includes("--ab")) {
  const at = process.argv.indexOf("--ab");
  const kind = (argAfter("--only") ?? "webhook") as ChatKind;
  const result = await fixedCostAb([process.argv[at + 1] ?? ".", process.argv[at + 2] ?? "."], kind, {
    rounds: Number(argAfter("--rounds") ?? 10),
    slice: Number(argAfter("--slice") ?? 3),
    rate: Number(argAfter("--rate") ?? (kind === "webhook" ? 250 : 400)),
  });
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  process.exit(0);
} else if (process.argv[1]?.endsWith("fixed-cost.ts")) {
  const i = process.argv.indexOf("--cpu-prof");
  const o = process.argv.indexOf("--only");
  const result = await fixedCostBench(
    process.argv.includes("--quick"),
    i === -1 ? undefined : process.argv[i + 1],
    o === -1 ? undefined : ((process.argv[o + 1] ?? "").split(",") as FixedCostKind[]),
  );
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  process.exit(0);
}
