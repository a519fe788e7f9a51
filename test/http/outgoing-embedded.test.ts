import { afterEach, describe, expect, it } from "@jest/globals";
import incrementor from "../../bots/incrementor/index.js";
import { dispatchBotMessage, initializeBot } from "../../bots/kit/index.js";
import type { BotMessage } from "../../bots/kit/index.js";
import { ManualClock } from "../../src/clock.js";
import { defaultConfig } from "../../src/config.js";
import { EmbeddedBotHandler } from "../../src/domain/outgoing/embedded-handler.js";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer, TestUser } from "../helpers/test-server.js";
import { createStream } from "./message-helpers.js";

const servers: TestServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

async function setup(): Promise<TestServer> {
  const server = await startTestServer({
    clock: new ManualClock(),
    config: { outgoingWebhooks: { ...defaultConfig().outgoingWebhooks, pollIntervalMs: 0 } },
  });
  servers.push(server);
  const { iago, hamlet, othello } = server.users;
  await createStream(server, "Denmark", [iago, hamlet, othello]);
  return server;
}

async function createEmbedded(
  server: TestServer,
  fullName: string,
  shortName: string,
  serviceName?: string,
): Promise<TestUser> {
  const res = await server.api.post("/api/v1/bots", {
    as: server.users.iago,
    params: { full_name: fullName, short_name: shortName, bot_type: 4, service_name: serviceName },
  });
  expect(res.status).toBe(200);
  return { id: res.body.user_id, email: res.body.email, apiKey: res.body.api_key, fullName };
}

async function send(server: TestServer, as: TestUser, params: Record<string, string>): Promise<number> {
  const res = await server.api.post("/api/v1/messages", { as, params });
  expect(res.status).toBe(200);
  await server.running.services.outgoing.idle();
  return res.body.id as number;
}

interface Row {
  id: number;
  sender_id: number;
  topic: string;
  pm_key: string | null;
  content: string;
  client: string;
}

async function messagesAfter(server: TestServer, afterId: number): Promise<Row[]> {
  const rows = await server.running.db.all<Row>(
    "SELECT id, sender_id, topic, pm_key, content, client FROM messages WHERE id > ? ORDER BY id",
    [afterId],
  );
  return rows.map((r) => ({ ...r, id: Number(r.id), sender_id: Number(r.sender_id) }));
}

describe("embedded bots: creation", () => {
  it("rejects a service_name that is not an embeddable bundled bot", async () => {
    const server = await setup();
    const bad = await server.api.post("/api/v1/bots", {
      as: server.users.iago,
      params: { full_name: "Nope", short_name: "nope", bot_type: 4, service_name: "nosuchbot" },
    });
    expect([bad.status, bad.body]).toEqual([
      400,
      { result: "error", msg: "Invalid embedded bot name.", code: "BAD_REQUEST" },
    ]);
    // Without service_name the short name is the bot's name, as in Zulip.
    const implicit = await server.api.post("/api/v1/bots", {
      as: server.users.iago,
      params: { full_name: "Nope Again", short_name: "nope2", bot_type: 4 },
    });
    expect(implicit.body.msg).toBe("Invalid embedded bot name.");
    const ok = await server.api.post("/api/v1/bots", {
      as: server.users.iago,
      params: { full_name: "Hello", short_name: "helloworld", bot_type: 4 },
    });
    expect([ok.status, ok.body.services]).toEqual([200, [{ service_name: "helloworld", config_data: {} }]]);
  });
});

describe("embedded bots: round trips", () => {
  it("runs helloworld on a mention and replies beep boop in the same topic", async () => {
    const server = await setup();
    const bot = await createEmbedded(server, "Hello Bot", "hello", "helloworld");
    const id = await send(server, server.users.hamlet, {
      type: "stream",
      to: "Denmark",
      topic: "greetings",
      content: "@**Hello Bot** hi",
    });
    expect(await messagesAfter(server, id)).toEqual([
      {
        id: id + 1,
        sender_id: bot.id,
        topic: "greetings",
        pm_key: null,
        content: "beep boop",
        client: "EmbeddedBot",
      },
    ]);
    expect(await server.running.services.outgoing.jobs()).toEqual([]);
  });

  it("runs helloworld on a private message and replies privately", async () => {
    const server = await setup();
    const bot = await createEmbedded(server, "Hello Bot", "hello", "helloworld");
    const id = await send(server, server.users.hamlet, {
      type: "private",
      to: JSON.stringify([bot.email]),
      content: "hello there",
    });
    expect(await messagesAfter(server, id)).toEqual([
      {
        id: id + 1,
        sender_id: bot.id,
        topic: "",
        pm_key: `${server.users.hamlet.id},${bot.id}`,
        content: "beep boop",
        client: "EmbeddedBot",
      },
    ]);
  });

  it("ignores a mention that is not at the start, as Zulip's bot framework does", async () => {
    const server = await setup();
    await createEmbedded(server, "Hello Bot", "hello", "helloworld");
    const id = await send(server, server.users.hamlet, {
      type: "stream",
      to: "Denmark",
      topic: "t",
      content: "hey @**Hello Bot**",
    });
    expect(await messagesAfter(server, id)).toEqual([]);
    expect(await server.running.services.outgoing.jobs()).toEqual([]);
  });

  it("keeps virtual_fs files in the bot's storage between messages", async () => {
    const server = await setup();
    const bot = await createEmbedded(server, "Files", "files", "virtual_fs");
    const first = await send(server, server.users.hamlet, {
      type: "stream",
      to: "Denmark",
      topic: "fs",
      content: "@**Files** write /notes remember the ghost",
    });
    const second = await send(server, server.users.othello, {
      type: "stream",
      to: "Denmark",
      topic: "fs",
      content: "@**Files** read /notes",
    });
    expect((await messagesAfter(server, first)).map((m) => [m.sender_id, m.content])).toEqual([
      [bot.id, "hamlet@zulip.com:\nfile written"],
      [server.users.othello.id, "@**Files** read /notes"],
      [bot.id, "othello@zulip.com:\nremember the ghost"],
    ]);
    expect(second).toBe(first + 2);
    // The bot reads its own storage through the REST API too.
    const stored = await server.api.get("/api/v1/bot_storage", { as: bot, params: { keys: ["Denmark"] } });
    expect(Object.keys(stored.body.storage as object)).toEqual(["Denmark"]);
    expect(JSON.parse(stored.body.storage.Denmark as string)).toMatchObject({
      files: { "/notes": { kind: "text", content: "remember the ghost" } },
    });
  });

  it("gives the incrementor storage and message editing over the domain services", async () => {
    // incrementor is not one of Zulip's embeddable bots, so it is driven here through the handler.
    const server = await setup();
    const { users, messages, botStorage } = server.running.services;
    const iago = (await users.byId(server.users.iago.id))!;
    const { bot } = await users.createBot(iago, { fullName: "Counter", shortName: "counter", botType: 1 });
    const handler = new EmbeddedBotHandler(bot, {}, messages, botStorage);
    const message = async (content: string): Promise<BotMessage> => {
      const id = await messages.send(iago, { type: "stream", to: "Denmark", topic: "count", content });
      const wire = await messages.getForUser(iago, id, { applyMarkdown: false, clientGravatar: false });
      return wire as unknown as BotMessage;
    };
    for (let i = 0; i < 3; i++) {
      await initializeBot(incrementor, handler);
      expect(await dispatchBotMessage(incrementor, handler, await message("@**Counter**"), "mention")).toBe(
        "handled",
      );
    }
    const replies = (await messagesAfter(server, 0)).filter((m) => m.sender_id === bot.id);
    expect(replies.map((m) => m.content)).toEqual(["3"]);
    expect(await botStorage.get(bot.id)).toEqual({ message_id: String(replies[0]!.id), number: "3" });
  });
});
