#!/usr/bin/env node
// The bot server's command line (bots/server/cli.ts), compiled into dist/server by bin/build.js;
// rebuilt first when a source changed since the last build. Stack traces name the .ts lines.
import { compiledEntry } from "./build.js";

process.setSourceMapsEnabled(true);
await import(await compiledEntry("botserver"));
