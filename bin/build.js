#!/usr/bin/env node
// The compiled build of the chat server, the bot server and the CLI: esbuild bundles the
// TypeScript entry points into dist/server (ES modules, split into chunks so that what a command
// or a request loads with `import()` is a chunk of its own, with source maps).
//
//   node bin/build.js             build (npm run build; npm install runs it as `prepare`)
//   node bin/build.js --if-stale  build only when a source is newer than the build
//
// bin/chat-server.js and bin/botserver.js call `compiledEntry()`: it
// rebuilds first when any source file the last build read is newer than that build (or missing),
// so an edited .ts file never runs as old code. Concurrent callers (a test suite spawning many
// processes) take a lock: one builds, the others wait for it and then use its output.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const ROOT = fileURLToPath(new URL("../", import.meta.url));
export const OUT_DIR = path.join(ROOT, "dist", "server");
const MANIFEST = path.join(OUT_DIR, "build-manifest.json");
const LOCK = path.join(ROOT, "dist", "server.build-lock");

/** Output name → source entry point. Every output sits directly in dist/server. */
const ENTRIES = {
  "chat-server": "src/cli.ts",
  botserver: "bots/server/cli.ts",
  "deliveries-writer": "src/domain/deliveries/writer-thread.ts",
  "template-worker": "integrations/template/render-worker.ts",
  // The package export `zulip-compatible-chat/bots` (package.json "exports"): a bot outside this
  // repository shares the bot server's modules through it.
  "bots-kit": "bots/kit/index.ts",
  // The package export `zulip-compatible-chat/integrations`: the integration kit for integrations
  // written outside this repository (serve --integrations-path; docs/writing-integrations.md).
  "integrations-kit": "integrations/kit/index.ts",
};

/** Packages left to Node's resolution at run time. */
// @opentelemetry/*: the SDK is loaded only when tracing is on (src/lib/tracing.ts), as Node resolves it.
const EXTERNAL = ["better-sqlite3", "sharp", "pg-native", "esbuild", "tsx", "tsx/*", "@opentelemetry/*"];

/** Bundled CommonJS packages call `require` and read `__dirname`: ES modules have neither. */
const BANNER = [
  'import { createRequire as __createRequire } from "node:module";',
  "const require = __createRequire(import.meta.url);",
].join("\n");

/** Files whose change makes a build stale besides its inputs: the build's own settings. */
const SETTINGS = ["bin/build.js", "tsconfig.json", "package.json", "node_modules/.package-lock.json"];

/**
 * The `file:` URL of an up-to-date compiled entry (`chat-server`, `botserver`, …), building first
 * when the sources changed since the last build.
 */
export async function compiledEntry(name) {
  if (!(name in ENTRIES)) throw new Error(`unknown entry ${name}`);
  const reason = staleReason();
  if (reason !== undefined) {
    if (fs.existsSync(path.join(OUT_DIR, `${name}.js`)) && !(await esbuildInstalled())) {
      // A production install without development dependencies (npm install --omit=dev rewrites
      // node_modules/.package-lock.json): nothing can rebuild, so the build made before runs.
      process.stderr.write(
        `Running dist/server although ${reason} since it was built: esbuild is not installed to rebuild it.\n`,
      );
    } else {
      await buildLocked(reason, { quiet: false });
    }
  }
  return pathToFileURL(path.join(OUT_DIR, `${name}.js`)).href;
}

/**
 * Jest's globalSetup (jest.config.js): the tests that spawn bin/ (test/e2e, test/cli, test/scale,
 * the bot server's) run the build of the sources they test, made once before they start.
 */
export default async function buildBeforeTests() {
  const reason = staleReason();
  if (reason !== undefined) await buildLocked(reason, { quiet: true });
}

async function esbuildInstalled() {
  try {
    await import("esbuild");
    return true;
  } catch {
    return false;
  }
}

/** Why the build in dist/server cannot be used (undefined: it is up to date). */
export function staleReason() {
  let manifest;
  try {
    manifest = JSON.parse(fs.readFileSync(MANIFEST, "utf8"));
  } catch {
    return "dist/server has no build";
  }
  for (const file of [...SETTINGS, ...manifest.inputs]) {
    let mtime;
    try {
      mtime = fs.statSync(path.join(ROOT, file)).mtimeMs;
    } catch {
      return `${file} is gone`;
    }
    if (mtime > manifest.startedAt) return `${file} changed`;
  }
  return undefined;
}

async function buildLocked(reason, { quiet, force = false }) {
  fs.mkdirSync(path.dirname(LOCK), { recursive: true });
  for (const deadline = Date.now() + 120_000; ;) {
    try {
      fs.mkdirSync(LOCK);
      break;
    } catch (err) {
      if (err.code !== "EEXIST") throw err;
      if (lockHolderIsGone()) {
        fs.rmSync(LOCK, { recursive: true, force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`${LOCK} held for 2 minutes: remove it if no build runs`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      if (!force && staleReason() === undefined) return; // another process built it meanwhile
    }
  }
  try {
    fs.writeFileSync(path.join(LOCK, "pid"), String(process.pid));
    if (!force && staleReason() === undefined) return;
    if (!quiet) process.stderr.write(`Compiling the server into dist/server (${reason})…\n`);
    await build();
  } finally {
    fs.rmSync(LOCK, { recursive: true, force: true });
  }
}

function lockHolderIsGone() {
  let pid;
  try {
    pid = Number(fs.readFileSync(path.join(LOCK, "pid"), "utf8"));
  } catch {
    // Made but not yet stamped: give its maker a moment unless it is old.
    try {
      return Date.now() - fs.statSync(LOCK).mtimeMs > 10_000;
    } catch {
      return false;
    }
  }
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return err.code === "ESRCH";
  }
}

/** Build dist/server now. Chunks of the previous build stay one more build, for a process still running it. */
export async function build() {
  let esbuild;
  try {
    esbuild = await import("esbuild");
  } catch {
    throw new Error(
      "dist/server is missing or older than the sources, and esbuild (a development dependency) is not installed: run npm install",
    );
  }
  const startedAt = Date.now();
  const result = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: ENTRIES,
    outdir: OUT_DIR,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    // npm packages are bundled too (one file read instead of hundreds at start-up), except those
    // with native code or files of their own that they find at run time.
    external: EXTERNAL,
    banner: { js: BANNER },
    // Whitespace and syntax minified (less source for V8 to keep and parse); names kept.
    minifyWhitespace: true,
    minifySyntax: true,
    sourcemap: "linked",
    sourcesContent: false,
    metafile: true,
    chunkNames: "[name]-[hash]",
    logLevel: "warning",
    plugins: [sourceRelativeUrls()],
  });
  const outputs = Object.keys(result.metafile.outputs).map((f) => path.basename(f));
  for (const file of outputs) if (file.endsWith(".js")) asciiOnly(path.join(OUT_DIR, file));
  const previous = readManifest()?.outputs ?? [];
  const keep = new Set([...outputs, ...previous, "build-manifest.json"]);
  for (const file of fs.readdirSync(OUT_DIR)) {
    if (!keep.has(file)) fs.rmSync(path.join(OUT_DIR, file), { force: true });
  }
  // Bundled packages change only through npm install, which rewrites node_modules/.package-lock.json.
  const inputs = Object.keys(result.metafile.inputs).filter((f) => !f.includes("node_modules/"));
  const manifest = { startedAt, inputs, outputs };
  fs.writeFileSync(`${MANIFEST}.tmp`, JSON.stringify(manifest) + "\n");
  fs.renameSync(`${MANIFEST}.tmp`, MANIFEST);
  return { inputs: inputs.length, outputs: outputs.length, ms: Date.now() - startedAt };
}

function readManifest() {
  try {
    return JSON.parse(fs.readFileSync(MANIFEST, "utf8"));
  } catch {
    return undefined;
  }
}

/**
 * Every output file sits in dist/server, two folders below the root, but a source module finds
 * files next to it through `import.meta.url` (`new URL("../../../dist/web/", import.meta.url)`):
 * in each source, `import.meta.url` becomes the URL its .ts file has, computed from the chunk's.
 */
function sourceRelativeUrls() {
  return {
    name: "source-relative-import-meta-url",
    setup(b) {
      b.onLoad({ filter: /\.ts$/ }, async (args) => {
        let contents = await fs.promises.readFile(args.path, "utf8");
        if (
          contents.includes("import.meta.url") &&
          !args.path.includes(`${path.sep}node_modules${path.sep}`)
        ) {
          const rel = path.relative(ROOT, args.path).split(path.sep).join("/");
          contents = contents.replaceAll(
            "import.meta.url",
            `new URL(${JSON.stringify(rel)}, new URL("../../", import.meta.url)).href`,
          );
        }
        return { contents, loader: "ts" };
      });
    },
  };
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const ifStale = process.argv.includes("--if-stale");
  const reason = staleReason();
  if (ifStale && reason === undefined) {
    console.log("dist/server is up to date");
  } else {
    await buildLocked(reason ?? "asked", { quiet: true, force: !ifStale });
    const m = readManifest();
    console.log(`Compiled ${m.inputs.length} sources into dist/server (${m.outputs.length} files)`);
  }
}

/**
 * V8 keeps every module's source as a string for as long as the module lives, and one character
 * outside Latin-1 makes it a two-byte string: esbuild leaves non-ASCII characters of regular
 * expression literals as they are, which doubled the 2.8 MB serve chunk to 5.5 MB of resident heap.
 * Escaping them (\uXXXX, a surrogate pair above U+FFFF, which a /u pattern reads as one code point)
 * keeps the sources one-byte. Columns after an escaped character on its line shift in the source map.
 */
function asciiOnly(file) {
  const text = fs.readFileSync(file, "utf8");
  // eslint-disable-next-line no-control-regex -- the complement of ASCII
  if (!/[^\x00-\x7f]/.test(text)) return;
  const escaped = text.replace(
    /[^\x00-\x7f]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`,
  );
  fs.writeFileSync(file, escaped);
}
