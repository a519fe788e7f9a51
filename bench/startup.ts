/**
 * Start-up and memory of the real command line (issue 27), run by `npm run bench` (section
 * "startup") or alone:
 *
 *   node bin/run-ts.js bench/startup.ts [--quick] [--bin path/to/chat-server.js]
 *
 * - helpMs: `node bin/chat-server.js --help`, spawn to exit (median of several runs);
 * - restartMs: `chat-server serve` on a data dir that already holds an organization, spawn to the
 *   first answer of `GET /api/v1/server_settings` (median);
 * - rssAtRestMB: that server's resident memory once it has answered and sat idle for 2 s (median);
 * - cpuMs of each: user + system CPU the process used, which another job on the machine disturbs
 *   less than the wall-clock figures.
 *
 * Targets: help < 300 ms, restart < 500 ms, < 100 MB at rest. The bin runs the compiled build
 * (dist/server), built first if a source changed, so the runs measure start-up, not compilation.
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { YOUNG_GENERATION_FLAG } from "../src/lib/young-generation.js";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const TICKS_PER_SECOND = 100; // USER_HZ on Linux

export const STARTUP_TARGETS = { helpMs: 300, restartMs: 500, rssAtRestMB: 100 };

export interface StartupResult {
  [metric: string]: unknown;
  helpMs: number;
  helpCpuMs: number;
  restartMs: number;
  restartCpuMs: number;
  rssAtRestMB: number;
  runs: number;
  bin: string;
  targets: typeof STARTUP_TARGETS;
  met: Record<keyof typeof STARTUP_TARGETS, boolean>;
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** User + system CPU of a live process, from /proc (ms). */
function cpuMsOf(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

function rssMBOf(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1]);
  return Math.round(kb / 102.4) / 10;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** One `--help`: wall time, and CPU from this process's counters of waited-for children. */
function helpRun(bin: string): { ms: number; cpuMs: number } {
  const cpuBefore = childCpuMs();
  const started = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [bin, "--help"], { cwd: ROOT, encoding: "utf8" });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (r.status !== 0) throw new Error(`--help exited ${r.status}: ${r.stderr}`);
  return { ms, cpuMs: childCpuMs() - cpuBefore };
}

/** One `serve` start: spawn to the first answer, its CPU then, its RSS after 2 s at rest. */
async function serveRun(bin: string, dataDir: string): Promise<{ ms: number; cpuMs: number; rssMB: number }> {
  const port = await freePort();
  const started = process.hrtime.bigint();
  const child = spawn(
    process.execPath,
    // As `npm start` runs it.
    [
      YOUNG_GENERATION_FLAG,
      bin,
      "serve",
      "--data-dir",
      dataDir,
      "--port",
      String(port),
      "--log-level",
      "warn",
    ],
    { cwd: ROOT, stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  try {
    const url = `http://127.0.0.1:${port}/api/v1/server_settings`;
    for (const deadline = Date.now() + 120_000; ;) {
      if (child.exitCode !== null) throw new Error(`serve exited ${child.exitCode}: ${stderr}`);
      if (Date.now() > deadline) throw new Error(`serve did not answer in 120 s: ${stderr}`);
      const ok = await fetch(url).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    const cpuMs = cpuMsOf(child.pid!);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    return { ms, cpuMs, rssMB: rssMBOf(child.pid!) };
  } finally {
    child.kill("SIGTERM");
    await exited;
  }
}

export async function startupBench(
  quick: boolean,
  bin = path.join(ROOT, "bin/chat-server.js"),
): Promise<StartupResult> {
  const runs = quick ? 3 : 7;
  // A first run builds dist/server if a source changed, and warms the file cache: not counted.
  helpRun(bin);
  const help: number[] = [];
  const helpCpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const r = helpRun(bin);
    help.push(r.ms);
    helpCpu.push(r.cpuMs);
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-startup-"));
  try {
    await serveRun(bin, dataDir); // the first start creates the organization: not a restart
    const restart: number[] = [];
    const restartCpu: number[] = [];
    const rss: number[] = [];
    for (let i = 0; i < runs; i++) {
      const r = await serveRun(bin, dataDir);
      restart.push(r.ms);
      restartCpu.push(r.cpuMs);
      rss.push(r.rssMB);
    }
    const result = {
      helpMs: Math.round(median(help)),
      helpCpuMs: Math.round(median(helpCpu)),
      restartMs: Math.round(median(restart)),
      restartCpuMs: Math.round(median(restartCpu)),
      rssAtRestMB: median(rss),
      runs,
      bin: path.relative(ROOT, bin),
      targets: STARTUP_TARGETS,
    };
    return {
      ...result,
      met: {
        helpMs: result.helpMs < STARTUP_TARGETS.helpMs,
        restartMs: result.restartMs < STARTUP_TARGETS.restartMs,
        rssAtRestMB: result.rssAtRestMB < STARTUP_TARGETS.rssAtRestMB,
      },
    };
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** CPU of every waited-for child so far (ms); successive readings give each run's share. */
function childCpuMs(): number {
  const stat = fs.readFileSync(`/proc/${process.pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[13]) + Number(fields[14])) * 1000) / TICKS_PER_SECOND;
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf("--bin");
  const bin = i === -1 ? undefined : path.resolve(process.argv[i + 1]!);
  const result = await startupBench(process.argv.includes("--quick"), bin);
  console.log(JSON.stringify({ ...result, loadAvg: os.loadavg() }, null, 2));
}
