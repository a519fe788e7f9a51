/**
 * CI smoke test of the benchmark: `bench/run.ts --quick` runs to completion and writes a result
 * with every section and a number for each of its headline metrics. Timings are not judged.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "@jest/globals";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** Headline metrics of each section; only the bot round trip may be "n/a" (with a reason). */
const REQUIRED: Record<string, string[]> = {
  ceiling: ["requestsPerSec", "p50Ms", "p99Ms"],
  webhook: ["requestsPerSec", "p50Ms", "p99Ms"],
  sendToEvent: ["p50Ms", "p99Ms"],
  fanout: ["p50Ms", "maxMs", "sendP50Ms"],
  idleQueues: ["bytesPerQueue"],
  bot: ["roundTripP50Ms", "roundTripP99Ms", "botServerRequestsPerSec"],
  messagesPost: ["requestsPerSec", "p50Ms", "p99Ms"],
  messagesGet: ["requestsPerSec", "p50Ms", "p99Ms"],
};
const MAY_BE_NA = new Set(["bot.roundTripP50Ms", "bot.roundTripP99Ms"]);

describe("npm run bench -- --quick", () => {
  it("completes and reports every section", async () => {
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "bench-test-")), "results.json");
    const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = execFile(
        process.execPath,
        ["bin/run-ts.js", "bench/run.ts", "--quick", "--out", out],
        { cwd: ROOT, timeout: 58_000, maxBuffer: 16 * 1024 * 1024 },
        (err, _stdout, stderr) => resolve({ code: err === null ? 0 : (child.exitCode ?? 1), stderr }),
      );
    });
    expect({ code, stderr: code === 0 ? "" : stderr.slice(-2000) }).toEqual({ code: 0, stderr: "" });
    const result = JSON.parse(fs.readFileSync(out, "utf8")) as {
      sections: Record<string, Record<string, unknown> & { na?: Record<string, string> }>;
    };
    const problems: string[] = [];
    for (const [name, metrics] of Object.entries(REQUIRED)) {
      const section = result.sections[name];
      if (section === undefined) {
        problems.push(`${name}: missing`);
        continue;
      }
      for (const m of metrics) {
        const v = section[m];
        if (typeof v === "number" && Number.isFinite(v)) continue;
        const reason = section.na?.[m];
        if (MAY_BE_NA.has(`${name}.${m}`) && typeof reason === "string" && reason !== "") continue;
        problems.push(`${name}.${m}: ${JSON.stringify(v)}${reason === undefined ? "" : ` (${reason})`}`);
      }
    }
    expect(problems).toEqual([]);
  }, 60_000);
});
