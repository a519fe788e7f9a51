/**
 * The delivery log of incoming webhooks: every outcome, redaction, paging and filters,
 * permissions, retention, replay. (Outgoing webhooks: deliveries-outgoing.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { ManualClock } from "../../src/clock.js";
import { startTestServer } from "../helpers/test-server.js";
import type { ParamValue } from "../helpers/client.js";
import type { TestServer, TestUser } from "../helpers/test-server.js";
import { rawRequest } from "./deliveries-helpers.js";

const hello =
  '{"featured_title":"Marilyn Monroe","featured_url":"https://en.wikipedia.org/wiki/Marilyn_Monroe"}';
const helloBody =
  "Hello! I am happy to be here! :smile:\nThe Wikipedia featured article for today is **[Marilyn Monroe](https://en.wikipedia.org/wiki/Marilyn_Monroe)**";

let t: TestServer;
const clock = new ManualClock(Date.UTC(2026, 10, 21, 12, 0, 0));
const T = Date.UTC(2026, 10, 21, 12, 0, 0) / 1000;

beforeAll(async () => {
  t = await startTestServer({ clock });
  const res = await t.api.post("/api/v1/users/me/subscriptions", {
    as: t.users.iago,
    params: { subscriptions: [{ name: "test" }], principals: [t.users.webhookBot.email, t.users.iago.email] },
  });
  expect(res.status).toBe(200);
});
afterAll(async () => {
  await t.close();
});

function post(
  integration: string,
  query: string,
  headers: Record<string, string>,
  body: string,
): ReturnType<typeof rawRequest> {
  return rawRequest(t.url, "POST", `/api/v1/external/${integration}?${query}`, headers, body);
}

async function deliveries(as: TestUser, botId: number, params: Record<string, ParamValue> = {}) {
  return t.api.get(`/api/v1/bots/${botId}/deliveries`, { as, params });
}

async function newest(): Promise<Record<string, unknown>> {
  const res = await deliveries(t.users.iago, t.users.webhookBot.id, { num: 1 });
  expect(res.status).toBe(200);
  return (res.body.deliveries as Record<string, unknown>[])[0]!;
}

const JSON_HEADERS = { "content-type": "application/json" };

function requestHeaders(extra: Record<string, string> = {}): Record<string, string> {
  return { "content-type": "application/json", host: new URL(t.url).host, connection: "close", ...extra };
}

describe("GET /api/v1/bots/{bot_id}/deliveries: incoming outcomes", () => {
  it("logs a posted message as sent, with the request minus its api_key and the answer", async () => {
    const key = t.users.webhookBot.apiKey;
    const res = await post("helloworld", `api_key=${key}&stream=test`, JSON_HEADERS, hello);
    expect(res.status).toBe(200);
    const entry = await newest();
    const messageId = (entry["message_ids"] as number[])[0]!;
    const msg = await t.api.get(`/api/v1/messages/${messageId}`, { as: t.users.iago });
    expect(msg.body.message.content).toContain("Marilyn Monroe");
    expect(entry).toEqual({
      id: entry["id"],
      bot_id: 7,
      timestamp: T,
      direction: "incoming",
      integration: "helloworld",
      event: "default",
      request: {
        method: "POST",
        url: "/api/v1/external/helloworld?stream=test",
        headers: requestHeaders(),
        body: hello,
        body_truncated: false,
      },
      response: { status: 200, body: '{"result":"success","msg":""}' },
      outcome: "sent",
      message_ids: [messageId],
      attempts: 1,
      error: null,
      replay_of: null,
      old_credential: null,
    });
    expect(JSON.stringify(entry)).not.toContain(key);
  });

  it("logs an event filtered out by only_events as ignored", async () => {
    const key = t.users.webhookBot.apiKey;
    const query = `api_key=${key}&stream=test&only_events=${encodeURIComponent('["push"]')}`;
    const res = await post("helloworld", query, JSON_HEADERS, hello);
    expect(res.status).toBe(200);
    const entry = await newest();
    expect(entry["outcome"]).toBe("ignored");
    expect(entry["event"]).toBe("default");
    expect(entry["message_ids"]).toEqual([]);
    expect(entry["request"]).toEqual({
      method: "POST",
      url: "/api/v1/external/helloworld?stream=test&only_events=%5B%22push%22%5D",
      headers: requestHeaders(),
      body: hello,
      body_truncated: false,
    });
  });

  it("logs an unsupported event as ignored, with the error the sender got (HTTP 200)", async () => {
    const key = t.users.webhookBot.apiKey;
    const res = await post(
      "github",
      `api_key=${key}&stream=test`,
      { ...JSON_HEADERS, "x-github-event": "not_an_event" },
      '{"action":"x"}',
    );
    expect(res.status).toBe(200);
    const entry = await newest();
    expect(entry["outcome"]).toBe("ignored");
    // GitHub's event name carries the payload's action.
    expect(entry["event"]).toBe("not_an_event:x");
    expect(entry["response"]).toEqual({ status: 200, body: res.body });
    expect(entry["error"]).toBe("The 'not_an_event:x' event isn't currently supported by the GitHub webhook");
  });

  it("logs a request without its event header as rejected", async () => {
    const key = t.users.webhookBot.apiKey;
    const res = await post("github", `api_key=${key}&stream=test`, JSON_HEADERS, "{}");
    expect(res.status).toBe(400);
    const entry = await newest();
    expect(entry["outcome"]).toBe("rejected");
    expect(entry["event"]).toBe(null);
    expect(entry["response"]).toEqual({ status: 400, body: res.body });
    expect(entry["error"]).toBe("Missing the HTTP event header 'X-GitHub-Event'");
  });

  it("logs a message to a stream that does not exist as failed (answered 200, as Zulip does)", async () => {
    const key = t.users.webhookBot.apiKey;
    const res = await post("helloworld", `api_key=${key}&stream=nowhere`, JSON_HEADERS, hello);
    expect(res.status).toBe(200);
    const entry = await newest();
    expect(entry["outcome"]).toBe("failed");
    expect(entry["error"]).toBe("Stream 'nowhere' does not exist");
    expect(entry["message_ids"]).toEqual([]);
    expect(entry["response"]).toEqual({ status: 200, body: '{"result":"success","msg":""}' });
  });

  it("does not log a request whose api_key is wrong (no bot to log it for)", async () => {
    const before = await newest();
    const res = await post("helloworld", "api_key=wrong&stream=test", JSON_HEADERS, hello);
    expect(res.status).toBe(401);
    expect(await newest()).toEqual(before);
  });
});

describe("redaction", () => {
  it("keeps no api_key, secret, signature, token or Authorization in the log", async () => {
    const key = t.users.webhookBot.apiKey;
    await t.api.patch(`/api/v1/bots/${t.users.webhookBot.id}`, {
      as: t.users.iago,
      params: { config_data: JSON.stringify({ github_secret: "shh-github-secret" }) },
    });
    const body =
      '{"zen":"Keep it logically awesome.","hook_id":1,"token":"body-token-123","secret":"body-secret"}';
    const res = await post(
      "github",
      `api_key=${key}&stream=test&token=query-token-456`,
      {
        ...JSON_HEADERS,
        "x-github-event": "ping",
        "x-hub-signature-256": "sha256=0123456789abcdef",
        authorization: "Bearer bearer-token-789",
        "x-gitlab-token": "gitlab-token-000",
      },
      body,
    );
    expect(res.status).toBe(401);
    const entry = await newest();
    expect(entry["outcome"]).toBe("rejected");
    expect(entry["request"]).toEqual({
      method: "POST",
      url: "/api/v1/external/github?stream=test&token=%5Bredacted%5D",
      headers: requestHeaders({
        "x-github-event": "ping",
        "x-hub-signature-256": "[redacted]",
        authorization: "[redacted]",
        "x-gitlab-token": "[redacted]",
      }),
      body: '{"zen":"Keep it logically awesome.","hook_id":1,"token":"[redacted]","secret":"[redacted]"}',
      body_truncated: false,
    });
    const text = JSON.stringify(entry);
    for (const secret of [
      key,
      "shh-github-secret",
      "0123456789abcdef",
      "body-token-123",
      "body-secret",
      "query-token-456",
      "bearer-token-789",
      "gitlab-token-000",
    ]) {
      expect(text).not.toContain(secret);
    }
    await t.api.patch(`/api/v1/bots/${t.users.webhookBot.id}`, {
      as: t.users.iago,
      params: { config_data: JSON.stringify({ github_secret: "" }) },
    });
  });
});

describe("paging, filters and permissions", () => {
  it("pages newest first by anchor and filters by outcome and direction", async () => {
    const all = await deliveries(t.users.iago, t.users.webhookBot.id, { num: 200 });
    const ids = (all.body.deliveries as { id: number }[]).map((d) => d.id);
    expect(ids.length).toBeGreaterThanOrEqual(6);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    const page = await deliveries(t.users.iago, t.users.webhookBot.id, { num: 2, anchor: ids[1]! });
    expect((page.body.deliveries as { id: number }[]).map((d) => d.id)).toEqual([ids[2], ids[3]]);
    expect(page.body.found_oldest).toBe(false);
    const sent = await deliveries(t.users.iago, t.users.webhookBot.id, { outcome: "sent" });
    expect((sent.body.deliveries as { outcome: string }[]).map((d) => d.outcome)).toEqual(["sent"]);
    const outgoing = await deliveries(t.users.iago, t.users.webhookBot.id, { direction: "outgoing" });
    expect(outgoing.body).toEqual({ result: "success", msg: "", deliveries: [], found_oldest: true });
    const bad = await deliveries(t.users.iago, t.users.webhookBot.id, { outcome: "lost" });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ result: "error", msg: "Invalid outcome: 'lost'", code: "BAD_REQUEST" });
  });

  it("is visible to the bot's owner and to administrators only", async () => {
    const other = await deliveries(t.users.hamlet, t.users.webhookBot.id);
    expect(other.status).toBe(403);
    expect(other.body).toEqual({ result: "error", msg: "Insufficient permission", code: "BAD_REQUEST" });
    const replay = await t.api.post(`/api/v1/bots/${t.users.webhookBot.id}/deliveries/1/replay`, {
      as: t.users.hamlet,
    });
    expect(replay.status).toBe(403);
    const missing = await deliveries(t.users.iago, 9999);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ result: "error", msg: "No such bot", code: "NOT_FOUND" });
    const human = await deliveries(t.users.iago, t.users.hamlet.id);
    expect(human.status).toBe(404);
    // An administrator sees a bot someone else owns.
    const created = await t.api.post("/api/v1/bots", {
      as: t.users.hamlet,
      params: { full_name: "Hamlet's Hook", short_name: "hamlethook", bot_type: 2 },
    });
    expect(created.status).toBe(200);
    const asAdmin = await deliveries(t.users.iago, created.body.user_id as number);
    expect(asAdmin.body).toEqual({ result: "success", msg: "", deliveries: [], found_oldest: true });
    const asOthello = await deliveries(t.users.othello, created.body.user_id as number);
    expect(asOthello.status).toBe(403);
  });
});

describe("POST /api/v1/bots/{bot_id}/deliveries/{delivery_id}/replay (incoming)", () => {
  it("re-runs a failed delivery once the stream exists; the new entry points to the original", async () => {
    const key = t.users.webhookBot.apiKey;
    await post("helloworld", `api_key=${key}&stream=later`, JSON_HEADERS, hello);
    const failed = await newest();
    expect(failed["outcome"]).toBe("failed");
    const sub = await t.api.post("/api/v1/users/me/subscriptions", {
      as: t.users.iago,
      params: { subscriptions: [{ name: "later" }], principals: [t.users.webhookBot.email] },
    });
    expect(sub.status).toBe(200);
    const res = await t.api.post(
      `/api/v1/bots/${t.users.webhookBot.id}/deliveries/${failed["id"] as number}/replay`,
      {
        as: t.users.iago,
      },
    );
    expect(res.status).toBe(200);
    const delivery = res.body.delivery as Record<string, unknown>;
    const messageId = (delivery["message_ids"] as number[])[0]!;
    expect(delivery).toEqual({
      id: (failed["id"] as number) + 1,
      bot_id: 7,
      timestamp: T,
      direction: "incoming",
      integration: "helloworld",
      event: "default",
      request: {
        method: "POST",
        url: "/api/v1/external/helloworld?stream=later",
        headers: requestHeaders(),
        body: hello,
        body_truncated: false,
      },
      response: { status: 200, body: '{"result":"success","msg":""}' },
      outcome: "sent",
      message_ids: [messageId],
      attempts: 1,
      error: null,
      replay_of: failed["id"],
      old_credential: null,
    });
    const msg = await t.api.get(`/api/v1/messages/${messageId}`, {
      as: t.users.iago,
      params: { apply_markdown: false },
    });
    expect(msg.body.message.content).toBe(helloBody);
    expect(msg.body.message.subject).toBe("Hello World");
    expect((await newest())["id"]).toBe(delivery["id"]);
  });

  it("answers 404 for an unknown delivery", async () => {
    const res = await t.api.post(`/api/v1/bots/${t.users.webhookBot.id}/deliveries/99999/replay`, {
      as: t.users.iago,
    });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ result: "error", msg: "No such delivery", code: "NOT_FOUND" });
  });
});
