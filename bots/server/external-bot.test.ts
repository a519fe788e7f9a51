/**
 * Bots that live outside this repository: a module whose default export is `defineBot(…)`,
 * importing the kit as the package export `zulip-compatible-chat/bots`, run by bin/botserver.js
 * from `bot = ./path` in the config or `--bot-path` with `--bot-name`.
 */
import { afterEach, describe, expect, it, jest } from "@jest/globals";
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { silentLogger } from "./app.js";
import { ConfigError, parseBotServerConfig } from "./config.js";
import { startBotServer } from "./start.js";
import { startFakeChatApi } from "./testing/fake-chat-api.js";
import type { FakeChatApi } from "./testing/fake-chat-api.js";

// Real processes start here (tsx compiles each): slow on a busy machine.
jest.setTimeout(60_000);

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const BIN = path.join(ROOT, "bin", "botserver.js");
const SHOUT = { email: "shout-bot@example.com", key: "shout-key", fullName: "Shout", userId: 70 };

/** An operator's project outside the repository, with the package installed (as `npm install <repo>` links it). */
function operatorProject(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "my-bots-"));
  mkdirSync(path.join(dir, "node_modules"));
  symlinkSync(ROOT, path.join(dir, "node_modules", "zulip-compatible-chat"), "dir");
  writeFileSync(path.join(dir, "package.json"), '{ "name": "my-bots", "type": "module", "private": true }\n');
  mkdirSync(path.join(dir, "shout"));
  writeFileSync(
    path.join(dir, "shout", "index.js"),
    [
      'import { defineBot } from "zulip-compatible-chat/bots";',
      "",
      "export default defineBot({",
      '  name: "shout",',
      '  usage: "Repeats what you say, louder.",',
      "  async handleMessage(message, bot) {",
      "    await bot.sendReply(message, `${message.content.toUpperCase()}!`);",
      "  },",
      "});",
      "",
    ].join("\n"),
  );
  writeFileSync(path.join(dir, "not-a-bot.js"), "export default 42;\n");
  return dir;
}

function webhook(id: number): Record<string, unknown> {
  return {
    data: "@**Shout** hello",
    message: {
      id,
      content: "@**Shout** hello",
      sender_id: 10,
      sender_email: "hamlet@example.com",
      sender_full_name: "King Hamlet",
      type: "stream",
      display_recipient: "Denmark",
      stream_id: 1,
      subject: "castle",
    },
    bot_email: SHOUT.email,
    bot_full_name: "Shout",
    token: "shout-token",
    trigger: "mention",
  };
}

async function eventually<T>(get: () => T | undefined, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = get();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

let api: FakeChatApi | undefined;
let child: ChildProcess | undefined;
afterEach(async () => {
  if (child && child.exitCode === null && child.signalCode === null) {
    const done = new Promise((resolve) => child?.once("close", resolve));
    child.kill("SIGTERM");
    await done;
  }
  await api?.close();
  child = api = undefined;
});

function run(args: string[], cwd: string): () => string {
  let out = "";
  child = spawn(process.execPath, [BIN, ...args], { cwd, stdio: "pipe" });
  child.stderr?.on("data", (chunk: Buffer) => (out += chunk.toString()));
  return () => out;
}

async function expectShout(output: () => string): Promise<void> {
  const url = await eventually(() => /listening on (http:\/\/\S+\/)/.exec(output())?.[1]);
  const res = await fetch(url, { method: "POST", body: JSON.stringify(webhook(5)) });
  expect(res.status).toBe(200);
  const reply = await eventually(() => api!.botCalls().find((r) => r.path === "/api/v1/messages"));
  expect(reply).toEqual({
    method: "POST",
    path: "/api/v1/messages",
    auth: "shout-bot@example.com:shout-key",
    fields: { type: "stream", to: "Denmark", topic: "castle", content: "HELLO!" },
  });
}

describe("a bot from outside the repository", () => {
  it("runs from `bot = ./shout/index.js` in the config (relative to the config file)", async () => {
    api = await startFakeChatApi([SHOUT]);
    const dir = operatorProject();
    writeFileSync(
      path.join(dir, "botserverrc"),
      `[shout]\nbot = ./shout/index.js\nemail = ${SHOUT.email}\nkey = ${SHOUT.key}\nsite = ${api.site}\ntoken = shout-token\n`,
    );
    await expectShout(run(["--config-file", path.join(dir, "botserverrc"), "--port", "0"], ROOT));
  });

  it("runs from --bot-path with --bot-name and a downloaded zuliprc", async () => {
    api = await startFakeChatApi([SHOUT]);
    const dir = operatorProject();
    writeFileSync(
      path.join(dir, "zuliprc"),
      `[api]\nemail = ${SHOUT.email}\nkey = ${SHOUT.key}\nsite = ${api.site}\ntoken = shout-token\n`,
    );
    await expectShout(
      run(["-c", "zuliprc", "--bot-name", "shout", "--bot-path", "./shout/index.js", "--port", "0"], dir),
    );
  });

  it("names the section and module when the module has no defineBot default export", async () => {
    api = await startFakeChatApi([SHOUT]);
    const dir = operatorProject();
    const config = parseBotServerConfig(
      `[shout]\nbot = ./not-a-bot.js\nemail = ${SHOUT.email}\nkey = ${SHOUT.key}\nsite = ${api.site}\ntoken = t\n`,
      { baseDir: dir },
    );
    const err = await startBotServer({ config, port: 0, logger: silentLogger }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toBe(
      `Section [shout]: the module ${path.join(dir, "not-a-bot.js")} must have a default export made with defineBot(…)`,
    );
  });
});
