#!/usr/bin/env node
// Runs a TypeScript entry point through tsx's loader: `node bin/run-ts.js path/to/file.ts [args…]`.
import { register } from "tsx/esm/api";
import { pathToFileURL } from "node:url";
import path from "node:path";

register();
const [, , entry, ...rest] = process.argv;
if (!entry) {
  console.error("usage: run-ts.js FILE.ts [ARGS…]");
  process.exit(2);
}
process.argv = [process.argv[0], entry, ...rest];
await import(pathToFileURL(path.resolve(entry)).href);
