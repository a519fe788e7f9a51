/**
 * V8's young generation for a serving process. With Node's default (16 MB semi-spaces), objects that
 * live for a request or a little longer (a webhook's parsed payload, its message, a trace's spans
 * waiting in the export batch) survive two scavenges under load and are copied into the old
 * generation, whose collection then costs every request. 64 MB semi-spaces let them die young:
 * measured (docs/performance.md) +15 % webhook throughput into 100 subscribers, and tracing's cost
 * about halved. V8 reads the size only at start-up (`v8.setFlagsFromString` cannot change it), so it
 * is a Node option: `npm start` passes it, the workers of `serve --workers N` get it from the
 * primary, and any other way of starting sets NODE_OPTIONS. It costs memory only under load: the
 * young generation grows from 1 MB as allocation demands, up to 2 × 64 MB.
 */
export const YOUNG_GENERATION_FLAG = "--max-semi-space-size=64";

/** Whether the semi-space size was chosen at start-up (ours, or the operator's own size). */
export function youngGenerationChosen(
  execArgv: readonly string[] = process.execArgv,
  nodeOptions: string = process.env["NODE_OPTIONS"] ?? "",
): boolean {
  const chosen = (arg: string): boolean => /^--max[-_]semi[-_]space[-_]size(=|$)/.test(arg);
  return execArgv.some(chosen) || nodeOptions.split(/\s+/).some(chosen);
}

/** `execArgv` with the young generation's size added, unless one was chosen. */
export function withYoungGeneration(
  execArgv: readonly string[] = process.execArgv,
  nodeOptions: string = process.env["NODE_OPTIONS"] ?? "",
): string[] {
  return youngGenerationChosen(execArgv, nodeOptions) ? [...execArgv] : [...execArgv, YOUNG_GENERATION_FLAG];
}
