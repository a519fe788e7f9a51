import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * This package's version, for `--version` of the chat server and the bot server: from the first
 * package.json above this module (the sources' and the compiled build's own folder alike), not
 * from the working directory's project (yargs' guess, which named another project's version when
 * run inside one). "unknown" when no package.json can be read.
 */
export function packageVersion(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = path.join(dir, "package.json");
    if (fs.existsSync(file)) {
      try {
        const { version } = JSON.parse(fs.readFileSync(file, "utf8")) as { version?: unknown };
        return typeof version === "string" ? version : "unknown";
      } catch {
        return "unknown";
      }
    }
    const parent = path.dirname(dir);
    if (parent === dir) return "unknown";
    dir = parent;
  }
}
