/**
 * "No reply is ever dropped" (issue 14), and the regression tests of issue 11's defect 7: the bot
 * server turned chat-API trouble into lost replies (429 with Retry-After ignored and answered 500;
 * chat server down → 500 at once; `display_recipient: [1, null, {}]` crashed the handler; an
 * unreachable chat server was fatal at start-up).
 */
import { afterEach, describe, expect, it } from "@jest/globals";
import { defineBot } from "../kit/index.js";
import { silentLogger } from "./app.js";
import type { Logger } from "./app.js";
import { parseBotServerConfig } from "./config.js";
import { startBotServer } from "./start.js";
import type { RunningBotServer, StartBotServerOptions } from "./start.js";
import { startFakeChatApi } from "./testing/fake-chat-api.js";
import type { FakeChatApi } from "./testing/fake-chat-api.js";

const HELLO = { email: "helloworld-bot@example.com", key: "hello-key", fullName: "Hello Bot", userId: 55 };

function rc(site: string): string {
  return `[helloworld]\nemail = ${HELLO.email}\nkey = ${HELLO.key}\nsite = ${site}\ntoken = hello-token\n`;
}

function webhook(
  content: string,
  id: number,
  message: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    data: content,
    message: {
      id,
      content,
      sender_id: 10,
      sender_email: "hamlet@example.com",
      sender_full_name: "King Hamlet",
      type: "stream",
      display_recipient: "Denmark",
      stream_id: 1,
      subject: "castle",
      ...message,
    },
    bot_email: HELLO.email,
    bot_full_name: "Hello Bot",
    token: "hello-token",
    trigger: "mention",
  };
}

async function post(server: RunningBotServer, body: unknown): Promise<{ status: number; body: unknown }> {
  const res = await fetch(server.url, { method: "POST", body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

const sent = (api: FakeChatApi): string[] =>
  api
    .botCalls()
    .filter((r) => r.method === "POST" && r.path === "/api/v1/messages")
    .map((r) => `${r.fields.to ?? ""} ${r.fields.topic ?? ""}: ${r.fields.content ?? ""}`);

let api: FakeChatApi | undefined;
let server: RunningBotServer | undefined;
afterEach(async () => {
  await server?.close();
  await api?.close();
  server = undefined;
  api = undefined;
});

/** Start-up with recorded (not real) waits, so retries take no time. */
async function start(options: Partial<StartBotServerOptions> = {}): Promise<{ waits: number[] }> {
  api ??= await startFakeChatApi([HELLO]);
  const waits: number[] = [];
  server = await startBotServer({
    config: parseBotServerConfig(rc(api.site)),
    port: 0,
    logger: silentLogger,
    sleep: (ms) => {
      waits.push(ms);
      return Promise.resolve();
    },
    ...options,
  });
  return { waits };
}

describe("issue 11 defect 7: chat-API trouble no longer loses replies", () => {
  it("honours a 429's Retry-After and then sends the reply (was: 500, reply lost)", async () => {
    const { waits } = await start();
    api!.faults.push({ kind: "429", retryAfter: "3" });
    expect(await post(server!, webhook("@**Hello Bot** hi", 31))).toEqual({
      status: 200,
      body: { response_not_required: true },
    });
    await server!.idle();
    expect(waits).toEqual([3000]);
    expect(api!.faulted.map((r) => `${r.method} ${r.path}`)).toEqual(["POST /api/v1/messages"]);
    expect(sent(api!)).toEqual(["Denmark castle: beep boop"]);
  });

  it("retries with backoff while the chat server is down (was: 500 at once)", async () => {
    const { waits } = await start();
    api!.faults.push({ kind: "drop" }, { kind: "drop" }, { kind: "503" });
    expect((await post(server!, webhook("@**Hello Bot** hi", 31))).status).toBe(200);
    await server!.idle();
    expect(waits).toEqual([500, 1000, 2000]);
    expect(sent(api!)).toEqual(["Denmark castle: beep boop"]);
  });

  it("answers the sender of a message whose display_recipient is [1, null, {}] (was: 500)", async () => {
    await start();
    const odd = webhook("hi", 31, { type: "private", display_recipient: [1, null, {}], subject: "" });
    expect(await post(server!, { ...odd, trigger: "direct_message" })).toEqual({
      status: 200,
      body: { response_not_required: true },
    });
    await server!.idle();
    expect(sent(api!)).toEqual(['["hamlet@example.com"] : beep boop']);
  });

  it("waits for an unreachable chat server at start-up instead of exiting", async () => {
    // Find a free port, keep it closed for the first checks, then start the chat server on it.
    const probe = await startFakeChatApi([]);
    const port = Number(new URL(probe.site).port);
    await probe.close();
    const logged: string[] = [];
    const logger: Logger = {
      ...silentLogger,
      warn: (msg, fields) => logged.push(`${msg} ${String(fields?.bot)}`),
    };
    let attempts = 0;
    const starting = startBotServer({
      config: parseBotServerConfig(rc(`http://127.0.0.1:${port}`)),
      port: 0,
      logger,
      sleep: async () => {
        attempts++;
        if (attempts === 2) api = await startFakeChatApi([HELLO], { port });
      },
    });
    server = await starting;
    expect(attempts).toBe(2);
    expect(logged).toEqual([
      "chat server not available yet: retrying helloworld",
      "chat server not available yet: retrying helloworld",
    ]);
    expect(server.bots.map((b) => b.handler.identity.fullName)).toEqual(["Hello Bot"]);
  });
});

describe("no reply is ever dropped", () => {
  it("answers all of a burst of 60 mentions, pacing replies instead of refusing them", async () => {
    await start({ pacing: { capacity: 20, refillPerSecond: 200 } });
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) => post(server!, webhook(`@**Hello Bot** ${i}`, 100 + i))),
    );
    expect(results.filter((r) => r.status !== 200)).toEqual([]);
    await server!.idle();
    expect(sent(api!).length).toBe(60);
  });

  it("keeps replies of one topic in message order while topics run concurrently", async () => {
    // An echo bot that takes longer on some messages: without per-topic order, replies would swap.
    const echo = defineBot({
      name: "helloworld",
      usage: "Echoes slowly.",
      async handleMessage(message, bot) {
        await new Promise((resolve) => setTimeout(resolve, (message.id % 3) * 15));
        await bot.sendReply(message, message.content);
      },
    });
    await start({ concurrency: 4, registry: new Map([["helloworld", echo]]) });
    for (let id = 1; id <= 12; id++) {
      const topic = id % 2 === 0 ? "even" : "odd";
      expect((await post(server!, webhook(`@**Hello Bot** ${id}`, id, { subject: topic }))).status).toBe(200);
    }
    await server!.idle();
    const replies = sent(api!);
    expect(replies.filter((r) => r.includes(" odd:"))).toEqual([
      "Denmark odd: 1",
      "Denmark odd: 3",
      "Denmark odd: 5",
      "Denmark odd: 7",
      "Denmark odd: 9",
      "Denmark odd: 11",
    ]);
    expect(replies.filter((r) => r.includes(" even:"))).toEqual([
      "Denmark even: 2",
      "Denmark even: 4",
      "Denmark even: 6",
      "Denmark even: 8",
      "Denmark even: 10",
      "Denmark even: 12",
    ]);
  });

  it("answers 503 with Retry-After when the bot's queue is full, so the chat server delivers again", async () => {
    api = await startFakeChatApi([HELLO]);
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    await start({
      queueCapacity: 2,
      concurrency: 1,
      sleep: () => gate,
    });
    api.faults.push({ kind: "503" }); // the first reply waits on the gate, holding the queue
    expect((await post(server!, webhook("@**Hello Bot** 1", 1))).status).toBe(200);
    expect((await post(server!, webhook("@**Hello Bot** 2", 2))).status).toBe(200);
    const res = await fetch(server!.url, {
      method: "POST",
      body: JSON.stringify(webhook("@**Hello Bot** 3", 3)),
    });
    expect({
      status: res.status,
      retryAfter: res.headers.get("retry-after"),
      body: await res.json(),
    }).toEqual({
      status: 503,
      retryAfter: "1",
      body: {
        result: "error",
        msg: "Bot 'helloworld' is busy: its queue is full. Deliver the message again later.",
        code: "BAD_REQUEST",
      },
    });
    release();
    await server!.idle();
    expect(sent(api).length).toBe(2);
  });

  it("stops a reply loop: a message the bot sent itself is not run, with a log line", async () => {
    api = await startFakeChatApi([HELLO]);
    const logged: string[] = [];
    const logger: Logger = {
      ...silentLogger,
      warn: (msg, fields) => logged.push(`${msg} ${JSON.stringify(fields)}`),
    };
    await start({ logger });
    const own = webhook("@**Hello Bot** beep boop", 77, { sender_email: HELLO.email, sender_id: 55 });
    expect(await post(server!, own)).toEqual({ status: 200, body: { response_not_required: true } });
    await server!.idle();
    expect(sent(api)).toEqual([]);
    expect(logged).toEqual([
      'reply loop stopped: the bot was triggered by its own message {"bot":"helloworld","message_id":77}',
    ]);
  });
});
