#!/usr/bin/env node
// The bot server's command line (bots/server/cli.ts), run through tsx so no build step is needed.
import { register } from "tsx/esm/api";

register();
await import("../bots/server/cli.ts");
