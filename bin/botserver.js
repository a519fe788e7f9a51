#!/usr/bin/env node
// The bot server's command line (bots/server/cli.ts), compiled into dist/server by bin/build.js;
// rebuilt first when a source changed since the last build. Stack traces name the .ts lines
// (bin/mapped-stacks.js).
import { compiledEntry } from "./build.js";
import { mapStacksOf } from "./mapped-stacks.js";

const entry = await compiledEntry("botserver");
mapStacksOf(new URL(".", entry).href);
await import(entry);
