/**
 * What the webhook pipeline does around the integrations' own answers, over HTTP: misconfigured
 * payloads told to the bot's owner (rate-limited), a message that names its stream, the bot's
 * email written with %40 in HTTP Basic credentials, and a signature inside the payload.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import fs from "node:fs";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer } from "../helpers/test-server.js";

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

async function postJson(
  path: string,
  payload: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${t.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(payload),
  });
  return { status: res.status, body: await res.json() };
}

interface WireMessage {
  id: number;
  subject: string;
  content: string;
  sender_email: string;
  display_recipient: string | { email: string }[];
}

/** The Notification Bot's private messages to iago (the webhook bot's owner), oldest first. */
async function noticesToOwner(): Promise<string[]> {
  const res = await t.api.get("/api/v1/messages", {
    as: t.users.iago,
    params: {
      anchor: "newest",
      num_before: 100,
      num_after: 0,
      narrow: [["pm-with", "notification-bot@zulip.com"]],
      apply_markdown: false,
    },
  });
  expect(res.status).toBe(200);
  return (res.body.messages as WireMessage[]).map((m) => m.content);
}

const ZABBIX_NOTICE =
  "Hi there! Your bot Zulip Webhook Bot just received a Zabbix payload that is missing\n" +
  "some data that Zulip requires. This usually indicates a configuration issue\n" +
  "in your Zabbix webhook settings. Please make sure that you set the\n" +
  "script correctly and provide all the required parameters\n" +
  "when configuring the Zabbix webhook. Contact the server administrator if you\n" +
  "need further help!";

const TEAMCITY_NOTICE =
  "Hi there! Your bot Zulip Webhook Bot just received a TeamCity payload in a\n" +
  "format that Zulip doesn't recognize. This usually indicates a\n" +
  "configuration issue in your TeamCity webhook settings. Please make sure\n" +
  "that you set the **Payload Format** option to **Legacy Webhook (JSON)**\n" +
  "in your TeamCity webhook configuration. Contact the server administrator if you\n" +
  "need further help!";

describe("misconfigured payloads are told to the bot's owner", () => {
  it("answers Zabbix's Invalid payload and tells the owner once a minute at most", async () => {
    const before = (await noticesToOwner()).length;
    const path = `/api/v1/external/zabbix?api_key=${t.users.webhookBot.apiKey}&stream=zabbix`;
    for (let i = 0; i < 2; i++) {
      expect(await postJson(path, { hostname: "db1.example.com" })).toEqual({
        status: 400,
        body: { result: "error", msg: "Invalid payload", code: "BAD_REQUEST" },
      });
    }
    expect((await noticesToOwner()).slice(before)).toEqual([ZABBIX_NOTICE]);
  });

  it("answers a TeamCity payload of another format with success, telling the owner", async () => {
    const before = (await noticesToOwner()).length;
    const path = `/api/v1/external/teamcity?api_key=${t.users.webhookBot.apiKey}&stream=teamcity`;
    expect(await postJson(path, { text: "Build finished" })).toEqual({
      status: 200,
      body: { result: "success", msg: "" },
    });
    expect((await noticesToOwner()).slice(before)).toEqual([TEAMCITY_NOTICE]);
  });
});

describe("a message that names its stream", () => {
  it("posts Slack's channels_map_to_topics=0 to the stream named after the Slack channel", async () => {
    const sub = await t.api.post("/api/v1/users/me/subscriptions", {
      as: t.users.iago,
      params: {
        subscriptions: [{ name: "random" }],
        principals: [t.users.webhookBot.email, t.users.iago.email],
      },
    });
    expect(sub.status).toBe(200);
    const res = await fetch(
      `${t.url}/api/v1/external/slack?api_key=${t.users.webhookBot.apiKey}&stream=general&channels_map_to_topics=0`,
      {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "user_name=slack_user&channel_name=random&text=hello",
      },
    );
    expect(res.status).toBe(200);
    const got = await t.api.get("/api/v1/messages", {
      as: t.users.iago,
      params: {
        anchor: "newest",
        num_before: 1,
        num_after: 0,
        narrow: [["sender", t.users.webhookBot.email]],
        apply_markdown: false,
      },
    });
    const [m] = got.body.messages as WireMessage[];
    expect({ stream: m?.display_recipient, topic: m?.subject, content: m?.content }).toEqual({
      stream: "random",
      topic: "Message from Slack",
      content: "**slack_user**: hello",
    });
  });
});

describe("HTTP Basic credentials", () => {
  // A recorded Beanstalk push (its form field `payload`), sent with other credentials.
  const recorded = JSON.parse(
    fs.readFileSync(
      new URL("../../integrations/beanstalk/fixtures/cases/test_git_single.json", import.meta.url),
      "utf8",
    ),
  ) as { fixture: Record<string, string> };
  const body = new URLSearchParams(recorded.fixture).toString();

  it("accepts the bot's email written with %40 (Beanstalk refuses '@' in the user name)", async () => {
    const written = t.users.webhookBot.email.replace("@", "%40");
    const auth = Buffer.from(`${written}:${t.users.webhookBot.apiKey}`).toString("base64");
    const res = await fetch(`${t.url}/api/v1/external/beanstalk?stream=commits`, {
      method: "POST",
      headers: { authorization: `Basic ${auth}`, "content-type": "application/x-www-form-urlencoded" },
      body,
    });
    expect({ status: res.status, body: await res.json() }).toMatchObject({
      status: 200,
      body: { result: "success" },
    });
  });

  it("still refuses another user's email", async () => {
    const auth = Buffer.from(`hamlet%40zulip.com:${t.users.webhookBot.apiKey}`).toString("base64");
    const res = await fetch(`${t.url}/api/v1/external/beanstalk?stream=commits`, {
      method: "POST",
      headers: { authorization: `Basic ${auth}`, "content-type": "application/x-www-form-urlencoded" },
      body,
    });
    expect(res.status).toBe(401);
  });
});

describe("a signature inside the payload (Dropbox Sign's event_hash)", () => {
  // HMAC-SHA256 of "1348177752" + "callback_test" keyed with this API key, computed with Python's
  // hmac module.
  const apiKey = "dropbox-sign-api-key";
  const good = "bc439bb905fe6c884ba842498c0299bf7fd0240c795a077b5dfa658eaebf0b60";
  let bot: { apiKey: string };

  beforeAll(async () => {
    const res = await t.api.post("/api/v1/bots", {
      as: t.users.iago,
      params: {
        full_name: "Signed HelloSign",
        short_name: "signedhellosign",
        bot_type: 2,
        config_data: { hellosign_secret: apiKey },
      },
    });
    expect(res.status).toBe(200);
    bot = { apiKey: res.body.api_key as string };
  });

  async function callback(hash: string): Promise<{ status: number; body: unknown }> {
    const event = { event_time: "1348177752", event_type: "callback_test", event_hash: hash };
    const res = await fetch(`${t.url}/api/v1/external/hellosign?api_key=${bot.apiKey}&stream=docs`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ json: JSON.stringify({ event }) }).toString(),
    });
    return { status: res.status, body: await res.json() };
  }

  it("accepts the callback whose event_hash the bot's secret verifies", async () => {
    expect(await callback(good)).toEqual({
      status: 200,
      body: { result: "success", msg: "Hello API Event Received" },
    });
  });

  it("refuses a wrong event_hash with 401", async () => {
    expect(await callback(good.replace(/^bc/, "00"))).toEqual({
      status: 401,
      body: {
        result: "error",
        msg: "Webhook signature verification failed.",
        code: "INVALID_WEBHOOK_SIGNATURE",
      },
    });
  });
});
