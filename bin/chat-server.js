#!/usr/bin/env node
// The chat server's command line (src/cli.ts), compiled into dist/server by bin/build.js; rebuilt
// first when a source changed since the last build. Stack traces name the .ts lines (bin/mapped-stacks.js
// reads a chunk's source map only when a stack names it).
import v8 from "node:v8";
import { setEnvironmentData } from "node:worker_threads";
import { compiledEntry } from "./build.js";
import { mapStacksOf } from "./mapped-stacks.js";

if (process.argv.slice(2).includes("serve")) {
  // Start-up allocates mostly objects that live as long as the server (modules, the store's
  // statements): V8 would grow its young generation to 2 × 16 MB for them, and that stays resident
  // at rest. Held at its initial size until src/serve-command.ts has the server listening, which
  // restores V8's default growth.
  v8.setFlagsFromString("--semi-space-growth-factor=1");
  process.env["CHAT_SERVER_YOUNG_GROWTH_HELD"] = "1";
}
const entry = await compiledEntry("chat-server");
const compiledDir = new URL(".", entry).href;
mapStacksOf(compiledDir);
// The server's threads (bin/thread.js: the delivery log's writer, the template renderer) run the
// same build.
setEnvironmentData("chat-server:compiled-dir", compiledDir);
await import(entry);
