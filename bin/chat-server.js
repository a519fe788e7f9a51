#!/usr/bin/env node
// The chat server's command line (src/cli.ts), compiled into dist/server by bin/build.js; rebuilt
// first when a source changed since the last build. Stack traces name the .ts lines, except those of
// a long-running `serve`: Node holds every loaded chunk's source map in memory once they are enabled
// (about 5 MB of a server at rest), so there they are opt-in: `node --enable-source-maps
// bin/chat-server.js serve` (or NODE_OPTIONS=--enable-source-maps).
import v8 from "node:v8";
import { setEnvironmentData } from "node:worker_threads";
import { compiledEntry } from "./build.js";

const serving = process.argv.slice(2).includes("serve");
if (!serving) process.setSourceMapsEnabled(true);
else {
  // Start-up allocates mostly objects that live as long as the server (modules, the store's
  // statements): V8 would grow its young generation to 2 × 16 MB for them, and that stays resident
  // at rest. Held at its initial size until src/serve-command.ts has the server listening, which
  // restores V8's default growth.
  v8.setFlagsFromString("--semi-space-growth-factor=1");
  process.env["CHAT_SERVER_YOUNG_GROWTH_HELD"] = "1";
}
const entry = await compiledEntry("chat-server");
// The server's threads (bin/thread.js: the delivery log's writer, the template renderer) run the
// same build.
setEnvironmentData("chat-server:compiled-dir", new URL(".", entry).href);
await import(entry);
