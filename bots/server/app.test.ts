import { afterAll, beforeAll, beforeEach, describe, expect, it } from "@jest/globals";
import encrypt from "../encrypt/index.js";
import helloworld from "../helloworld/index.js";
import { MemoryBotHandler, defineBot } from "../kit/index.js";
import type { BotMessage } from "../kit/index.js";
import { botHost, createBotServerApp, silentLogger, tokensMatch } from "./app.js";
import type { Logger, RunningBot } from "./app.js";
import type { BotHost } from "./host.js";
import { listen } from "./testing/listen.js";

const helloHandler = new MemoryBotHandler({
  identity: { email: "helloworld-bot@example.com", fullName: "Hello Bot", userId: 55 },
});
const encryptHandler = new MemoryBotHandler({
  identity: { email: "encrypt-bot@example.com", fullName: "Encrypt" },
});
const seen: string[] = [];
const failing = defineBot({
  name: "failing",
  usage: "Throws.",
  handleMessage(message) {
    seen.push(message.content);
    return Promise.reject(new Error("boom"));
  },
});

const bots: RunningBot[] = [
  {
    name: "helloworld",
    bot: helloworld,
    handler: helloHandler,
    email: "helloworld-bot@example.com",
    token: "hello-token",
  },
  {
    name: "encrypt",
    bot: encrypt,
    handler: encryptHandler,
    email: "encrypt-bot@example.com",
    token: "encrypt-token",
  },
  {
    name: "failing",
    bot: failing,
    handler: new MemoryBotHandler(),
    email: "failing-bot@example.com",
    token: "failing-token",
  },
];

const logged: string[] = [];
const logger: Logger = { ...silentLogger, error: (message) => logged.push(message) };

let server: { url: string; close: () => Promise<void> };
let host: BotHost;
beforeAll(async () => {
  host = botHost(bots, { logger });
  server = await listen(createBotServerApp(host, { logger }));
});
afterAll(() => server.close());
beforeEach(() => {
  helloHandler.reset();
  encryptHandler.reset();
  logged.length = 0;
  seen.length = 0;
});

function message(content: string, fields: Partial<BotMessage> = {}): BotMessage {
  return {
    id: 31,
    content,
    sender_id: 10,
    sender_email: "hamlet@example.com",
    sender_full_name: "King Hamlet",
    type: "stream",
    display_recipient: "Denmark",
    stream_id: 1,
    subject: "castle",
    ...fields,
  };
}

function payload(content: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    data: content,
    message: message(content),
    bot_email: "helloworld-bot@example.com",
    bot_full_name: "Hello Bot",
    token: "hello-token",
    trigger: "mention",
    ...overrides,
  };
}

async function post(
  body: unknown,
  contentType = "application/json",
): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${server.url}/`, {
    method: "POST",
    headers: { "content-type": contentType },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const json: unknown = await res.json();
  await host.idle(); // the bot runs after the webhook is answered
  return { status: res.status, body: json };
}

describe("POST / (outgoing webhook)", () => {
  it("runs the bot on a mention, without the mention, and answers response_not_required", async () => {
    const res = await post(payload("@**Hello Bot** hi there"));
    expect(res).toEqual({ status: 200, body: { response_not_required: true } });
    expect(helloHandler.actions).toEqual([
      {
        kind: "send",
        id: 1001,
        message: { type: "stream", to: "Denmark", topic: "castle", content: "beep boop" },
      },
      { kind: "react", messageId: 31, emojiName: "wave" },
    ]);
  });

  it("strips the mention the bot handler sees, keeping full_content", async () => {
    const res = await post(
      payload("@**Encrypt** Hello", {
        bot_email: "encrypt-bot@example.com",
        bot_full_name: "Encrypt",
        token: "encrypt-token",
      }),
    );
    expect(res.status).toBe(200);
    expect(encryptHandler.actions).toEqual([
      {
        kind: "send",
        id: 1001,
        message: {
          type: "stream",
          to: "Denmark",
          topic: "castle",
          content: "Encrypted/Decrypted text: Uryyb",
        },
      },
    ]);
  });

  it("recognises the extended @**Name|id** mention", async () => {
    await post(payload("@**Old Name|55** hi"));
    expect(helloHandler.actions.map((a) => a.kind)).toEqual(["send", "react"]);
  });

  it("answers a direct message to all its recipients", async () => {
    const dm = message("hi", {
      type: "private",
      subject: "",
      display_recipient: [
        { id: 10, email: "hamlet@example.com", full_name: "King Hamlet" },
        { id: 55, email: "helloworld-bot@example.com", full_name: "Hello Bot" },
      ],
    });
    delete dm.stream_id;
    const res = await post(payload("hi", { message: dm, trigger: "direct_message" }));
    expect(res).toEqual({ status: 200, body: { response_not_required: true } });
    expect(helloHandler.actions[0]).toEqual({
      kind: "send",
      id: 1001,
      message: {
        type: "private",
        to: ["hamlet@example.com", "helloworld-bot@example.com"],
        content: "beep boop",
      },
    });
  });

  it("accepts the legacy private_message trigger", async () => {
    const res = await post(payload("hi", { trigger: "private_message" }));
    expect(res.status).toBe(200);
    expect(helloHandler.actions.map((a) => a.kind)).toEqual(["send", "react"]);
  });

  it("does not run the bot when the mention is not at the start, or for another trigger", async () => {
    expect(await post(payload("hi @**Hello Bot**"))).toEqual({
      status: 200,
      body: { response_not_required: true },
    });
    expect(await post(payload("hi", { trigger: "something_else" }))).toEqual({
      status: 200,
      body: { response_not_required: true },
    });
    expect(helloHandler.actions).toEqual([]);
  });

  it("parses JSON whatever the Content-Type", async () => {
    const res = await post(JSON.stringify(payload("@**Hello Bot**")), "text/plain");
    expect(res.status).toBe(200);
    expect(helloHandler.actions.length).toBe(2);
  });

  it("rejects an unknown bot email with 400", async () => {
    expect(await post(payload("hi", { bot_email: "nobody@example.com" }))).toEqual({
      status: 400,
      body: {
        result: "error",
        msg: "Cannot find a bot with email nobody@example.com in the Botserver configuration file. Do the emails in your botserverrc match the bot emails on the server?",
        code: "BAD_REQUEST",
        bot_email: "nobody@example.com",
      },
    });
  });

  it("rejects a wrong token with 401 and does not run the bot", async () => {
    for (const token of ["wrong", "", "hello-token-and-more", "encrypt-token"]) {
      expect(await post(payload("hi", { token }))).toEqual({
        status: 401,
        body: {
          result: "error",
          msg: "Request token does not match token found for bot helloworld-bot@example.com in the Botserver configuration file. Do the outgoing webhooks in Zulip point to the right Botserver?",
          code: "UNAUTHORIZED",
        },
      });
    }
    expect(helloHandler.actions).toEqual([]);
  });

  it("rejects invalid JSON and malformed payloads with 400", async () => {
    expect(await post("{not json")).toEqual({
      status: 400,
      body: { result: "error", msg: "Malformed JSON", code: "INVALID_JSON" },
    });
    const { token: _token, ...noToken } = payload("hi");
    expect(await post(noToken)).toEqual({
      status: 400,
      body: {
        result: "error",
        msg: "Missing 'token' argument",
        code: "REQUEST_VARIABLE_MISSING",
        var_name: "token",
      },
    });
    expect(await post(payload("hi", { message: { id: 1 } }))).toEqual({
      status: 400,
      body: {
        result: "error",
        msg: "Missing 'message.content' argument",
        code: "REQUEST_VARIABLE_MISSING",
        var_name: "message.content",
      },
    });
    expect(await post(payload("hi", { bot_email: 5 }))).toEqual({
      status: 400,
      body: { result: "error", msg: "bot_email is not a string", code: "BAD_REQUEST" },
    });
    expect(await post([1, 2])).toEqual({
      status: 400,
      body: { result: "error", msg: "Payload is not an object", code: "BAD_REQUEST" },
    });
  });

  it("accepts the webhook and logs the failure when the bot throws", async () => {
    const res = await post(
      payload("hi", {
        bot_email: "failing-bot@example.com",
        token: "failing-token",
        trigger: "direct_message",
      }),
    );
    expect(res).toEqual({ status: 200, body: { response_not_required: true } });
    expect(seen).toEqual(["hi"]);
    expect(logged).toEqual(["bot failed on a message"]);
  });
});

describe("other routes", () => {
  it("answers GET / with 405 and the allowed method", async () => {
    const res = await fetch(`${server.url}/`);
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
    expect(await res.json()).toEqual({
      result: "error",
      msg: "Method Not Allowed",
      code: "METHOD_NOT_ALLOWED",
      allowed_methods: ["POST"],
    });
  });

  it("answers unknown paths with 404", async () => {
    const res = await fetch(`${server.url}/nope`, { method: "POST", body: "{}" });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ result: "error", msg: "Not Found", code: "NOT_FOUND" });
  });

  it("reports health and the configured bots", async () => {
    const res = await fetch(`${server.url}/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      result: "success",
      msg: "",
      status: "ok",
      bots: ["helloworld", "encrypt", "failing"],
      queues: { helloworld: 0, encrypt: 0, failing: 0 },
    });
  });
});

describe("tokensMatch", () => {
  it("compares in constant time, whatever the lengths", () => {
    expect([
      tokensMatch("abc", "abc"),
      tokensMatch("abc", "abd"),
      tokensMatch("abc", "ab"),
      tokensMatch("", ""),
    ]).toEqual([true, false, false, true]);
  });

  it("accepts any of several tokens, space- or comma-separated (a rotation's overlap), and nothing else", () => {
    expect([
      tokensMatch("new-token old-token", "new-token"),
      tokensMatch("new-token old-token", "old-token"),
      tokensMatch("new-token,old-token", "old-token"),
      tokensMatch("new-token old-token", "new-token old-token"),
      tokensMatch("new-token old-token", "other"),
      tokensMatch("new-token old-token", ""),
    ]).toEqual([true, true, true, false, false, false]);
  });
});
