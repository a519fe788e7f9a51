/**
 * The README's walkthroughs, run as written (issue 27): the commands are read from README.md, not
 * copied here, so a README that drifts from what the commands do fails this test. Each runs through
 * bash in a fresh working folder, as a new user would from a clone (the folder links the repository's
 * files but has its own `./data`), on the README's own ports (9991 and 5002).
 *
 * - Quick start: `npm start`, then each `$ ` command of the zuliprc block; the output the README
 *   shows must be what the command printed (up to an ellipsis `…`).
 * - Writing an integration, step 5: `integration-url helloworld` and `send-webhook-fixture`; the
 *   message appears in #general, topic "Hello World".
 * - Bots: the three commands; a mention of the bot is answered "beep boop".
 *
 * `npm install`, the first half of the README's first command, is what prepared this repository.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { readZuliprc } from "../../src/tools/zuliprc.js";
import { apiClient } from "../helpers/client.js";
import type { ApiClient, Credentials } from "../helpers/client.js";
import { startShell } from "../helpers/process.js";
import type { RunningProcess } from "../helpers/process.js";
import { EventQueue } from "./e2e-helpers.js";

const ROOT = path.resolve(import.meta.dirname, "../..");
const README = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");
const SITE = "http://127.0.0.1:9991";

/** The body of the first fenced block after `heading` (a line of the README) whose text contains `marker`. */
function block(heading: string, marker: string): string {
  const from = README.indexOf(`\n${heading}\n`);
  expect(from).toBeGreaterThanOrEqual(0);
  const fences = README.slice(from).matchAll(/^ *```[a-z]*\n([\s\S]*?)^ *```$/gm);
  for (const [, body] of fences) if (body!.includes(marker)) return body!;
  throw new Error(`README.md: no block with ${marker} under ${heading}`);
}

/** The command lines of a block: without indentation and trailing `# comments`. */
const commandsOf = (body: string): string[] =>
  body
    .split("\n")
    .map((l) => l.trim().replace(/\s+#\s.*$/, ""))
    .filter((l) => l !== "");

let workdir: string;
const running: RunningProcess[] = [];

/** Starts a command line of the README in the new user's folder (stopped after the tests). */
function shell(command: string): RunningProcess {
  const p = startShell(command, workdir);
  running.push(p);
  return p;
}

/** Runs a command line to its end; answers its exit code and output. */
async function run(command: string): Promise<{ code: number | null; output: string }> {
  const p = shell(command);
  const code = await p.stop("SIGCONT");
  return { code, output: p.output() };
}

beforeAll(() => {
  // A new user's folder: the repository's files, its own data (none yet).
  workdir = fs.mkdtempSync(path.join(os.tmpdir(), "readme-e2e-"));
  for (const entry of fs.readdirSync(ROOT)) {
    if (entry === "data" || entry === ".git") continue;
    fs.symlinkSync(path.join(ROOT, entry), path.join(workdir, entry));
  }
});

afterAll(async () => {
  for (const s of running.reverse()) await s.stop();
  fs.rmSync(workdir, { recursive: true, force: true });
});

describe("the README's walkthroughs, as written", () => {
  let api: ApiClient;
  let owner: Credentials;

  it("Quick start: npm start, then the zuliprc block's commands print what the README shows", async () => {
    const start = commandsOf(block("## Quick start", "npm start"))[0]!;
    expect(start).toBe("npm install && npm start");
    const server = shell("npm start");
    await server.waitFor(/Chat server listening on http:\/\/127\.0\.0\.1:9991/, 120_000);
    expect(server.output()).toMatch(/owner@example\.com/);

    // `$ command` lines, each followed by the output the README shows for it.
    const lines = block("## Quick start", "cat data/zuliprc").split("\n");
    const steps: { command: string; shown: string }[] = [];
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      if (!line.startsWith("$ ")) continue;
      let command = line.slice(2);
      while (command.endsWith("\\")) command = `${command.slice(0, -1)} ${lines[++i]!.trim()}`;
      const shown: string[] = [];
      while (i + 1 < lines.length && !lines[i + 1]!.startsWith("$ ")) shown.push(lines[++i]!);
      steps.push({ command, shown: shown.join("\n").trim() });
    }
    expect(steps.map((s) => s.command.split(" ")[0])).toEqual(["cat", "KEY=$(sed", "curl", "curl"]);

    const env: string[] = [];
    for (const step of steps) {
      // The README's variables (KEY=…) carry to the next commands, as in one terminal.
      const { code, output } = await run([...env, step.command].join("\n"));
      if (/^\w+=/.test(step.command)) env.push(step.command);
      expect([step.command, code]).toEqual([step.command, 0]);
      const key = readZuliprc(path.join(workdir, "data/zuliprc")).key;
      const expected = step.shown.replace("<API_KEY>", key);
      const upTo = expected.indexOf("…");
      if (upTo === -1) expect(output.trim()).toBe(expected);
      else expect(output.trim().slice(0, upTo)).toBe(expected.slice(0, upTo));
    }
    const rc = readZuliprc(path.join(workdir, "data/zuliprc"));
    owner = { email: rc.email, apiKey: rc.key };
    api = apiClient(SITE);
  }, 180_000);

  it('Write an integration, step 5: the fixture appears in #general, topic "Hello World"', async () => {
    const commands = commandsOf(
      block("### Write an integration (walkthrough with helloworld)", "send-webhook-fixture"),
    );
    expect(commands.map((c) => c.split(" ").slice(0, 3).join(" "))).toEqual([
      "npx chat-server integration-url",
      "npx chat-server send-webhook-fixture",
    ]);
    for (const command of commands) {
      const { code, output } = await run(command);
      expect([command, code, output]).toEqual([command, 0, expect.any(String)]);
    }
    const got = await api.get("/api/v1/messages", {
      as: owner,
      params: {
        anchor: "newest",
        num_before: 1,
        num_after: 0,
        narrow: JSON.stringify([{ operator: "stream", operand: "general" }]),
      },
    });
    const [last] = got.body.messages as { subject: string; sender_email: string }[];
    expect([last?.subject, last?.sender_email]).toEqual([
      "Hello World",
      "helloworld-webhook-bot@example.com",
    ]);
  }, 120_000);

  it('Bots: the three commands run a bot that answers a mention with "beep boop"', async () => {
    for (const s of running.splice(0)) await s.stop(); // the Quick start's server gives the port back
    const [serve, createBot, botserver] = commandsOf(block("## Bots", "npx botserver"));
    const chat = shell(serve!);
    await chat.waitFor(/Chat server listening on http:\/\/127\.0\.0\.1:9991/, 60_000);
    const created = await run(createBot!);
    expect([createBot, created.code]).toEqual([createBot, 0]);
    expect(fs.statSync(path.join(workdir, "botserverrc")).mode & 0o777).toBe(0o600);
    const bots = shell(botserver!);
    await bots.waitFor(/with bots: helloworld/, 60_000);

    const queue = await EventQueue.register(api, owner);
    const sent = await api.post("/api/v1/messages", {
      as: owner,
      params: { type: "stream", to: "general", topic: "bots", content: "@**helloworld** hi" },
    });
    expect(sent.status).toBe(200);
    const reply = await queue.waitForMessage(
      (m) => m.sender_email === "helloworld-bot@example.com" && m.id > (sent.body.id as number),
    );
    expect(reply.content).toContain("beep boop");
  }, 120_000);
});
