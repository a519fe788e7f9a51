/**
 * The fixed cost of one request (issue 16), measured as server CPU per request:
 *
 *   node bin/run-ts.js bench/fixed-cost.ts [--quick] [--cpu-prof DIR] [--only bare,webhook,messages,plain]
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

async function chatServer(
  kind: "webhook" | "messages" | "plain",
  quick: boolean,
  cpuProfDir?: string,
): Promise<Measured> {
  const execArgv =
    cpuProfDir === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${path.resolve(cpuProfDir, kind)}`];
  const child = await spawnChild("chat", { execArgv });
  const ready = child.ready as { url: string; owner: Account };
  try {
    await child.call("createStream", { name: "fixed", userIds: [ready.owner.id] });
    await child.call("allocateQueues", { userIds: [ready.owner.id], eventTypes: ["message"] });
    if (kind !== "webhook") {
      return await measure(
        child.pid,
        {
          url: `${ready.url}/api/v1/messages`,
          headers: {
            authorization: basicAuth(ready.owner),
            "content-type": "application/x-www-form-urlencoded",
          },
          body: new URLSearchParams({
            type: "stream",
            to: "fixed",
            topic: "bench",
            content: CONTENT[kind],
          }).toString(),
        },
        quick,
      );
    }
    const bot = await child.call<Account>("createBot", {
      shortName: "github",
      fullName: "GitHub",
      botType: BotType.INCOMING_WEBHOOK,
    });
    const fixture = loadFixtureRequest("github", FIXTURE);
    const query = new URLSearchParams({ ...fixture.query, api_key: bot.apiKey, stream: "fixed" });
    return await measure(
      child.pid,
      {
        url: `${ready.url}/api/v1/external/github?${query.toString()}`,
        headers: fixture.headers,
        body: fixture.body,
      },
      quick,
    );
  } finally {
    await child.stop(30_000);
  }
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

if (process.argv[1]?.endsWith("fixed-cost.ts")) {
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
