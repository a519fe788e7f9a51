/**
 * End to end, with real processes: `bin/chat-server.js serve`, `chat-server create-bot`,
 * `bin/botserver.js`, and `serve --botserver-config` hosting both in one process. A user's event
 * queue must receive the bot's reply to a mention, to a private message, and from an embedded bot.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { readZuliprc } from "../../src/tools/zuliprc.js";
import { apiClient } from "../helpers/client.js";
import type { ApiClient, Credentials } from "../helpers/client.js";
import { runProcess, startProcess } from "../helpers/process.js";
import type { RunningProcess } from "../helpers/process.js";

/** A port nobody listens on right now (for the bot server, whose URL must be known in advance). */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

interface MessageEvent {
  id: number;
  type: string;
  message?: { id: number; sender_email: string; content: string; type: string; subject: string };
}

/** A user's event queue, read by blocking GET /events. */
class Queue {
  private lastEventId = -1;
  private constructor(
    private readonly api: ApiClient,
    private readonly user: Credentials,
    private readonly id: string,
  ) {}

  static async register(api: ApiClient, user: Credentials): Promise<Queue> {
    const res = await api.post("/api/v1/register", {
      as: user,
      params: { event_types: ["message"], apply_markdown: false },
      skipSchemaCheck: true,
    });
    if (res.status !== 200) throw new Error(`register failed: ${res.text}`);
    return new Queue(api, user, res.body.queue_id as string);
  }

  /** Waits for a message event matching `pred` (events before it are consumed). */
  async waitForMessage(
    pred: (m: NonNullable<MessageEvent["message"]>) => boolean,
    timeoutMs = 10_000,
  ): Promise<NonNullable<MessageEvent["message"]>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (Date.now() > deadline) throw new Error("Timed out waiting for the bot's reply");
      const res = await this.api.get("/api/v1/events", {
        as: this.user,
        params: { queue_id: this.id, last_event_id: this.lastEventId },
        signal: AbortSignal.timeout(Math.max(1, deadline - Date.now())),
        // Event shapes are checked by the HTTP suites; this test is about the processes.
        skipSchemaCheck: true,
      });
      if (res.status !== 200) throw new Error(`GET /events failed: ${res.text}`);
      for (const event of res.body.events as MessageEvent[]) {
        this.lastEventId = event.id;
        if (event.type === "message" && event.message !== undefined && pred(event.message))
          return event.message;
      }
    }
  }
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bots-e2e-"));
const processes: RunningProcess[] = [];
let chat: RunningProcess;
let chatUrl: string;
let api: ApiClient;
let owner: Credentials;
let botPort: number;
let botServer: RunningProcess | undefined;
const timings: number[] = [];

function start(args: string[]): RunningProcess {
  const p = startProcess(args);
  processes.push(p);
  return p;
}

async function startChat(extra: string[] = [], port = "0"): Promise<void> {
  chat = start([
    "bin/chat-server.js",
    "serve",
    "--port",
    port,
    "--data-dir",
    dataDir,
    "--owner-password",
    "pw",
    "--log-level",
    "warn",
    ...extra,
  ]);
  const m = await chat.waitFor(/Chat server listening on (http:\/\/\S+)/);
  chatUrl = m[1]!;
  api = apiClient(chatUrl);
}

async function post(params: Record<string, string>): Promise<number> {
  const res = await api.post("/api/v1/messages", { as: owner, params });
  if (res.status !== 200) throw new Error(`send failed: ${res.text}`);
  return res.body.id as number;
}

/** Sends, then waits for `from`'s "beep boop" in the owner's queue; returns the round trip in ms. */
async function roundTrip(queue: Queue, params: Record<string, string>, from: string): Promise<number> {
  const started = performance.now();
  const id = await post(params);
  // helloworld also reacts with :wave: after replying; the reaction event may interleave with the
  // next round, hence the match on the reply's text.
  const reply = await queue.waitForMessage(
    (m) => m.sender_email === from && m.id > id && m.content === "beep boop",
  );
  const elapsed = performance.now() - started;
  expect([reply.type, reply.subject]).toEqual([
    params["type"],
    params["type"] === "stream" ? params["topic"] : "",
  ]);
  return elapsed;
}

beforeAll(async () => {
  botPort = await freePort();
  // As the README's walkthrough: the operator allows the local bot server (outgoing webhooks
  // reach public addresses only by default).
  await startChat(["--outgoing-webhook-allow", `127.0.0.1:${botPort}`]);
  const rc = readZuliprc(path.join(dataDir, "zuliprc"));
  expect(rc.site).toBe(chatUrl);
  owner = { email: rc.email, apiKey: rc.key };
}, 20_000);

afterAll(async () => {
  for (const p of processes.reverse()) await p.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
  if (timings.length > 0) {
    const sorted = [...timings].sort((a, b) => a - b);
    const p50 = sorted[Math.floor(sorted.length / 2)]!;
    console.log(
      `mention → bot server → reply event: p50 ${p50.toFixed(1)} ms over ${sorted.length} (min ${sorted[0]!.toFixed(1)}, max ${sorted[sorted.length - 1]!.toFixed(1)})`,
    );
  }
});

describe("bots end to end (real processes)", () => {
  it("answers a mention and a private message through a separate bot server process", async () => {
    const created = await runProcess([
      "bin/chat-server.js",
      "create-bot",
      "--name",
      "helloworld",
      "--zuliprc",
      path.join(dataDir, "zuliprc"),
      "--payload-url",
      `http://127.0.0.1:${botPort}/`,
    ]);
    expect(created.code).toBe(0);
    const section =
      /\[helloworld\]\nemail=helloworld-bot@example\.com\nkey=\w{32}\nsite=(\S+)\ntoken=\w{32}\n/.exec(
        created.output,
      );
    expect(section?.[1]).toBe(chatUrl);
    const rc = path.join(dataDir, "botserverrc");
    fs.writeFileSync(rc, section![0]);

    // botserverrc prints the same section for the existing bot.
    const again = await runProcess([
      "bin/chat-server.js",
      "botserverrc",
      "--bot",
      "helloworld-bot@example.com",
      "--zuliprc",
      path.join(dataDir, "zuliprc"),
    ]);
    expect([again.code, again.output]).toEqual([0, section![0]]);
    const all = await runProcess([
      "bin/chat-server.js",
      "botserverrc",
      "--zuliprc",
      path.join(dataDir, "zuliprc"),
    ]);
    expect([all.code, all.output]).toEqual([0, section![0]]);

    botServer = start(["bin/botserver.js", "--config-file", rc, "--port", String(botPort)]);
    await botServer.waitFor(/listening on http:\/\/127\.0\.0\.1:\d+\/ with bots: helloworld/);

    const queue = await Queue.register(api, owner);
    timings.push(
      await roundTrip(
        queue,
        { type: "stream", to: "general", topic: "e2e", content: "@**helloworld** hi" },
        "helloworld-bot@example.com",
      ),
    );
    timings.push(
      await roundTrip(
        queue,
        { type: "private", to: JSON.stringify(["helloworld-bot@example.com"]), content: "hi" },
        "helloworld-bot@example.com",
      ),
    );
    for (let i = 0; i < 10; i++) {
      timings.push(
        await roundTrip(
          queue,
          { type: "stream", to: "general", topic: "e2e", content: `@**helloworld** round ${i}` },
          "helloworld-bot@example.com",
        ),
      );
    }
    await botServer.stop();
  }, 90_000); // several processes start (tsx compiles each): slow on a busy machine

  it("answers through an embedded bot inside the chat server", async () => {
    const res = await api.post("/api/v1/bots", {
      as: owner,
      params: {
        full_name: "Embedded Hello",
        short_name: "embedded-hello",
        bot_type: 4,
        service_name: "helloworld",
      },
    });
    expect(res.status).toBe(200);
    const queue = await Queue.register(api, owner);
    await roundTrip(
      queue,
      { type: "stream", to: "general", topic: "embedded", content: "@**Embedded Hello** hi" },
      "embedded-hello-bot@example.com",
    );
    await roundTrip(
      queue,
      { type: "private", to: JSON.stringify(["embedded-hello-bot@example.com"]), content: "hi" },
      "embedded-hello-bot@example.com",
    );
  });

  it("hosts the bot server in the chat server's process with serve --botserver-config", async () => {
    const port = new URL(chatUrl).port;
    await botServer?.stop();
    await chat.stop();
    // Same data, same port (the botserverrc's site), bot server on the port the bot's URL names.
    await startChat(
      ["--botserver-config", path.join(dataDir, "botserverrc"), "--botserver-port", String(botPort)],
      port,
    );
    await chat.waitFor(
      new RegExp(`Bot server listening on http://127\\.0\\.0\\.1:${botPort}/ \\(bots: helloworld;`),
    );
    const queue = await Queue.register(api, owner);
    timings.push(
      await roundTrip(
        queue,
        { type: "stream", to: "general", topic: "one process", content: "@**helloworld** hi" },
        "helloworld-bot@example.com",
      ),
    );
    timings.push(
      await roundTrip(
        queue,
        { type: "private", to: JSON.stringify(["helloworld-bot@example.com"]), content: "hi again" },
        "helloworld-bot@example.com",
      ),
    );
  }, 90_000); // several processes start (tsx compiles each): slow on a busy machine
});
