#!/usr/bin/env node
// The chat server's command line (src/cli.ts), compiled into dist/server by bin/build.js; rebuilt
// first when a source changed since the last build. Stack traces name the .ts lines.
import { setEnvironmentData } from "node:worker_threads";
import { compiledEntry } from "./build.js";

process.setSourceMapsEnabled(true);
const entry = await compiledEntry("chat-server");
// The server's threads (bin/thread.js: the delivery log's writer, the template renderer) run the
// same build.
setEnvironmentData("chat-server:compiled-dir", new URL(".", entry).href);
await import(entry);
