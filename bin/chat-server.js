#!/usr/bin/env node
// The chat server's command line (src/cli.ts), run through tsx so no build step is needed.
import { register } from "tsx/esm/api";

register();
await import("../src/cli.ts");
