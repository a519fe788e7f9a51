/**
 * Builds the web app (web/ → dist/web) with Vite. `npm install` runs it (prepare) and `npm start`
 * runs it with --if-stale (prestart), so a fresh clone serves the app with no extra command.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const OUT = path.join(ROOT, "dist/web/index.html");
const SOURCES = [path.join(ROOT, "web"), path.join(ROOT, "vite.config.ts")];

function newestMtime(p: string): number {
  const stat = fs.statSync(p);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, entry)));
  return newest;
}

/** Whether dist/web is missing or older than any source file. */
export function isStale(): boolean {
  if (!fs.existsSync(OUT)) return true;
  const built = fs.statSync(OUT).mtimeMs;
  return SOURCES.some((s) => fs.existsSync(s) && newestMtime(s) > built);
}

export async function buildWeb(opts: { quiet?: boolean } = {}): Promise<void> {
  const { build } = await import("vite");
  await build({ configFile: path.join(ROOT, "vite.config.ts"), logLevel: opts.quiet ? "warn" : "info" });
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const args = process.argv.slice(2);
  if (args.includes("--help")) {
    console.log(
      "Usage: build-web [--if-stale]\n\nBuilds web/ into dist/web with Vite.\n  --if-stale  only when dist/web is missing or older than web/",
    );
  } else if (args.includes("--if-stale") && !isStale()) {
    console.log("web app: dist/web is up to date");
  } else {
    await buildWeb();
  }
}
