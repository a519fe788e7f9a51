import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startFakeChatApi } from "./testing/fake-chat-api.js";
import type { FakeChatApi } from "./testing/fake-chat-api.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const BIN = path.join(ROOT, "bin", "botserver.js");
const dir = mkdtempSync(path.join(tmpdir(), "botserver-cli-"));
const HELLO = { email: "helloworld-bot@example.com", key: "hello-key", fullName: "Hello Bot", userId: 55 };

function spawnCli(args: string[], env: Record<string, string> = {}): ChildProcess {
  const { ZULIP_BOTSERVER_CONFIG: _ignored, ...parentEnv } = process.env;
  return spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...parentEnv, ...env }, stdio: "pipe" });
}

function runCli(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawnCli(args, env);
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

/** Waits for the "listening on <url>" line of a running bot server. */
function listeningUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /listening on (http:\/\/\S+\/)/.exec(stderr);
      if (match?.[1]) resolve(match[1]);
    });
    child.on("close", (code) => reject(new Error(`bot server exited with ${String(code)}: ${stderr}`)));
  });
}

/** Polls until `get` returns a value (the bot answers after the webhook's response). */
async function eventually<T>(get: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = get();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.on("close", (code) => resolve(code)));
}

function rc(site: string, section = "helloworld", key = HELLO.key): string {
  return `[${section}]\nemail = ${HELLO.email}\nkey = ${key}\nsite = ${site}\ntoken = hello-token\n`;
}

describe("bin/botserver.js", () => {
  let api: FakeChatApi;
  let child: ChildProcess | undefined;
  beforeEach(async () => {
    api = await startFakeChatApi([HELLO]);
  });
  afterEach(async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      const done = exited(child);
      child.kill("SIGKILL");
      await done;
    }
    child = undefined;
    await api.close();
  });

  it("prints its options with --help", async () => {
    const { code, stdout } = await runCli(["--help"]);
    expect(code).toBe(0);
    for (const text of [
      "Usage: botserver --config-file <path/to/botserverrc> [--hostname=<address>] [--port=<port>]",
      "-c, --config-file",
      "-e, --use-env-vars",
      "--bot-config-file",
      "-b, --bot-name",
      '--hostname         Address to listen on                        [string] [default: "127.0.0.1"]',
      "[number] [default: 5002]",
    ]) {
      expect(stdout).toContain(text);
    }
  });

  it("exits 2 without a config source", async () => {
    const { code, stderr } = await runCli([]);
    expect(code).toBe(2);
    expect(stderr).toContain("Error: Give one of --config-file or --use-env-vars\n");
  });

  it("exits 1 naming the section and option of a bad config file", async () => {
    const file = path.join(dir, "missing-token");
    writeFileSync(file, "[helloworld]\nemail = a@example.com\nkey = k\nsite = http://127.0.0.1:9\n");
    const { code, stderr } = await runCli(["--config-file", file]);
    expect(code).toBe(1);
    expect(stderr).toBe("Error: Section [helloworld] is missing option 'token'\n");
  });

  it("exits 1 naming the section whose key the chat server rejects", async () => {
    const file = path.join(dir, "bad-key");
    writeFileSync(file, rc(api.site, "helloworld", "wrong"));
    const { code, stderr } = await runCli(["-c", file, "--port", "0"]);
    expect(code).toBe(1);
    expect(stderr).toBe(
      `Error: Section [helloworld]: the chat server at ${api.site} rejected the credentials of helloworld-bot@example.com (Invalid API key). Check 'email' and 'key'.\n`,
    );
  });

  it("serves a zuliprc's [api] bot chosen with --bot-name, replies through the chat API, stops on SIGTERM", async () => {
    const file = path.join(dir, "zuliprc");
    writeFileSync(file, rc(api.site, "api"));
    child = spawnCli(["-c", file, "--bot-name", "helloworld", "--port", "0"]);
    const url = await listeningUrl(child);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const res = await fetch(url, {
      method: "POST",
      body: JSON.stringify({
        data: "hi",
        message: {
          id: 7,
          content: "hi",
          sender_id: 10,
          sender_email: "hamlet@example.com",
          sender_full_name: "King Hamlet",
          type: "private",
          subject: "",
          display_recipient: [
            { id: 10, email: "hamlet@example.com", full_name: "King Hamlet" },
            { id: 55, email: HELLO.email, full_name: "Hello Bot" },
          ],
        },
        bot_email: HELLO.email,
        bot_full_name: "Hello Bot",
        token: "hello-token",
        trigger: "direct_message",
      }),
    });
    expect({ status: res.status, body: await res.json() }).toEqual({
      status: 200,
      body: { response_not_required: true },
    });
    expect(await eventually(() => api.botCalls()[0])).toEqual({
      method: "POST",
      path: "/api/v1/messages",
      auth: "helloworld-bot@example.com:hello-key",
      fields: {
        type: "private",
        to: '["hamlet@example.com","helloworld-bot@example.com"]',
        content: "beep boop",
      },
    });
    const done = exited(child);
    child.kill("SIGTERM");
    expect(await done).toBe(0);
  });

  it("reads ZULIP_BOTSERVER_CONFIG with --use-env-vars", async () => {
    const config = {
      helloworld: { email: HELLO.email, key: HELLO.key, site: api.site, token: "hello-token" },
    };
    child = spawnCli(["--use-env-vars", "--port", "0"], { ZULIP_BOTSERVER_CONFIG: JSON.stringify(config) });
    const url = await listeningUrl(child);
    const res = await fetch(url);
    expect(res.status).toBe(405);
    const health = await fetch(`${url}health`);
    expect(await health.json()).toEqual({
      result: "success",
      msg: "",
      status: "ok",
      bots: ["helloworld"],
      queues: { helloworld: 0 },
    });
  });
});
