/**
 * bin/mapped-stacks.js: stacks of the compiled build name the TypeScript lines, with the chunk's
 * source map read only when a stack is formatted. Runs the real build (dist/server, made by Jest's
 * global set-up) in a child process, as bin/chat-server.js does.
 */
import { describe, expect, it } from "@jest/globals";
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** Runs `script` as an ES module in a new node process at the repository's root; answers stdout. */
async function node(script: string): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script], {
    cwd: ROOT,
  });
  return stdout;
}

// A TypeError thrown inside compiled code: ChatApiClient reads its config's `site`.
const THROW_IN_BUILD = `
  const { compiledEntry } = await import("./bin/build.js");
  const dir = new URL(".", await compiledEntry("chat-server")).href;
  MAP;
  const kit = await import(new URL("./bots-kit.js", dir).href);
  try { new kit.ChatApiClient(); } catch (err) { console.log(err.stack); }
`;

describe("stacks of the compiled build", () => {
  it("name the TypeScript file and line where the error was thrown", async () => {
    const stack = await node(
      THROW_IN_BUILD.replace(
        "MAP",
        'const { mapStacksOf } = await import("./bin/mapped-stacks.js"); mapStacksOf(dir)',
      ),
    );
    const [header, first] = stack.split("\n");
    expect(header).toMatch(/^TypeError: /);
    const at = /^ {4}at new ChatApiClient \((.+\.ts):(\d+):(\d+)\)$/.exec(first ?? "");
    expect(at?.[1]).toBe(path.join(ROOT, "bots/kit/rest-handler.ts"));
    // The line named is the one that reads the missing config's `site`.
    const line = fs.readFileSync(at![1]!, "utf8").split("\n")[Number(at![2]) - 1];
    expect(line).toContain(".site");
  });

  it("name the compiled chunk without it (what the mapping replaces)", async () => {
    const stack = await node(THROW_IN_BUILD.replace("MAP", ""));
    expect(stack.split("\n")[1]).toMatch(
      /^ {4}at new ChatApiClient \(file:\/\/.+\/dist\/server\/.+\.js:\d+:\d+\)$/,
    );
  });
});
