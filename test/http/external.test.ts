/**
 * Behaviour every integration shares (the pipeline), tested once: against helloworld, and against
 * github where an event header or a signature is needed.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import crypto from "node:crypto";
import { ManualClock } from "../../src/clock.js";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer } from "../helpers/test-server.js";

const hello = JSON.stringify({
  featured_title: "Marilyn Monroe",
  featured_url: "https://en.wikipedia.org/wiki/Marilyn_Monroe",
});
const helloBody =
  "Hello! I am happy to be here! :smile:\nThe Wikipedia featured article for today is **[Marilyn Monroe](https://en.wikipedia.org/wiki/Marilyn_Monroe)**";
const ping = JSON.stringify({
  zen: "Design for failure.",
  hook_id: 1,
  hook: { type: "Repository", id: 1, name: "web", active: true, events: ["push"], config: {} },
  repository: { id: 1, name: "public-repo", full_name: "baxterthehacker/public-repo" },
  sender: { login: "baxterthehacker", id: 6752317 },
});

let t: TestServer;
const clock = new ManualClock(Date.UTC(2026, 10, 21, 12, 0, 0));

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

interface Msg {
  id: number;
  subject: string;
  content: string;
  sender_email: string;
  client: string;
}

async function newest(narrow: unknown[]): Promise<Msg | undefined> {
  const res = await t.api.get("/api/v1/messages", {
    as: t.users.iago,
    params: { anchor: "newest", num_before: 1, num_after: 0, narrow, apply_markdown: false },
  });
  const list = res.body.messages as Msg[];
  return list[list.length - 1];
}

async function maxId(): Promise<number> {
  return (await t.api.get("/api/v1/users/me", { as: t.users.iago })).body.max_message_id as number;
}

function hook(
  name: string,
  query: string,
  body: string,
  headers: Record<string, string> = { "content-type": "application/json" },
  method = "POST",
): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }> {
  return fetch(`${t.url}/api/v1/external/${name}?${query}`, { method, headers, body }).then(async (r) => ({
    status: r.status,
    headers: r.headers,
    body: (await r.json()) as Record<string, unknown>,
  }));
}

describe("POST /api/v1/external/<integration>: authentication", () => {
  it("requires api_key", async () => {
    const res = await hook("helloworld", "stream=test", hello);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      result: "error",
      msg: "Missing 'api_key' argument",
      code: "REQUEST_VARIABLE_MISSING",
      var_name: "api_key",
    });
  });

  it("answers 401 for a malformed or unknown key", async () => {
    const malformed = await hook("helloworld", "api_key=abc&stream=test", hello);
    expect(malformed.status).toBe(401);
    expect(malformed.body).toEqual({ result: "error", msg: "Malformed API key", code: "INVALID_API_KEY" });
    const unknown = await hook("helloworld", `api_key=${"B".repeat(32)}&stream=test`, hello);
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual({ result: "error", msg: "Invalid API key", code: "INVALID_API_KEY" });
  });

  it("accepts api_key in the form body", async () => {
    const form = new URLSearchParams({
      api_key: t.users.webhookBot.apiKey,
      stream: "test",
      topic: "form key",
      payload: JSON.stringify({ text: "Sent with the key in the form" }),
    });
    const res = await fetch(`${t.url}/api/v1/external/slack_incoming`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: form.toString(),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ result: "success", msg: "", ok: true });
    const m = await newest([["stream", "test"]]);
    expect({ topic: m?.subject, content: m?.content }).toEqual({
      topic: "form key",
      content: "Sent with the key in the form",
    });
  });

  it("answers a Slack sender's error in Slack's shape, and a bad key in Zulip's", async () => {
    const missing = await fetch(
      `${t.url}/api/v1/external/slack_incoming?api_key=${t.users.webhookBot.apiKey}&stream=test`,
      { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "" },
    );
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({ ok: false, error: "Missing 'payload' argument" });

    const badKey = await fetch(
      `${t.url}/api/v1/external/slack_incoming?api_key=${"x".repeat(32)}&stream=test`,
      {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ payload: JSON.stringify({ text: "x" }) }).toString(),
      },
    );
    expect(badKey.status).toBe(401);
    expect(await badKey.json()).toEqual({ result: "error", msg: "Invalid API key", code: "INVALID_API_KEY" });
  });

  it("answers 404 for an unknown integration", async () => {
    const res = await hook("nosuchservice", `api_key=${t.users.webhookBot.apiKey}`, hello);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      result: "error",
      msg: "Unknown integration 'nosuchservice'",
      code: "NOT_FOUND",
    });
  });
});

describe("POST /api/v1/external/<integration>: routing", () => {
  it("posts to the stream with the integration's topic", async () => {
    const res = await hook("helloworld", `api_key=${t.users.webhookBot.apiKey}&stream=test`, hello);
    expect(res).toMatchObject({ status: 200, body: { result: "success", msg: "" } });
    const m = await newest([["stream", "test"]]);
    expect({ topic: m?.subject, content: m?.content, sender: m?.sender_email, client: m?.client }).toEqual({
      topic: "Hello World",
      content: helloBody,
      sender: "webhook-bot@zulip.com",
      // Zulip's client name for the Hello World view's messages.
      client: "ZulipHelloWorldWebhook",
    });
  });

  it("lets the URL's topic override, and accepts a stream id", async () => {
    const id = (await t.api.get("/api/v1/get_stream_id", { as: t.users.iago, params: { stream: "test" } }))
      .body.stream_id as number;
    const res = await hook(
      "helloworld",
      `api_key=${t.users.webhookBot.apiKey}&stream=${id}&topic=Custom%20Topic`,
      hello,
    );
    expect(res.status).toBe(200);
    const m = await newest([["stream", "test"]]);
    expect(m?.subject).toBe("Custom Topic");
  });

  it("sends privately to the bot's owner without a stream", async () => {
    const res = await hook("helloworld", `api_key=${t.users.webhookBot.apiKey}`, hello);
    expect(res.status).toBe(200);
    const m = await newest([["pm-with", "webhook-bot@zulip.com"]]);
    expect(m?.client).toBe("ZulipHelloWorldWebhook");
    expect({ content: m?.content, sender: m?.sender_email }).toEqual({
      content: helloBody,
      sender: "webhook-bot@zulip.com",
    });
  });

  it("tells the owner when the stream does not exist, and still answers success", async () => {
    const res = await hook("helloworld", `api_key=${t.users.webhookBot.apiKey}&stream=nonexistent`, hello);
    expect(res).toMatchObject({ status: 200, body: { result: "success", msg: "" } });
    const m = await newest([["pm-with", "notification-bot@zulip.com"]]);
    expect(m?.content).toBe(
      "Your bot `webhook-bot@zulip.com` tried to send a message to channel #**nonexistent**, but that channel does not exist. Click [here](#channels/new) to create it.",
    );
  });

  it("fails with STREAM_DOES_NOT_EXIST for an unknown stream id", async () => {
    const res = await hook("helloworld", `api_key=${t.users.webhookBot.apiKey}&stream=987654`, hello);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      result: "error",
      msg: "Stream with ID '987654' does not exist",
      code: "STREAM_DOES_NOT_EXIST",
      stream_id: 987654,
    });
  });
});

describe("POST /api/v1/external/<integration>: payload errors", () => {
  it("answers 400 naming the missing key", async () => {
    const res = await hook(
      "helloworld",
      `api_key=${t.users.webhookBot.apiKey}&stream=test`,
      JSON.stringify({ featured_title: "x" }),
    );
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      result: "error",
      msg: "Missing key 'featured_url' in JSON payload",
      code: "BAD_REQUEST",
    });
  });

  it("answers 400 Malformed JSON and tells the owner", async () => {
    const res = await hook("helloworld", `api_key=${t.users.webhookBot.apiKey}&stream=test`, "{not json");
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: "error", msg: "Malformed JSON", code: "INVALID_JSON" });
    const m = await newest([["pm-with", "notification-bot@zulip.com"]]);
    expect(m?.content).toBe(
      "Hi there! It looks like you tried to set up the Zulip Hello World integration,\nbut didn't correctly configure the webhook to send data in the JSON format\nthat this integration expects!",
    );
  });

  it("answers MISSING_HTTP_EVENT_HEADER and tells the owner once a minute", async () => {
    const before = await maxId();
    const res = await hook("github", `api_key=${t.users.webhookBot.apiKey}&stream=test`, ping);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      result: "error",
      msg: "Missing the HTTP event header 'X-GitHub-Event'",
      code: "MISSING_HTTP_EVENT_HEADER",
      webhook_name: "GitHub",
      header: "X-GitHub-Event",
    });
    const m = await newest([["pm-with", "notification-bot@zulip.com"]]);
    expect(m?.content).toBe(
      "Hi there!  Your bot Zulip Webhook Bot just sent an HTTP request to /api/v1/external/github that\n" +
        "is missing the HTTP X-GitHub-Event header.  Because this header is how\n" +
        "GitHub indicates the event type, this usually indicates a configuration\n" +
        "issue, where you either entered the URL for a different integration, or are running\n" +
        "an older version of the third-party service that doesn't provide that header.\n" +
        "Contact the server administrator if you need help debugging!",
    );
    expect(m!.id).toBeGreaterThan(before);
    const again = await hook("github", `api_key=${t.users.webhookBot.apiKey}&stream=test`, ping);
    expect(again.status).toBe(400);
    expect(await maxId()).toBe(m!.id);
    clock.advance(61_000);
    await hook("github", `api_key=${t.users.webhookBot.apiKey}&stream=test`, ping);
    expect(await maxId()).toBeGreaterThan(m!.id);
  });

  it("answers an unsupported event 200 with the error body, and tells the owner once a minute", async () => {
    const before = await maxId();
    const send = (): ReturnType<typeof hook> =>
      hook(
        "github",
        `api_key=${t.users.webhookBot.apiKey}&stream=test`,
        JSON.stringify({ action: "bogus" }),
        {
          "content-type": "application/json",
          "x-github-event": "made_up_event",
        },
      );
    const res = await send();
    expect({ status: res.status, body: res.body }).toEqual({
      status: 200,
      body: {
        result: "error",
        msg: "The 'made_up_event:bogus' event isn't currently supported by the GitHub webhook",
        code: "UNSUPPORTED_WEBHOOK_EVENT_TYPE",
        webhook_name: "GitHub",
        event_type: "made_up_event:bogus",
      },
    });
    const m = await newest([["pm-with", "notification-bot@zulip.com"]]);
    expect(m?.content).toBe(
      "Hi there! Your bot Zulip Webhook Bot just received a GitHub event of type `made_up_event:bogus`, " +
        "which the GitHub integration does not support, so nothing was posted. The request was answered " +
        "with HTTP 200 so that the service keeps the webhook enabled; if you do not need this event, " +
        "untick it in the webhook's settings in GitHub.",
    );
    expect(m!.id).toBeGreaterThan(before);
    const again = await send();
    expect(again.status).toBe(200);
    expect(await maxId()).toBe(m!.id);
  });
});

describe("POST /api/v1/external/<integration>: only_events and exclude_events", () => {
  const ghHeaders = { "content-type": "application/json", "x-github-event": "ping" };
  it("drops an event only_events does not match, with success", async () => {
    const before = await maxId();
    const res = await hook(
      "github",
      `api_key=${t.users.webhookBot.apiKey}&stream=test&only_events=["push*"]`,
      ping,
      ghHeaders,
    );
    expect(res).toMatchObject({ status: 200, body: { result: "success", msg: "" } });
    expect(await maxId()).toBe(before);
  });
  it("posts an event only_events matches by wildcard", async () => {
    const before = await maxId();
    await hook(
      "github",
      `api_key=${t.users.webhookBot.apiKey}&stream=test&only_events=["pi?g"]`,
      ping,
      ghHeaders,
    );
    expect(await maxId()).toBeGreaterThan(before);
    const m = await newest([["stream", "test"]]);
    expect(m?.content).toBe("GitHub webhook has been successfully configured by baxterthehacker.");
  });
  it("drops an event exclude_events matches", async () => {
    const before = await maxId();
    await hook(
      "github",
      `api_key=${t.users.webhookBot.apiKey}&stream=test&exclude_events=["*"]`,
      ping,
      ghHeaders,
    );
    expect(await maxId()).toBe(before);
  });
  it("answers 400 for a filter that is not a JSON list", async () => {
    const res = await hook(
      "github",
      `api_key=${t.users.webhookBot.apiKey}&stream=test&only_events=push`,
      ping,
      ghHeaders,
    );
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      result: "error",
      msg: 'Argument "only_events" is not valid JSON.',
      code: "BAD_REQUEST",
    });
  });
});

describe("signature verification", () => {
  let signed: { email: string; apiKey: string; id: number };
  const secret = "It's a Secret to Everybody";
  beforeAll(async () => {
    const res = await t.api.post("/api/v1/bots", {
      as: t.users.iago,
      params: {
        full_name: "Signed GitHub",
        short_name: "signedgh",
        bot_type: 2,
        config_data: { github_secret: secret },
      },
    });
    signed = { email: res.body.email, apiKey: res.body.api_key, id: res.body.user_id };
    await t.api.post("/api/v1/users/me/subscriptions", {
      as: t.users.iago,
      params: { subscriptions: [{ name: "test" }], principals: [signed.email] },
    });
  });
  const sign = (body: string): string =>
    "sha256=" + crypto.createHmac("sha256", secret).update(body).digest("hex");

  it("accepts a request signed over its raw bytes", async () => {
    const before = await maxId();
    const res = await hook("github", `api_key=${signed.apiKey}&stream=test`, ping, {
      "content-type": "application/json",
      "x-github-event": "ping",
      "x-hub-signature-256": sign(ping),
    });
    expect(res.status).toBe(200);
    expect(await maxId()).toBeGreaterThan(before);
  });

  it("answers 401 for a bad signature and posts nothing", async () => {
    const before = await maxId();
    const res = await hook("github", `api_key=${signed.apiKey}&stream=test`, ping, {
      "content-type": "application/json",
      "x-github-event": "ping",
      "x-hub-signature-256": sign(ping + " "),
    });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({
      result: "error",
      msg: "Webhook signature verification failed.",
      code: "INVALID_WEBHOOK_SIGNATURE",
    });
    expect(await maxId()).toBe(before);
  });

  it("answers 401 when the signature header is missing", async () => {
    const res = await hook("github", `api_key=${signed.apiKey}&stream=test`, ping, {
      "content-type": "application/json",
      "x-github-event": "ping",
    });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({
      result: "error",
      msg: "Missing the signature header 'X-Hub-Signature-256'",
      code: "INVALID_WEBHOOK_SIGNATURE",
    });
  });

  it("lets the owner set the secret later with PATCH /bots/{id}", async () => {
    const upd = await t.api.patch(`/api/v1/bots/${t.users.webhookBot.id}`, {
      as: t.users.iago,
      params: { config_data: { webhook_secret: "shared" } },
    });
    // The answer may also describe the bot (as Zulip's does); the secret is what this test needs.
    expect(upd.body).toMatchObject({ result: "success", msg: "" });
    const res = await hook("github", `api_key=${t.users.webhookBot.apiKey}&stream=test`, ping, {
      "content-type": "application/json",
      "x-github-event": "ping",
      "x-hub-signature-256": "sha256=" + "0".repeat(64),
    });
    expect(res.status).toBe(401);
    const notOwner = await t.api.patch(`/api/v1/bots/${t.users.webhookBot.id}`, {
      as: t.users.hamlet,
      params: { config_data: { webhook_secret: "mine" } },
    });
    expect(notOwner.body).toEqual({ result: "error", msg: "Insufficient permission", code: "BAD_REQUEST" });
    // Unset it again for the other tests.
    await t.api.patch(`/api/v1/bots/${t.users.webhookBot.id}`, {
      as: t.users.iago,
      params: { config_data: { webhook_secret: "" } },
    });
  });
});

describe("GET /api/v1/integrations", () => {
  it("lists each integration with its options and events", async () => {
    const res = await t.api.get("/api/v1/integrations");
    expect(res.status).toBe(200);
    const byName = new Map((res.body.integrations as { name: string }[]).map((i) => [i.name, i]));
    expect(byName.get("helloworld")).toEqual({
      name: "helloworld",
      display_name: "Hello World",
      categories: ["misc"],
      description: "Posts a greeting and a link to an article; the model for new integrations.",
      url: "/api/v1/external/helloworld",
      event_header: null,
      options: [],
      url_options: [],
      config_options: [],
      events: ["default"],
      ignored_events: [],
      signature: null,
    });
    expect(byName.get("github")).toMatchObject({
      event_header: "X-GitHub-Event",
      signature: { kind: "hmac", header: "X-Hub-Signature-256", algorithm: "sha256", prefix: "sha256=" },
    });
    expect(
      (byName.get("github") as unknown as { options: { key: string }[] }).options.map((o) => o.key),
    ).toEqual(expect.arrayContaining(["branches", "ignore_private_repositories"]));
  });
});
