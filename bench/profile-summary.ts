/**
 * `node bin/run-ts.js bench/profile-summary.ts FILE.cpuprofile [--top N] [--filter TEXT]`
 * Summarises a V8 CPU profile (node --cpu-prof): self and inclusive share of samples per function,
 * and per file. Used to find the hot paths behind docs/performance.md.
 */
import fs from "node:fs";

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

const file = process.argv[2];
if (file === undefined) {
  console.error("usage: profile-summary.ts FILE.cpuprofile [--top N]");
  process.exit(2);
}
const topIdx = process.argv.indexOf("--top");
const TOP = topIdx === -1 ? 30 : Number(process.argv[topIdx + 1]);
const profile = JSON.parse(fs.readFileSync(file, "utf8")) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

const short = (url: string): string => url.replace(/^file:\/\/\/work\/main\//, "").replace(/^node:/, "node:");
const key = (n: Node): string =>
  `${n.callFrame.functionName || "(anonymous)"} ${short(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;

const self = new Map<string, number>();
const incl = new Map<string, number>();
const fileSelf = new Map<string, number>();
let total = 0;
for (let i = 0; i < profile.samples.length; i++) {
  const dt = profile.timeDeltas[i] ?? 0;
  const leaf = byId.get(profile.samples[i]!)!;
  total += dt;
  self.set(key(leaf), (self.get(key(leaf)) ?? 0) + dt);
  const f = short(leaf.callFrame.url) || leaf.callFrame.functionName;
  fileSelf.set(f, (fileSelf.get(f) ?? 0) + dt);
  const seen = new Set<string>();
  for (let id: number | undefined = leaf.id; id !== undefined; id = parent.get(id)) {
    const k = key(byId.get(id)!);
    if (seen.has(k)) continue;
    seen.add(k);
    incl.set(k, (incl.get(k) ?? 0) + dt);
  }
}
const idle = [...self.entries()].filter(([k]) => k.startsWith("(idle)")).reduce((a, [, v]) => a + v, 0);
const pct = (v: number): string => `${((100 * v) / total).toFixed(1).padStart(5)}%`;
const print = (title: string, m: Map<string, number>): void => {
  console.log(`\n${title}`);
  for (const [k, v] of [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, TOP))
    console.log(`${pct(v)}  ${k}`);
};
console.log(`total ${(total / 1e6).toFixed(2)} s sampled, idle ${pct(idle)}`);
print("self time by function", self);
print("self time by file", fileSelf);
print("inclusive time by function", incl);
