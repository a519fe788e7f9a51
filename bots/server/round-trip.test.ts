import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { NO_RETRY } from "../kit/index.js";
import { silentLogger } from "./app.js";
import { parseBotConfigFile, parseBotServerConfig } from "./config.js";
import { BotStartupError } from "./errors.js";
import { startBotServer } from "./start.js";
import type { RunningBotServer } from "./start.js";
import { startFakeChatApi } from "./testing/fake-chat-api.js";
import type { FakeChatApi } from "./testing/fake-chat-api.js";

const HELLO = { email: "helloworld-bot@example.com", key: "hello-key", fullName: "Hello Bot", userId: 55 };
const INCREMENTOR = { email: "incrementor-bot@example.com", key: "inc-key", fullName: "Counter", userId: 56 };
const FOLLOWUP = { email: "followup-bot@example.com", key: "fu-key", fullName: "Followup", userId: 57 };
const BASIC_HELLO = "helloworld-bot@example.com:hello-key";
const BASIC_INC = "incrementor-bot@example.com:inc-key";

function botserverrc(site: string, overrides: { key?: string; site?: string } = {}): string {
  return [
    "[helloworld]",
    `email = ${HELLO.email}`,
    `key = ${overrides.key ?? HELLO.key}`,
    `site = ${overrides.site ?? site}`,
    "token = hello-token",
    "[incrementor]",
    `email = ${INCREMENTOR.email}`,
    `key = ${INCREMENTOR.key}`,
    `site = ${site}`,
    "token = inc-token",
    "[followup]",
    `email = ${FOLLOWUP.email}`,
    `key = ${FOLLOWUP.key}`,
    `site = ${site}`,
    "token = fu-token",
    "",
  ].join("\n");
}

function webhook(
  botEmail: string,
  botName: string,
  token: string,
  content: string,
  id = 31,
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
    },
    bot_email: botEmail,
    bot_full_name: botName,
    token,
    trigger: "mention",
  };
}

async function post(server: RunningBotServer, body: unknown): Promise<{ status: number; body: unknown }> {
  const res = await fetch(server.url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const json: unknown = await res.json();
  await server.idle(); // the bot runs after the webhook is answered
  return { status: res.status, body: json };
}

let api: FakeChatApi;
let server: RunningBotServer | undefined;
beforeEach(async () => {
  api = await startFakeChatApi([HELLO, INCREMENTOR, FOLLOWUP]);
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await api.close();
});

async function start(text = botserverrc(api.site)): Promise<RunningBotServer> {
  server = await startBotServer({
    startupRetry: NO_RETRY,
    config: parseBotServerConfig(text),
    botConfig: parseBotConfigFile("[followup]\nstream = follow-ups\n"),
    hostname: "127.0.0.1",
    port: 0,
    logger: silentLogger,
  });
  return server;
}

describe("bot server round trip through the chat API", () => {
  it("checks each bot at start-up with server_settings and users/me", async () => {
    const running = await start();
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(
      api.requests.filter((r) => r.path === "/api/v1/server_settings" || r.path === "/api/v1/users/me"),
    ).toEqual([
      { method: "GET", path: "/api/v1/server_settings", auth: null, fields: {} },
      { method: "GET", path: "/api/v1/users/me", auth: BASIC_HELLO, fields: {} },
      { method: "GET", path: "/api/v1/server_settings", auth: null, fields: {} },
      { method: "GET", path: "/api/v1/users/me", auth: BASIC_INC, fields: {} },
      { method: "GET", path: "/api/v1/server_settings", auth: null, fields: {} },
      { method: "GET", path: "/api/v1/users/me", auth: "followup-bot@example.com:fu-key", fields: {} },
    ]);
    expect(running.bots.map((b) => [b.name, b.handler.identity])).toEqual([
      ["helloworld", { email: HELLO.email, fullName: "Hello Bot", userId: 55, mention: "@**Hello Bot**" }],
      ["incrementor", { email: INCREMENTOR.email, fullName: "Counter", userId: 56, mention: "@**Counter**" }],
      ["followup", { email: FOLLOWUP.email, fullName: "Followup", userId: 57, mention: "@**Followup**" }],
    ]);
  });

  it("sends helloworld's reply and reaction through the REST API with the bot's credentials", async () => {
    const running = await start();
    const calls = api.botCalls().length; // incrementor's initialize already used storage
    const res = await post(running, webhook(HELLO.email, "Hello Bot", "hello-token", "@**Hello Bot** hi"));
    expect(res).toEqual({ status: 200, body: { response_not_required: true } });
    expect(api.botCalls().slice(calls)).toEqual([
      {
        method: "POST",
        path: "/api/v1/messages",
        auth: BASIC_HELLO,
        fields: { type: "stream", to: "Denmark", topic: "castle", content: "beep boop" },
      },
      {
        method: "POST",
        path: "/api/v1/messages/31/reactions",
        auth: BASIC_HELLO,
        fields: { emoji_name: "wave" },
      },
    ]);
  });

  it("runs incrementor on bot storage: the first mention posts the count, later ones edit it", async () => {
    const running = await start();
    expect(api.botCalls()).toEqual([
      { method: "GET", path: "/api/v1/bot_storage", auth: BASIC_INC, fields: { keys: '["number"]' } },
      { method: "PUT", path: "/api/v1/bot_storage", auth: BASIC_INC, fields: { storage: '{"number":"0"}' } },
      {
        method: "PUT",
        path: "/api/v1/bot_storage",
        auth: BASIC_INC,
        fields: { storage: '{"message_id":"null"}' },
      },
    ]);
    const before = api.botCalls().length;
    await post(running, webhook(INCREMENTOR.email, "Counter", "inc-token", "@**Counter**"));
    await post(running, webhook(INCREMENTOR.email, "Counter", "inc-token", "@**Counter** again", 32));
    expect(api.botCalls().slice(before)).toEqual([
      { method: "GET", path: "/api/v1/bot_storage", auth: BASIC_INC, fields: { keys: '["number"]' } },
      { method: "PUT", path: "/api/v1/bot_storage", auth: BASIC_INC, fields: { storage: '{"number":"1"}' } },
      { method: "GET", path: "/api/v1/bot_storage", auth: BASIC_INC, fields: { keys: '["message_id"]' } },
      {
        method: "POST",
        path: "/api/v1/messages",
        auth: BASIC_INC,
        fields: { type: "stream", to: "Denmark", topic: "castle", content: "1" },
      },
      {
        method: "PUT",
        path: "/api/v1/bot_storage",
        auth: BASIC_INC,
        fields: { storage: '{"message_id":"100"}' },
      },
      { method: "GET", path: "/api/v1/bot_storage", auth: BASIC_INC, fields: { keys: '["number"]' } },
      { method: "PUT", path: "/api/v1/bot_storage", auth: BASIC_INC, fields: { storage: '{"number":"2"}' } },
      { method: "GET", path: "/api/v1/bot_storage", auth: BASIC_INC, fields: { keys: '["message_id"]' } },
      { method: "PATCH", path: "/api/v1/messages/100", auth: BASIC_INC, fields: { content: "2" } },
    ]);
    expect(Object.fromEntries(api.storage.get(INCREMENTOR.email) ?? [])).toEqual({
      number: "2",
      message_id: "100",
    });
  });

  it("keeps incrementor's count when the bot server restarts", async () => {
    const first = await start();
    await post(first, webhook(INCREMENTOR.email, "Counter", "inc-token", "@**Counter**"));
    await first.close();
    server = undefined;
    const second = await start();
    const before = api.botCalls().length;
    await post(second, webhook(INCREMENTOR.email, "Counter", "inc-token", "@**Counter**", 33));
    expect(api.botCalls().slice(before).at(-1)).toEqual({
      method: "PATCH",
      path: "/api/v1/messages/100",
      auth: BASIC_INC,
      fields: { content: "2" },
    });
  });

  it("gives followup its section of the bot config file", async () => {
    const running = await start();
    const before = api.botCalls().length;
    await post(running, webhook(FOLLOWUP.email, "Followup", "fu-token", "@**Followup** ship it"));
    expect(api.botCalls().slice(before)).toEqual([
      {
        method: "POST",
        path: "/api/v1/messages",
        auth: "followup-bot@example.com:fu-key",
        fields: {
          type: "stream",
          to: "follow-ups",
          topic: "hamlet@example.com",
          content: "from hamlet@example.com: ship it",
        },
      },
    ]);
  });
});

describe("bot server start-up failures", () => {
  async function startError(text: string): Promise<unknown> {
    try {
      await start(text);
    } catch (err) {
      return err;
    }
    return undefined;
  }

  it("names the section whose key the chat server rejects", async () => {
    const err = await startError(botserverrc(api.site, { key: "wrong" }));
    expect(err).toBeInstanceOf(BotStartupError);
    expect((err as Error).message).toBe(
      `Section [helloworld]: the chat server at ${api.site} rejected the credentials of helloworld-bot@example.com (Invalid API key). Check 'email' and 'key'.`,
    );
  });

  it("names the section whose site cannot be reached", async () => {
    const closed = await startFakeChatApi([]);
    await closed.close();
    const err = await startError(botserverrc(api.site, { site: closed.site }));
    expect(err).toBeInstanceOf(BotStartupError);
    expect((err as Error).message).toMatch(
      new RegExp(
        `^Section \\[helloworld\\]: cannot reach the chat server at ${closed.site.replace(/\./g, "\\.")} \\(.*ECONNREFUSED.*\\)\\. Is it running, and is 'site' right\\?$`,
      ),
    );
  });

  it("names the section whose site is not a chat server", async () => {
    const err = await startError(botserverrc(api.site, { site: `${api.site}/elsewhere` }));
    expect(err).toBeInstanceOf(BotStartupError);
    expect((err as Error).message).toBe(
      `Section [helloworld]: the site ${api.site}/elsewhere does not look like a chat server (GET /api/v1/server_settings: Not Found). Check 'site'.`,
    );
  });

  it("refuses to start followup without its config section", async () => {
    await expect(
      startBotServer({
        config: parseBotServerConfig(botserverrc(api.site), { botName: "followup" }),
        port: 0,
        logger: silentLogger,
      }),
    ).rejects.toThrow(
      "Section [followup]: Bot 'followup' needs a [followup] section in its bot config file (--bot-config-file)",
    );
  });

  it("starts without contacting the chat server with skipCheck, recognising mentions by bot_full_name", async () => {
    server = await startBotServer({
      config: parseBotServerConfig(botserverrc(api.site), { botName: "helloworld" }),
      port: 0,
      skipCheck: true,
      logger: silentLogger,
    });
    expect(api.requests).toEqual([]);
    await post(server, webhook(HELLO.email, "Renamed Bot", "hello-token", "@**Renamed Bot** hi"));
    expect(api.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      "POST /api/v1/messages",
      "POST /api/v1/messages/31/reactions",
    ]);
  });
});
