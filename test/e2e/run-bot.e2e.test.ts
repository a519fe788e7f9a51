/**
 * `chat-server run-bot NAME --zuliprc F` with real processes: a bundled bot runs as an event-queue
 * client (no outgoing webhook, no bot server), answers a mention, and keeps answering after the chat
 * server restarts (its queue is gone: BAD_EVENT_QUEUE_ID, so it registers a new one).
 */
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { readZuliprc } from "../../src/tools/zuliprc.js";
import { apiClient } from "../helpers/client.js";
import type { ApiClient, Credentials } from "../helpers/client.js";
import { runProcess, startProcess } from "../helpers/process.js";
import type { RunningProcess } from "../helpers/process.js";
import { EventQueue, freePort } from "./e2e-helpers.js";

// Real processes start here (tsx compiles each): slow on a busy machine.
jest.setTimeout(60_000);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "run-bot-e2e-"));
const processes: RunningProcess[] = [];
let chat: RunningProcess;
let api: ApiClient;
let owner: Credentials;
let port: number;

function start(args: string[]): RunningProcess {
  const p = startProcess(args);
  processes.push(p);
  return p;
}

async function startChat(): Promise<void> {
  chat = start([
    "bin/chat-server.js",
    "serve",
    "--port",
    String(port),
    "--data-dir",
    dataDir,
    "--owner-password",
    "pw",
    "--log-level",
    "warn",
  ]);
  const m = await chat.waitFor(/Chat server listening on (http:\/\/\S+)/);
  api = apiClient(m[1]!);
}

beforeAll(async () => {
  port = await freePort();
  await startChat();
  const rc = readZuliprc(path.join(dataDir, "zuliprc"));
  owner = { email: rc.email, apiKey: rc.key };
}, 30_000);

afterAll(async () => {
  for (const p of processes.reverse()) await p.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("chat-server run-bot (real processes)", () => {
  it("prints its options with --help", async () => {
    const { code, output } = await runProcess(["bin/chat-server.js", "run-bot", "--help"]);
    expect(code).toBe(0);
    expect(output).toContain(
      "Run a bundled bot (or --bot-path) as an event-queue client, without a bot server",
    );
    expect(output).toContain("--zuliprc");
  });

  it("answers mentions as an event-queue client and re-registers after BAD_EVENT_QUEUE_ID", async () => {
    const created = await api.post("/api/v1/bots", {
      as: owner,
      params: { full_name: "Hello Bot", short_name: "hello", bot_type: 1 },
      skipSchemaCheck: true,
    });
    expect(created.status).toBe(200);
    const bot: Credentials = { email: created.body.email as string, apiKey: created.body.api_key as string };
    // As with Zulip's zulip-run-bot, the bot sees the streams it is subscribed to.
    const subscribed = await api.post("/api/v1/users/me/subscriptions", {
      as: owner,
      params: { subscriptions: [{ name: "general" }], principals: [bot.email] },
      skipSchemaCheck: true,
    });
    expect(subscribed.status).toBe(200);
    const zuliprc = path.join(dataDir, "hello-zuliprc");
    fs.writeFileSync(
      zuliprc,
      `[api]\nemail=${bot.email}\nkey=${bot.apiKey}\nsite=http://127.0.0.1:${port}\n`,
      {
        mode: 0o600,
      },
    );
    const runner = start(["bin/chat-server.js", "run-bot", "helloworld", "--zuliprc", zuliprc]);
    await runner.waitFor(/event queue registered/);

    const queue = await EventQueue.register(api, owner);
    await api.post("/api/v1/messages", {
      as: owner,
      params: { type: "stream", to: "general", topic: "run-bot", content: "@**Hello Bot** hi" },
    });
    const reply = await queue.waitForMessage((m) => m.sender_email === bot.email);
    expect([reply.content, reply.subject]).toEqual(["beep boop", "run-bot"]);

    // A message that does not start with the mention is not for the bot; a DM is.
    await api.post("/api/v1/messages", {
      as: owner,
      params: { type: "private", to: JSON.stringify([bot.email]), content: "hello there" },
    });
    const dm = await queue.waitForMessage((m) => m.sender_email === bot.email && m.type === "private");
    expect(dm.content).toBe("beep boop");

    // Restart the chat server: the bot's event queue is gone.
    await chat.stop();
    await startChat();
    await runner.waitFor(/event queue expired \(BAD_EVENT_QUEUE_ID\): registering a new one/, 60_000);
    await runner.waitFor(/event queue registered[\s\S]*event queue registered/, 30_000);
    const after = await EventQueue.register(api, owner);
    await api.post("/api/v1/messages", {
      as: owner,
      params: { type: "stream", to: "general", topic: "after restart", content: "@**Hello Bot** again" },
    });
    const again = await after.waitForMessage((m) => m.sender_email === bot.email);
    expect([again.content, again.subject]).toEqual(["beep boop", "after restart"]);

    expect(await runner.stop("SIGTERM")).toBe(0);
  }, 120_000);
});
