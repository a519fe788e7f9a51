/**
 * `node bin/run-ts.js bench/check-results.ts FILE`: checks that a `bench/run.ts` result file has
 * every section and a number for each headline metric (only the bot round trip may be "n/a", with
 * a reason, and the web section when the machine has no Chromium). Timings are not judged: CI runs `npm run bench:smoke` as its own step, outside the
 * test suite, so a busy machine slows it down but cannot turn it red.
 */
import fs from "node:fs";

/** Headline metrics of each section of a `--quick` run. */
const REQUIRED: Record<string, string[]> = {
  ceiling: ["requestsPerSec", "p50Ms", "p99Ms"],
  startup: ["helpMs", "restartMs", "rssAtRestMB"],
  webhook: ["requestsPerSec", "p50Ms", "p99Ms"],
  sendToEvent: ["p50Ms", "p99Ms"],
  fanout: ["p50Ms", "maxMs", "sendP50Ms"],
  idleQueues: ["bytesPerQueue"],
  bot: ["roundTripP50Ms", "roundTripP99Ms", "botServerRequestsPerSec"],
  messagesPost: ["requestsPerSec", "p50Ms", "p99Ms"],
  messagesGet: ["requestsPerSec", "p50Ms", "p99Ms"],
  web: ["firstScreenMs", "jsGzipBytes", "latencyMedianMs"],
  search: ["p50Ms", "p99Ms"],
  upload: ["uploadP50Ms"],
};
const MAY_BE_NA = new Set(["bot.roundTripP50Ms", "bot.roundTripP99Ms"]);
/** The web section needs Chromium (bench/web.ts); without it, its "n/a" reason says so. */
const NA_WITHOUT_CHROMIUM = /^no Chromium at /;

type Section = Record<string, unknown> & { na?: Record<string, string> };

/** What is missing or not a number in a result, one line each; empty when the result is whole. */
function resultProblems(result: { sections?: Record<string, Section> }): string[] {
  const problems: string[] = [];
  for (const [name, metrics] of Object.entries(REQUIRED)) {
    const section = result.sections?.[name];
    if (section === undefined) {
      problems.push(`${name}: missing`);
      continue;
    }
    for (const m of metrics) {
      const v = section[m];
      if (typeof v === "number" && Number.isFinite(v)) continue;
      const reason = section.na?.[m];
      if (MAY_BE_NA.has(`${name}.${m}`) && typeof reason === "string" && reason !== "") continue;
      if (name === "web" && typeof reason === "string" && NA_WITHOUT_CHROMIUM.test(reason)) continue;
      problems.push(`${name}.${m}: ${JSON.stringify(v)}${reason === undefined ? "" : ` (${reason})`}`);
    }
  }
  return problems;
}

const file = process.argv[2];
if (file === undefined) {
  console.error("usage: check-results.ts FILE");
  process.exit(2);
}
const problems = resultProblems(
  JSON.parse(fs.readFileSync(file, "utf8")) as { sections?: Record<string, Section> },
);
if (problems.length > 0) {
  console.error(`bench result ${file} is incomplete:\n  ${problems.join("\n  ")}`);
  process.exit(1);
}
console.log(`bench result ${file}: every section and headline metric present`);
