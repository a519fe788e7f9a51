/**
 * Operating the bot server: GET /health, GET /metrics (Prometheus), SIGHUP reload of the config
 * (valid and invalid), --log-format json, GET / still 405. Real processes for the signal and logs.
 */
import { afterEach, describe, expect, it, jest } from "@jest/globals";
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineBot } from "../kit/index.js";
import { silentLogger } from "./app.js";
import { parseBotServerConfig } from "./config.js";
import { startBotServer } from "./start.js";
import type { RunningBotServer } from "./start.js";
import { startFakeChatApi } from "./testing/fake-chat-api.js";
import type { FakeChatApi } from "./testing/fake-chat-api.js";

// Real processes start here (tsx compiles each): slow on a busy machine.
jest.setTimeout(60_000);

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const BIN = path.join(ROOT, "bin", "botserver.js");
const dir = mkdtempSync(path.join(tmpdir(), "botserver-ops-"));
const HELLO = { email: "helloworld-bot@example.com", key: "hello-key", fullName: "Hello Bot", userId: 55 };
const HELLO2 = { email: "helloworld-bot@example.com", key: "new-key", fullName: "Hello Bot", userId: 55 };
const ENCRYPT = { email: "encrypt-bot@example.com", key: "enc-key", fullName: "Encrypt", userId: 56 };

function section(name: string, account: { email: string; key: string }, site: string, token: string): string {
  return `[${name}]\nemail = ${account.email}\nkey = ${account.key}\nsite = ${site}\ntoken = ${token}\n`;
}

function webhook(email: string, name: string, token: string, id: number): Record<string, unknown> {
  return {
    data: "hi",
    message: {
      id,
      content: `@**${name}** hi`,
      sender_id: 10,
      sender_email: "hamlet@example.com",
      sender_full_name: "King Hamlet",
      type: "stream",
      display_recipient: "Denmark",
      stream_id: 1,
      subject: "castle",
    },
    bot_email: email,
    bot_full_name: name,
    token,
    trigger: "mention",
  };
}

async function eventually<T>(get: () => T | undefined | false, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = get();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

let api: FakeChatApi | undefined;
let server: RunningBotServer | undefined;
let child: ChildProcess | undefined;
afterEach(async () => {
  if (child && child.exitCode === null && child.signalCode === null) {
    const done = new Promise((resolve) => child?.once("close", resolve));
    child.kill("SIGTERM");
    await done;
  }
  await server?.close();
  await api?.close();
  child = server = api = undefined;
});

describe("GET /metrics", () => {
  it("counts requests by bot and outcome, handler durations, replies, queue depth and chat-API errors and retries", async () => {
    api = await startFakeChatApi([HELLO]);
    server = await startBotServer({
      config: parseBotServerConfig(section("helloworld", HELLO, api.site, "hello-token")),
      port: 0,
      logger: silentLogger,
      sleep: () => Promise.resolve(),
    });
    api.faults.push({ kind: "429", retryAfter: "1" });
    const post = (body: unknown) => fetch(server!.url, { method: "POST", body: JSON.stringify(body) });
    expect((await post(webhook(HELLO.email, "Hello Bot", "hello-token", 1))).status).toBe(200);
    expect((await post(webhook(HELLO.email, "Hello Bot", "wrong", 2))).status).toBe(401);
    expect((await post(webhook("nobody@example.com", "X", "t", 3))).status).toBe(400);
    await server.idle();
    const res = await fetch(`${server.url}metrics`);
    expect(res.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    const lines = (await res.text()).split("\n").filter((l) => l !== "" && !l.startsWith("#"));
    const pick = (prefix: string) => lines.filter((l) => l.startsWith(prefix));
    expect(pick("botserver_requests_total")).toEqual([
      'botserver_requests_total{bot="helloworld",outcome="accepted"} 1',
      'botserver_requests_total{bot="helloworld",outcome="bad_token"} 1',
      'botserver_requests_total{bot="",outcome="unknown_bot"} 1',
    ]);
    expect(pick("botserver_messages_handled_total")).toEqual([
      'botserver_messages_handled_total{bot="helloworld",outcome="handled"} 1',
    ]);
    expect(pick("botserver_handler_duration_seconds_count")).toEqual([
      'botserver_handler_duration_seconds_count{bot="helloworld"} 1',
    ]);
    expect(pick("botserver_replies_sent_total")).toEqual([
      'botserver_replies_sent_total{bot="helloworld"} 1',
    ]);
    expect(pick("botserver_queue_depth")).toEqual(['botserver_queue_depth{bot="helloworld"} 0']);
    expect(pick("botserver_chat_api_errors_total")).toEqual([
      'botserver_chat_api_errors_total{bot="helloworld",status="429"} 1',
    ]);
    expect(pick("botserver_chat_api_retries_total")).toEqual([
      'botserver_chat_api_retries_total{bot="helloworld"} 1',
    ]);
    expect(pick("botserver_bots")).toEqual(["botserver_bots 1"]);
  });
});

describe("reload", () => {
  it("lets messages already accepted finish with the old key while new ones use the new key", async () => {
    api = await startFakeChatApi([HELLO, HELLO2]);
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow = defineBot({
      name: "helloworld",
      usage: "Waits for the gate on 'slow', then answers.",
      async handleMessage(message, bot) {
        if (message.content === "slow") await gate;
        await bot.sendReply(message, message.content);
      },
    });
    const registry = new Map([["helloworld", slow]]);
    server = await startBotServer({
      config: parseBotServerConfig(section("helloworld", HELLO, api.site, "hello-token")),
      registry,
      port: 0,
      logger: silentLogger,
    });
    const post = (content: string, id: number, topic: string) =>
      fetch(server!.url, {
        method: "POST",
        body: JSON.stringify({
          ...webhook(HELLO.email, "Hello Bot", "hello-token", id),
          message: {
            ...(webhook(HELLO.email, "Hello Bot", "hello-token", id).message as object),
            content: `@**Hello Bot** ${content}`,
            subject: topic,
          },
        }),
      }).then((r) => r.status);
    expect(await post("slow", 1, "a")).toBe(200);
    expect(
      await server.reload(parseBotServerConfig(section("helloworld", HELLO2, api.site, "hello-token"))),
    ).toEqual({ added: [], removed: [], changed: ["helloworld"], unchanged: [] });
    expect(await post("fast", 2, "b")).toBe(200);
    await eventually(() => api!.requests.find((r) => r.fields.content === "fast"));
    release();
    await server.idle();
    const replies = api.requests
      .filter((r) => r.path === "/api/v1/messages")
      .map((r) => [r.fields.content, r.auth]);
    expect(replies).toEqual([
      ["fast", "helloworld-bot@example.com:new-key"],
      ["slow", "helloworld-bot@example.com:hello-key"],
    ]);
  });
});

describe("bin/botserver.js operations", () => {
  function spawnCli(args: string[]): { child: ChildProcess; output: () => string } {
    const c = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, stdio: "pipe" });
    let out = "";
    c.stderr.on("data", (chunk: Buffer) => (out += chunk.toString()));
    c.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child = c;
    return { child: c, output: () => out };
  }

  it("reloads its config on SIGHUP: added bots start, removed stop, changed keys apply; an invalid file is refused", async () => {
    api = await startFakeChatApi([HELLO, HELLO2, ENCRYPT]);
    const file = path.join(dir, "reload-rc");
    writeFileSync(file, section("helloworld", HELLO, api.site, "hello-token"));
    const cli = spawnCli(["-c", file, "--port", "0", "--log-format", "json"]);
    const url = await eventually(
      () => /"msg":"listening on (http:\/\/[^ ]+\/) with bots/.exec(cli.output())?.[1],
    );
    const health = async () => ((await (await fetch(`${url}health`)).json()) as { bots: string[] }).bots;
    expect(await health()).toEqual(["helloworld"]);

    // Valid: helloworld's key changes, encrypt is added.
    writeFileSync(
      file,
      section("helloworld", HELLO2, api.site, "hello-token") +
        section("encrypt", ENCRYPT, api.site, "enc-token"),
    );
    cli.child.kill("SIGHUP");
    await eventually(() => cli.output().includes('"msg":"config reloaded"'));
    expect(await health()).toEqual(["helloworld", "encrypt"]);
    const reloaded = cli
      .output()
      .split("\n")
      .filter((l) => l.includes('"msg":"config reloaded"'))
      .map((l) => {
        const { time: _t, ...rest } = JSON.parse(l) as Record<string, unknown>;
        return rest;
      });
    expect(reloaded).toEqual([
      {
        level: "info",
        msg: "config reloaded",
        component: "botserver",
        added: ["encrypt"],
        removed: [],
        changed: ["helloworld"],
        unchanged: [],
      },
    ]);
    const before = api.requests.length;
    const res = await fetch(url, {
      method: "POST",
      body: JSON.stringify(webhook(HELLO.email, "Hello Bot", "hello-token", 9)),
    });
    expect(res.status).toBe(200);
    const reply = await eventually(() =>
      api!.requests.slice(before).find((r) => r.method === "POST" && r.path === "/api/v1/messages"),
    );
    expect(reply.auth).toBe("helloworld-bot@example.com:new-key");

    // Invalid: refused with a line naming the problem; the old config keeps running.
    writeFileSync(file, "[helloworld]\nemail = x@example.com\n");
    cli.child.kill("SIGHUP");
    const refused = await eventually(() =>
      cli
        .output()
        .split("\n")
        .find((l) => l.includes("config reload refused")),
    );
    const { time: _time, ...record } = JSON.parse(refused) as Record<string, unknown>;
    expect(record).toEqual({
      level: "error",
      msg: "config reload refused: the old config keeps running",
      component: "botserver",
      problem: "Section [helloworld] is missing option 'key'",
    });
    expect(await health()).toEqual(["helloworld", "encrypt"]);

    // Removed: only encrypt stays.
    writeFileSync(file, section("encrypt", ENCRYPT, api.site, "enc-token"));
    cli.child.kill("SIGHUP");
    await eventually(() => cli.output().split('"msg":"config reloaded"').length === 3);
    expect(await health()).toEqual(["encrypt"]);
    const gone = await fetch(url, {
      method: "POST",
      body: JSON.stringify(webhook(HELLO.email, "Hello Bot", "hello-token", 10)),
    });
    expect(gone.status).toBe(400);

    // GET / is still 405.
    expect((await fetch(url)).status).toBe(405);
  });

  it("refuses a reload whose new bot cannot start, naming the section", async () => {
    api = await startFakeChatApi([HELLO]);
    const file = path.join(dir, "reload-bad-key");
    writeFileSync(file, section("helloworld", HELLO, api.site, "hello-token"));
    const cli = spawnCli(["-c", file, "--port", "0"]);
    await eventually(() => cli.output().includes("listening on"));
    writeFileSync(
      file,
      section("helloworld", HELLO, api.site, "hello-token") + section("encrypt", ENCRYPT, api.site, "t"),
    );
    cli.child.kill("SIGHUP");
    const line = await eventually(() =>
      cli
        .output()
        .split("\n")
        .find((l) => l.includes("config reload refused")),
    );
    expect(line.replace(/^\S+ /, "")).toBe(
      `ERROR config reload refused: the old config keeps running component="botserver" problem="Section [encrypt]: the chat server at ${api.site} rejected the credentials of encrypt-bot@example.com (Invalid API key). Check 'email' and 'key'."`,
    );
  });
});
