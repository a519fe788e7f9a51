/** Latency statistics over raw samples (nanoseconds from process.hrtime.bigint()). */
export interface LatencySummary {
  count: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  meanMs: number;
}

/** Nearest-rank percentile of ascending `sorted` (q in 0..100). */
export function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((q / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

export function summarizeNs(samplesNs: readonly bigint[]): LatencySummary {
  const ms = samplesNs.map((ns) => Number(ns) / 1e6).sort((a, b) => a - b);
  const sum = ms.reduce((a, b) => a + b, 0);
  return {
    count: ms.length,
    p50Ms: round(percentile(ms, 50)),
    p99Ms: round(percentile(ms, 99)),
    maxMs: round(ms[ms.length - 1] ?? NaN),
    meanMs: round(ms.length === 0 ? NaN : sum / ms.length),
  };
}

export function round(n: number, digits = 3): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

export function now(): bigint {
  return process.hrtime.bigint();
}
