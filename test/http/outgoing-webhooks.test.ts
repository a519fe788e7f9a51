import { afterEach, describe, expect, it } from "@jest/globals";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { ManualClock } from "../../src/clock.js";
import { defaultConfig } from "../../src/config.js";
import type { OutgoingWebhookConfig, ServerConfig } from "../../src/config.js";
import { silentLogger } from "../../src/lib/logger.js";
import { startServer } from "../../src/server.js";
import type { RunningServer } from "../../src/server.js";
import { LOOPBACK_ALLOW, startTestServer } from "../helpers/test-server.js";
import type { TestServer, TestUser } from "../helpers/test-server.js";
import { AVATAR, T0, createStream } from "./message-helpers.js";

/** What the fake bot endpoint received. */
interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The client's port: equal for requests over one kept-alive connection. */
  remotePort: number | undefined;
}

interface Answer {
  status?: number;
  body?: string;
  /** Never answer (the chat server's timeout fires). */
  hang?: boolean;
  /** Close the connection without answering. */
  reset?: boolean;
  /** Answer once this settles. */
  after?: Promise<unknown>;
  headers?: Record<string, string>;
}

/** An outgoing-webhook endpoint on port 0 that records requests and answers as told. */
class FakeBotEndpoint {
  readonly received: Received[] = [];
  answer: (req: Received) => Answer = () => ({ body: '{"response_not_required": true}' });
  private server: http.Server | undefined;
  port = 0;

  async listen(port = 0): Promise<this> {
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const got: Received = {
          method: req.method ?? "",
          url: req.url ?? "",
          headers: req.headers,
          body: Buffer.concat(chunks).toString("utf8"),
          remotePort: req.socket.remotePort,
        };
        this.received.push(got);
        const answer = this.answer(got);
        if (answer.hang === true) return;
        if (answer.reset === true) {
          req.socket.destroy();
          return;
        }
        void (answer.after ?? Promise.resolve()).then(() => {
          res.writeHead(answer.status ?? 200, { "content-type": "application/json", ...answer.headers });
          res.end(answer.body ?? "");
        });
      });
    });
    await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", () => resolve()));
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
    return this;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/`;
  }

  json(i: number): unknown {
    return JSON.parse(this.received[i]?.body ?? "null");
  }

  async close(): Promise<void> {
    const server = this.server;
    if (server === undefined) return;
    this.server = undefined;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

interface Setup {
  server: TestServer;
  clock: ManualClock;
  endpoint: FakeBotEndpoint;
  bot: TestUser & { token: string };
  streamId: number;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function webhookConfig(overrides: Partial<OutgoingWebhookConfig> = {}): OutgoingWebhookConfig {
  // Zulip's schedule (4 attempts, 1 s, 2 s, 4 s apart), without jitter, so the times are exact.
  return {
    ...defaultConfig().outgoingWebhooks,
    pollIntervalMs: 0,
    maxAttempts: 4,
    retryScheduleMs: [1000, 2000, 4000],
    retryJitter: 0,
    maxAgeMs: 60 * 60 * 1000,
    ...overrides,
  };
}

/** iago owns "Outgoing Bot" (outgoing-bot@zulip.com, id 8) pointing at a fake endpoint; stream Denmark (id 2). */
async function setup(
  opts: { interfaceType?: number; config?: Partial<OutgoingWebhookConfig>; endpointDown?: boolean } = {},
): Promise<Setup> {
  const clock = new ManualClock();
  const server = await startTestServer({ clock, config: { outgoingWebhooks: webhookConfig(opts.config) } });
  cleanups.push(() => server.close());
  const endpoint = await new FakeBotEndpoint().listen();
  cleanups.push(() => endpoint.close());
  if (opts.endpointDown === true) await endpoint.close();
  const { iago, hamlet, othello } = server.users;
  const res = await server.api.post("/api/v1/bots", {
    as: iago,
    params: {
      full_name: "Outgoing Bot",
      short_name: "outgoing",
      bot_type: 3,
      payload_url: JSON.stringify(endpoint.url),
      interface_type: opts.interfaceType ?? 1,
    },
  });
  expect(res.status).toBe(200);
  const bot = {
    id: res.body.user_id as number,
    email: res.body.email as string,
    apiKey: res.body.api_key as string,
    fullName: "Outgoing Bot",
    token: res.body.services[0].token as string,
  };
  expect(bot.id).toBe(8);
  const streamId = await createStream(server, "Denmark", [iago, hamlet, othello]);
  return { server, clock, endpoint, bot, streamId };
}

async function sendStream(s: Setup, as: TestUser, content: string, topic = "castle"): Promise<number> {
  const res = await s.server.api.post("/api/v1/messages", {
    as,
    params: { type: "stream", to: "Denmark", topic, content },
  });
  expect(res.status).toBe(200);
  await s.server.running.services.outgoing.idle();
  return res.body.id as number;
}

async function sendPrivate(s: Setup, as: TestUser, to: string[], content: string): Promise<number> {
  const res = await s.server.api.post("/api/v1/messages", {
    as,
    params: { type: "private", to: JSON.stringify(to), content },
  });
  expect(res.status).toBe(200);
  await s.server.running.services.outgoing.idle();
  return res.body.id as number;
}

interface Row {
  id: number;
  sender_id: number;
  stream_id: number | null;
  topic: string;
  pm_key: string | null;
  content: string;
  client: string;
}

/** Messages after `afterId`, straight from the store. */
async function messagesAfter(s: Setup, afterId: number): Promise<Row[]> {
  const rows = await s.server.running.db.all<Row>(
    "SELECT id, sender_id, stream_id, topic, pm_key, content, client FROM messages WHERE id > ? ORDER BY id",
    [afterId],
  );
  return rows.map((r) => ({
    ...r,
    id: Number(r.id),
    sender_id: Number(r.sender_id),
    stream_id: r.stream_id === null ? null : Number(r.stream_id),
  }));
}

const HAMLET_DR = {
  email: "hamlet@zulip.com",
  full_name: "King Hamlet",
  id: 3,
  short_name: "hamlet",
  is_mirror_dummy: false,
};
const OTHELLO_DR = {
  email: "othello@zulip.com",
  full_name: "Othello, the Moor of Venice",
  id: 4,
  short_name: "othello",
  is_mirror_dummy: false,
};
const BOT_DR = {
  email: "outgoing-bot@zulip.com",
  full_name: "Outgoing Bot",
  id: 8,
  short_name: "outgoing",
  is_mirror_dummy: false,
};

describe("outgoing webhooks: what triggers a bot", () => {
  it("posts Zulip's JSON payload when a stream message mentions the bot", async () => {
    const s = await setup();
    const id = await sendStream(s, s.server.users.hamlet, "@**Outgoing Bot** hello");
    expect(id).toBe(1);
    expect(s.endpoint.received).toHaveLength(1);
    const req = s.endpoint.received[0]!;
    expect([req.method, req.url, req.headers["content-type"], req.headers["user-agent"]]).toEqual([
      "POST",
      "/",
      "application/json",
      "ZulipOutgoingWebhook/11.0",
    ]);
    expect(JSON.parse(req.body)).toEqual({
      data: "@**Outgoing Bot** hello",
      message: {
        id: 1,
        sender_id: 3,
        content: "@**Outgoing Bot** hello",
        recipient_id: 1,
        timestamp: T0,
        client: "node",
        subject: "castle",
        subject_links: [],
        topic_links: [],
        is_me_message: false,
        reactions: [],
        submessages: [],
        sender_full_name: "King Hamlet",
        sender_email: "hamlet@zulip.com",
        sender_short_name: "hamlet",
        sender_realm_str: "zulip",
        display_recipient: "Denmark",
        type: "stream",
        stream_id: 2,
        avatar_url: AVATAR.hamlet,
        content_type: "text/x-markdown",
        rendered_content: '<p><span class="user-mention" data-user-id="8">@Outgoing Bot</span> hello</p>',
      },
      bot_email: "outgoing-bot@zulip.com",
      bot_full_name: "Outgoing Bot",
      token: s.bot.token,
      trigger: "mention",
      delivery_id: "1.1",
    });
    expect(s.endpoint.received[0]?.headers["x-delivery-id"]).toBe("1.1");
    expect(s.bot.token).toMatch(/^[A-Za-z0-9]{32}$/);
  });

  it("triggers on a mention anywhere in the text, and with the @**Name|id** syntax", async () => {
    const s = await setup();
    await sendStream(s, s.server.users.hamlet, "tell me, @**Outgoing Bot**, why");
    await sendStream(s, s.server.users.hamlet, "@**Outgoing Bot|8** hi");
    expect(s.endpoint.received.map((r) => (JSON.parse(r.body) as { data: string }).data)).toEqual([
      "tell me, @**Outgoing Bot**, why",
      "@**Outgoing Bot|8** hi",
    ]);
  });

  it("reuses one kept-alive connection for consecutive webhook calls", async () => {
    const s = await setup();
    await sendStream(s, s.server.users.hamlet, "@**Outgoing Bot** one");
    await sendStream(s, s.server.users.hamlet, "@**Outgoing Bot** two");
    await sendPrivate(s, s.server.users.othello, ["outgoing-bot@zulip.com"], "three");
    const ports = s.endpoint.received.map((r) => r.remotePort);
    expect(ports).toHaveLength(3);
    expect(new Set(ports).size).toBe(1);
    expect(s.endpoint.received[0]?.headers["connection"]).toBe("keep-alive");
  });

  it("posts trigger direct_message for a private message to the bot (Zulip 8.0, level 201)", async () => {
    const s = await setup();
    await sendPrivate(s, s.server.users.hamlet, ["outgoing-bot@zulip.com"], "hi bot");
    expect(s.endpoint.json(0)).toEqual({
      data: "hi bot",
      message: {
        id: 1,
        sender_id: 3,
        content: "hi bot",
        recipient_id: 1,
        timestamp: T0,
        client: "node",
        subject: "",
        subject_links: [],
        topic_links: [],
        is_me_message: false,
        reactions: [],
        submessages: [],
        sender_full_name: "King Hamlet",
        sender_email: "hamlet@zulip.com",
        sender_short_name: "hamlet",
        sender_realm_str: "zulip",
        display_recipient: [HAMLET_DR, BOT_DR],
        type: "private",
        avatar_url: AVATAR.hamlet,
        content_type: "text/x-markdown",
        rendered_content: "<p>hi bot</p>",
      },
      bot_email: "outgoing-bot@zulip.com",
      bot_full_name: "Outgoing Bot",
      token: s.bot.token,
      trigger: "direct_message",
      delivery_id: "1.1",
    });
  });

  it("triggers on a group private message that includes the bot", async () => {
    const s = await setup();
    await sendPrivate(s, s.server.users.hamlet, ["othello@zulip.com", "outgoing-bot@zulip.com"], "all of us");
    expect(s.endpoint.received).toHaveLength(1);
    const body = s.endpoint.json(0) as { trigger: string; message: { display_recipient: unknown } };
    expect([body.trigger, body.message.display_recipient]).toEqual([
      "direct_message",
      [HAMLET_DR, OTHELLO_DR, BOT_DR],
    ]);
  });

  it("does not trigger on mentions inside code blocks or inline code", async () => {
    const s = await setup();
    await sendStream(s, s.server.users.hamlet, "`@**Outgoing Bot**` is how you call it");
    await sendStream(s, s.server.users.hamlet, "```\n@**Outgoing Bot** hello\n```");
    await sendStream(s, s.server.users.hamlet, "    @**Outgoing Bot** indented code");
    expect(s.endpoint.received).toEqual([]);
    await sendStream(s, s.server.users.hamlet, "@**Outgoing Bot** now for real");
    expect(s.endpoint.received.map((r) => (JSON.parse(r.body) as { data: string }).data)).toEqual([
      "@**Outgoing Bot** now for real",
    ]);
  });

  it("does not trigger on silent mentions, wildcard mentions or unmentioned stream messages", async () => {
    const s = await setup();
    // The bot is subscribed, so @**all** and plain messages reach it: still no webhook.
    await s.server.api.post("/api/v1/users/me/subscriptions", {
      as: s.bot,
      params: { subscriptions: JSON.stringify([{ name: "Denmark" }]) },
    });
    await sendStream(s, s.server.users.hamlet, "@_**Outgoing Bot** silently");
    await sendStream(s, s.server.users.hamlet, "@**all** listen up");
    await sendStream(s, s.server.users.hamlet, "@**everyone** and @**stream** too");
    await sendStream(s, s.server.users.hamlet, "no mention at all");
    expect(s.endpoint.received).toEqual([]);
  });

  it("does not trigger on a mention in a private message the bot does not receive", async () => {
    const s = await setup();
    await sendPrivate(s, s.server.users.hamlet, ["othello@zulip.com"], "ask @**Outgoing Bot** about it");
    expect(s.endpoint.received).toEqual([]);
  });

  it("never triggers on messages sent by bots, the bot itself included", async () => {
    const s = await setup();
    await s.server.api.post("/api/v1/users/me/subscriptions", {
      as: s.bot,
      params: { subscriptions: JSON.stringify([{ name: "Denmark" }]) },
    });
    await sendStream(s, s.bot, "@**Outgoing Bot** talking to myself");
    await sendPrivate(s, s.bot, ["outgoing-bot@zulip.com"], "note to self");
    await sendPrivate(s, s.bot, ["hamlet@zulip.com"], "hello hamlet");
    await sendPrivate(s, s.server.users.webhookBot, ["outgoing-bot@zulip.com"], "bot to bot");
    expect(s.endpoint.received).toEqual([]);
  });
});

describe("outgoing webhooks: the bot server's answer", () => {
  it("posts `content` as the bot's reply in the same stream and topic", async () => {
    const s = await setup();
    s.endpoint.answer = () => ({ body: JSON.stringify({ content: "beep boop" }) });
    await sendStream(s, s.server.users.hamlet, "@**Outgoing Bot** hi", "greetings");
    expect(await messagesAfter(s, 1)).toEqual([
      {
        id: 2,
        sender_id: 8,
        stream_id: 2,
        topic: "greetings",
        pm_key: null,
        content: "beep boop",
        client: "OutgoingWebhookResponse",
      },
    ]);
    expect(await s.server.running.services.outgoing.jobs()).toEqual([]);
  });

  it("posts the legacy `response_string` as the reply", async () => {
    const s = await setup();
    s.endpoint.answer = () => ({ body: JSON.stringify({ response_string: "old style" }) });
    await sendStream(s, s.server.users.hamlet, "@**Outgoing Bot** hi");
    expect(await messagesAfter(s, 1)).toEqual([
      {
        id: 2,
        sender_id: 8,
        stream_id: 2,
        topic: "castle",
        pm_key: null,
        content: "old style",
        client: "OutgoingWebhookResponse",
      },
    ]);
  });

  it("replies to a group private message in the same group", async () => {
    const s = await setup();
    s.endpoint.answer = () => ({ body: JSON.stringify({ content: "hello both" }) });
    await sendPrivate(s, s.server.users.hamlet, ["othello@zulip.com", "outgoing-bot@zulip.com"], "hi");
    expect(await messagesAfter(s, 1)).toEqual([
      {
        id: 2,
        sender_id: 8,
        stream_id: null,
        topic: "",
        pm_key: "3,4,8",
        content: "hello both",
        client: "OutgoingWebhookResponse",
      },
    ]);
  });

  it("delivers the reply to the sender's event queue", async () => {
    const s = await setup();
    s.endpoint.answer = () => ({ body: JSON.stringify({ content: "beep boop" }) });
    const reg = await s.server.api.post("/api/v1/register", {
      as: s.server.users.hamlet,
      params: { event_types: ["message"] },
      skipSchemaCheck: true,
    });
    await sendPrivate(s, s.server.users.hamlet, ["outgoing-bot@zulip.com"], "hi");
    await s.server.running.services.eventQueues.idle();
    const events = await s.server.api.get("/api/v1/events", {
      as: s.server.users.hamlet,
      params: { queue_id: reg.body.queue_id, last_event_id: -1, dont_block: true },
    });
    expect(
      (events.body.events as { message: { sender_email: string; content: string } }[]).map((e) => [
        e.message.sender_email,
        e.message.content,
      ]),
    ).toEqual([
      ["hamlet@zulip.com", "hi"],
      ["outgoing-bot@zulip.com", "beep boop"],
    ]);
  });

  it('posts nothing for response_not_required, an empty body, JSON "" or blank content', async () => {
    const s = await setup();
    const answers = ['{"response_not_required": true}', "", '""', '{"content": "   "}', "{}"];
    let i = 0;
    s.endpoint.answer = () => ({ body: answers[i++] ?? "" });
    for (const _ of answers) await sendStream(s, s.server.users.hamlet, "@**Outgoing Bot** hi");
    expect(s.endpoint.received).toHaveLength(5);
    expect((await messagesAfter(s, 0)).map((m) => m.sender_id)).toEqual([3, 3, 3, 3, 3]);
    expect(await s.server.running.services.outgoing.jobs()).toEqual([]);
  });

  it("posts Zulip's failure and tells the owner when the answer is not JSON", async () => {
    const s = await setup();
    s.endpoint.answer = () => ({ body: "this isn't json" });
    await sendStream(s, s.server.users.hamlet, "@**Outgoing Bot** hi");
    expect(await messagesAfter(s, 1)).toEqual([
      {
        id: 2,
        sender_id: 8,
        stream_id: 2,
        topic: "castle",
        pm_key: null,
        content: "Failure! Invalid JSON in response",
        client: "OutgoingWebhookResponse",
      },
      {
        id: 3,
        sender_id: 8,
        stream_id: null,
        topic: "",
        pm_key: "1,8",
        content:
          `[A message](${s.server.url}/#narrow/channel/2-Denmark/topic/castle/near/1) to your bot @_**Outgoing Bot** triggered an outgoing webhook.\n` +
          "The outgoing webhook server attempted to send a message in Zulip, but that request resulted in the following error:\n" +
          "> Invalid JSON in response\n" +
          "The response contains the following payload:\n" +
          '```\n"this isn\'t json"\n```',
        client: "OutgoingWebhookResponse",
      },
    ]);
  });

  it("posts Zulip's failure when the JSON answer is not an object", async () => {
    const s = await setup();
    s.endpoint.answer = () => ({ body: "[1, 2]" });
    await sendPrivate(s, s.server.users.hamlet, ["outgoing-bot@zulip.com"], "hi");
    expect(await messagesAfter(s, 1)).toEqual([
      {
        id: 2,
        sender_id: 8,
        stream_id: null,
        topic: "",
        pm_key: "3,8",
        content: "Failure! Invalid response format",
        client: "OutgoingWebhookResponse",
      },
      {
        id: 3,
        sender_id: 8,
        stream_id: null,
        topic: "",
        pm_key: "1,8",
        content:
          `[A message](${s.server.url}/#narrow/dm/3,8-pm/near/1) to your bot @_**Outgoing Bot** triggered an outgoing webhook.\n` +
          "The outgoing webhook server attempted to send a message in Zulip, but that request resulted in the following error:\n" +
          "> Invalid response format\n" +
          "The response contains the following payload:\n" +
          "```\n'[1, 2]'\n```",
        client: "OutgoingWebhookResponse",
      },
    ]);
  });

  it("posts 'Third party responded with N' and tells the owner the status and payload on a non-2xx answer", async () => {
    const s = await setup();
    s.endpoint.answer = () => ({ status: 500, body: "Internal error\n" });
    await sendStream(s, s.server.users.hamlet, "@**Outgoing Bot** hi", "a topic.with dots");
    expect(await messagesAfter(s, 1)).toEqual([
      {
        id: 2,
        sender_id: 8,
        stream_id: 2,
        topic: "a topic.with dots",
        pm_key: null,
        content: "Failure! Third party responded with 500",
        client: "OutgoingWebhookResponse",
      },
      {
        id: 3,
        sender_id: 8,
        stream_id: null,
        topic: "",
        pm_key: "1,8",
        content:
          `[A message](${s.server.url}/#narrow/channel/2-Denmark/topic/a.20topic.2Ewith.20dots/near/1) to your bot @_**Outgoing Bot** triggered an outgoing webhook.\n` +
          "The webhook got a response with status code *500*.\n" +
          "The response contains the following payload:\n" +
          "```\nb'Internal error\\n'\n```",
        client: "OutgoingWebhookResponse",
      },
    ]);
    // Not retried: a 5xx is a final answer, as in Zulip.
    expect(s.endpoint.received).toHaveLength(1);
    expect(await s.server.running.services.outgoing.jobs()).toEqual([]);
  });

  it("leaves out the payload block when a non-2xx answer is empty", async () => {
    const s = await setup();
    s.endpoint.answer = () => ({ status: 404 });
    await sendPrivate(s, s.server.users.hamlet, ["outgoing-bot@zulip.com"], "hi");
    expect((await messagesAfter(s, 1)).map((m) => m.content)).toEqual([
      "Failure! Third party responded with 404",
      `[A message](${s.server.url}/#narrow/dm/3,8-pm/near/1) to your bot @_**Outgoing Bot** triggered an outgoing webhook.\n` +
        "The webhook got a response with status code *404*.",
    ]);
  });
});

describe("outgoing webhooks: the Slack interface", () => {
  it("posts Slack's outgoing-webhook form fields and posts `text` as the reply", async () => {
    const s = await setup({ interfaceType: 2 });
    s.endpoint.answer = () => ({ body: JSON.stringify({ text: "from slack" }) });
    await sendStream(s, s.server.users.hamlet, "@**Outgoing Bot** hi slack");
    const req = s.endpoint.received[0]!;
    expect(req.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    const host = new URL(s.server.url).host;
    expect([...new URLSearchParams(req.body).entries()]).toEqual([
      ["token", s.bot.token],
      ["team_id", "T1"],
      ["team_domain", host],
      ["channel_id", "C2"],
      ["channel_name", "Denmark"],
      ["thread_ts", String(T0)],
      ["timestamp", String(T0)],
      ["user_id", "U3"],
      ["user_name", "King Hamlet"],
      ["text", "@**Outgoing Bot** hi slack"],
      ["trigger_word", "mention"],
      ["service_id", "8"],
      ["delivery_id", "1.1"],
    ]);
    expect(await messagesAfter(s, 1)).toEqual([
      {
        id: 2,
        sender_id: 8,
        stream_id: 2,
        topic: "castle",
        pm_key: null,
        content: "from slack",
        client: "OutgoingWebhookResponse",
      },
    ]);
  });

  it("answers a private message with Zulip's failure and sends no request", async () => {
    const s = await setup({ interfaceType: 2 });
    await sendPrivate(s, s.server.users.hamlet, ["outgoing-bot@zulip.com"], "hi");
    expect(s.endpoint.received).toEqual([]);
    expect(await messagesAfter(s, 1)).toEqual([
      {
        id: 2,
        sender_id: 8,
        stream_id: null,
        topic: "",
        pm_key: "3,8",
        content: "Failure! Slack outgoing webhooks don't support direct messages.",
        client: "OutgoingWebhookResponse",
      },
    ]);
  });
});

describe("outgoing webhooks: retries", () => {
  /** The job rows' retry state. */
  async function jobStates(s: Setup): Promise<[number, number, string, string | null][]> {
    return (await s.server.running.services.outgoing.jobs()).map((j) => [
      j.attempts,
      j.nextAttemptAtMs - T0 * 1000,
      j.status,
      j.lastError,
    ]);
  }

  it("retries connection errors after 1 s, 2 s and 4 s, then parks the delivery as dead with Zulip's failure notice", async () => {
    const s = await setup({ endpointDown: true });
    const { outgoing } = s.server.running.services;
    await sendStream(s, s.server.users.hamlet, "@**Outgoing Bot** anyone there?");
    const down = "A connection error occurred. Is my bot server down?";
    expect(await jobStates(s)).toEqual([[1, 1000, "pending", down]]);
    s.clock.advance(999);
    expect(await outgoing.tick()).toBe(0);
    s.clock.advance(1);
    expect(await outgoing.tick()).toBe(1);
    expect(await jobStates(s)).toEqual([[2, 3000, "pending", down]]);
    s.clock.advance(2000);
    expect(await outgoing.tick()).toBe(1);
    expect(await jobStates(s)).toEqual([[3, 7000, "pending", down]]);
    expect(await messagesAfter(s, 1)).toEqual([]);
    s.clock.advance(4000);
    expect(await outgoing.tick()).toBe(1);
    expect(await jobStates(s)).toEqual([[4, 40_000 + 7000, "dead", down]]);
    // The owner's notice is the one summary of the dead deliveries (test/http/outgoing-delivery-states.test.ts).
    expect(await messagesAfter(s, 1)).toEqual([
      {
        id: 2,
        sender_id: 8,
        stream_id: 2,
        topic: "castle",
        pm_key: null,
        content: "Failure! Bot is unavailable",
        client: "OutgoingWebhookResponse",
      },
    ]);
    s.clock.advance(60_000);
    expect(await outgoing.tick()).toBe(0);
  });

  it("delivers on a later attempt when the bot server comes back", async () => {
    const s = await setup();
    let calls = 0;
    s.endpoint.answer = () =>
      ++calls <= 2 ? { reset: true } : { body: JSON.stringify({ content: "sorry, I was away" }) };
    await sendStream(s, s.server.users.hamlet, "@**Outgoing Bot** hi");
    s.clock.advance(1000);
    await s.server.running.services.outgoing.tick();
    s.clock.advance(2000);
    await s.server.running.services.outgoing.tick();
    expect(calls).toBe(3);
    expect(await messagesAfter(s, 1)).toEqual([
      {
        id: 2,
        sender_id: 8,
        stream_id: 2,
        topic: "castle",
        pm_key: null,
        content: "sorry, I was away",
        client: "OutgoingWebhookResponse",
      },
    ]);
    expect(await s.server.running.services.outgoing.jobs()).toEqual([]);
  });

  it.each([503, 429])(
    "retries after Retry-After when the bot server answers %i (busy), with no failure notice",
    async (status) => {
      const s = await setup();
      let calls = 0;
      s.endpoint.answer = () =>
        ++calls === 1
          ? { status, headers: { "retry-after": "5" }, body: '{"msg":"queue full"}' }
          : { body: JSON.stringify({ content: "answered later" }) };
      await sendStream(s, s.server.users.hamlet, "@**Outgoing Bot** hi");
      expect(calls).toBe(1);
      const outgoing = s.server.running.services.outgoing;
      // The backoff alone would retry after 1 s; Retry-After asks for 5 s.
      s.clock.advance(1000);
      expect(await outgoing.tick()).toBe(0);
      s.clock.advance(4000);
      expect(await outgoing.tick()).toBe(1);
      expect(calls).toBe(2);
      expect(await messagesAfter(s, 1)).toEqual([
        {
          id: 2,
          sender_id: 8,
          stream_id: 2,
          topic: "castle",
          pm_key: null,
          content: "answered later",
          client: "OutgoingWebhookResponse",
        },
      ]);
      expect(await outgoing.jobs()).toEqual([]);
    },
  );

  it("times requests out after the configured time, retries, and reports the timeout", async () => {
    const s = await setup({ config: { timeoutSeconds: 0.2, maxAttempts: 2, deadNoticeWindowMs: 0 } });
    s.endpoint.answer = () => ({ hang: true });
    await sendStream(s, s.server.users.hamlet, "@**Outgoing Bot** slow");
    expect(await jobStates(s)).toEqual([[1, 1000, "pending", "Request timed out after 0.2 seconds."]]);
    s.clock.advance(1000);
    await s.server.running.services.outgoing.tick();
    expect(s.endpoint.received).toHaveLength(2);
    await s.server.running.services.outgoing.tick(); // the owner's summary (window 0)
    expect((await messagesAfter(s, 1)).map((m) => m.content)).toEqual([
      "Failure! Bot is unavailable",
      "Your bot @_**Outgoing Bot** could not deliver 1 message to its outgoing webhook; it is parked as a dead letter until you replay it (**Your bots → Deliveries → Replay all**).\n" +
        "* 1 × Request timed out after 0.2 seconds.\n" +
        `Messages: [1](${s.server.url}/#narrow/channel/2-Denmark/topic/castle/near/1)`,
    ]);
  });

  it("stops retrying once a job is older than maxAgeMs", async () => {
    const s = await setup({ endpointDown: true, config: { maxAttempts: 10, maxAgeMs: 2500 } });
    await sendStream(s, s.server.users.hamlet, "@**Outgoing Bot** hi");
    s.clock.advance(1000);
    await s.server.running.services.outgoing.tick();
    // Next retry would be at 1000 + 2000 = 3000 > 2500: give up now.
    expect(await jobStates(s)).toEqual([
      [2, 1000 + 40_000, "dead", "A connection error occurred. Is my bot server down?"],
    ]);
    expect((await messagesAfter(s, 1)).map((m) => m.content)[0]).toBe("Failure! Bot is unavailable");
  });
});

describe("outgoing webhooks: durability", () => {
  it("keeps a pending delivery in a file-backed store across a restart and delivers it then", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "outgoing-durable-"));
    cleanups.push(() => fs.promises.rm(dataDir, { recursive: true, force: true }));
    const clock = new ManualClock();
    const config: ServerConfig = defaultConfig({
      port: 0,
      dataDir,
      ownerEmail: "iago@zulip.com",
      ownerName: "Iago",
      realmStringId: "zulip",
      botDomain: "zulip.com",
      rateLimit: null,
      logLevel: "silent",
      outgoingWebhooks: webhookConfig(),
      outgoingWebhookAllow: LOOPBACK_ALLOW,
    });
    // Reserve a port for the bot server, then leave it closed: the bot server is down.
    const endpoint = await new FakeBotEndpoint().listen();
    const port = endpoint.port;
    await endpoint.close();
    cleanups.push(() => endpoint.close());

    let running: RunningServer = await startServer(config, {
      clock,
      logger: silentLogger,
      ownerPassword: "pw",
    });
    const iago = running.firstStart!.owner;
    const { bot, services } = await running.services.users.createBot(iago, {
      fullName: "Outgoing Bot",
      shortName: "outgoing",
      botType: 3,
      payloadUrl: `http://127.0.0.1:${port}/`,
    });
    expect(services).toHaveLength(1);
    const id = await running.services.messages.send(iago, {
      type: "private",
      to: [bot.email],
      content: "are you there?",
    });
    // The job is in the store when send() returns, before any delivery succeeded.
    expect((await running.services.outgoing.jobs()).map((j) => [j.messageId, j.attempts, j.status])).toEqual([
      [id, 1, "pending"],
    ]);
    await running.services.outgoing.idle();
    await running.close();

    await endpoint.listen(port);
    endpoint.answer = () => ({ body: JSON.stringify({ content: "back again" }) });
    running = await startServer(config, { clock, logger: silentLogger });
    cleanups.push(() => running.close());
    expect(running.firstStart).toBeUndefined();
    expect((await running.services.outgoing.jobs()).map((j) => [j.messageId, j.attempts, j.status])).toEqual([
      [id, 1, "pending"],
    ]);
    clock.advance(1000);
    expect(await running.services.outgoing.tick()).toBe(1);
    expect(endpoint.received.map((r) => (JSON.parse(r.body) as { data: string }).data)).toEqual([
      "are you there?",
    ]);
    expect(await running.services.outgoing.jobs()).toEqual([]);
    const last = await running.db.get<{ sender_id: number; content: string }>(
      "SELECT sender_id, content FROM messages ORDER BY id DESC LIMIT 1",
    );
    expect(last).toEqual({ sender_id: bot.id, content: "back again" });
  });

  it("claims a job for its attempt's timeout plus the lease grace (--outgoing-webhook-lease-grace)", async () => {
    const s = await setup({ config: { timeoutSeconds: 7, leaseGraceMs: 4_000 } });
    s.endpoint.answer = () => ({ hang: true });
    await s.server.api.post("/api/v1/messages", {
      as: s.server.users.iago,
      params: { type: "private", to: JSON.stringify([s.bot.id]), content: "slow" },
    });
    await until(() => s.endpoint.received.length === 1);
    // While the attempt runs, no worker (of this process or another) may take the job before
    // 7 s + 4 s from the claim: a process killed now would leave it due exactly then.
    const jobs = await s.server.running.services.outgoing.jobs();
    expect(jobs.map((j) => ({ attempts: j.attempts, due: j.nextAttemptAtMs }))).toEqual([
      { attempts: 1, due: s.clock.now() + 11_000 },
    ]);
  });

  it("resumes a job whose request was interrupted by shutdown", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "outgoing-durable-"));
    cleanups.push(() => fs.promises.rm(dataDir, { recursive: true, force: true }));
    const clock = new ManualClock();
    const config: ServerConfig = defaultConfig({
      port: 0,
      dataDir,
      ownerEmail: "iago@zulip.com",
      ownerName: "Iago",
      botDomain: "zulip.com",
      rateLimit: null,
      logLevel: "silent",
      outgoingWebhooks: webhookConfig(),
      outgoingWebhookAllow: LOOPBACK_ALLOW,
    });
    const endpoint = await new FakeBotEndpoint().listen();
    cleanups.push(() => endpoint.close());
    endpoint.answer = () => ({ hang: true });
    let running = await startServer(config, { clock, logger: silentLogger, ownerPassword: "pw" });
    const iago = running.firstStart!.owner;
    const { bot } = await running.services.users.createBot(iago, {
      fullName: "Outgoing Bot",
      shortName: "outgoing",
      botType: 3,
      payloadUrl: endpoint.url,
    });
    await running.services.messages.send(iago, { type: "private", to: [bot.email], content: "first try" });
    while (endpoint.received.length === 0) await new Promise((r) => setTimeout(r, 5));
    await running.close();

    endpoint.answer = () => ({ body: JSON.stringify({ content: "got it" }) });
    running = await startServer(config, { clock, logger: silentLogger });
    cleanups.push(() => running.close());
    // Released at shutdown: due at once, the interrupted attempt not counted; start() ran it.
    await running.services.outgoing.tick();
    expect(endpoint.received).toHaveLength(2);
    expect(await running.services.outgoing.jobs()).toEqual([]);
    const last = await running.db.get<{ content: string }>(
      "SELECT content FROM messages ORDER BY id DESC LIMIT 1",
    );
    expect(last).toEqual({ content: "got it" });
  });
});

/** Waits until `done()` holds, checking every 5 ms; fails after `timeoutMs` (a generous bound). */
async function until(done: () => boolean, timeoutMs = 15_000): Promise<void> {
  for (const end = Date.now() + timeoutMs; !done(); await new Promise((r) => setTimeout(r, 5)))
    if (Date.now() > end) throw new Error("the awaited condition never held");
}

describe("outgoing webhooks: one conversation's deliveries in send order", () => {
  it("sends a topic's next message only once the bot has answered the one before", async () => {
    const s = await setup();
    // The bot holds its answer to the first message until the test releases it.
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let answered = 0;
    const answeredAtArrival: number[] = [];
    s.endpoint.answer = () => {
      answeredAtArrival.push(answered);
      const after = answeredAtArrival.length === 1 ? held : Promise.resolve();
      return { after: after.then(() => answered++), body: '{"response_not_required": true}' };
    };
    const send = (content: string) =>
      s.server.api.post("/api/v1/messages", {
        as: s.server.users.hamlet,
        params: { type: "stream", to: "Denmark", topic: "castle", content: `@**Outgoing Bot** ${content}` },
      });
    expect((await send("first")).status).toBe(200);
    await until(() => answeredAtArrival.length === 1);
    expect((await send("second")).status).toBe(200);
    // A window in which a delivery of the second message that did not wait would arrive (it did,
    // at once, before). Nothing is judged by its length: it only gives the wrong order a chance.
    for (let i = 0; i < 50 && answeredAtArrival.length < 2; i++) await new Promise((r) => setTimeout(r, 10));
    release();
    await until(() => answeredAtArrival.length === 2);
    await s.server.running.services.outgoing.idle();
    // The second arrived only after the first was answered.
    expect(answeredAtArrival).toEqual([0, 1]);
  });
});
