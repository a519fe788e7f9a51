import { afterEach, describe, expect, it } from "@jest/globals";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { ManualClock } from "../../src/clock.js";
import { defaultConfig } from "../../src/config.js";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer } from "../helpers/test-server.js";
import { createStream } from "./message-helpers.js";

/**
 * Rotation with an overlap of a bot's API key and outgoing token (docs/integration-operations.md,
 * "Rotating a bot's API key or outgoing token with an overlap"), and the delivery log's mark on
 * every request that used an old credential.
 */

/** The ManualClock's start, 2026-01-01T00:00:00Z, in Unix seconds. */
const T0 = 1767225600;
const HOUR = 3600;
const KEY = expect.stringMatching(/^[A-Za-z0-9]{32}$/);

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function start(): Promise<{ t: TestServer; clock: ManualClock }> {
  const clock = new ManualClock();
  const t = await startTestServer({
    clock,
    config: { outgoingWebhooks: { ...defaultConfig().outgoingWebhooks, pollIntervalMs: 0 } },
  });
  cleanups.push(() => t.close());
  await createStream(t, "test", [t.users.iago]);
  return { t, clock };
}

/** iago's incoming-webhook bot (or generic bot: type 1, which may call the API too). */
async function incomingBot(
  t: TestServer,
  botType = 2,
): Promise<{ id: number; email: string; apiKey: string }> {
  const res = await t.api.post("/api/v1/bots", {
    as: t.users.iago,
    params: { full_name: "Hook Bot", short_name: "hook", bot_type: botType },
  });
  expect(res.status).toBe(200);
  return {
    id: res.body.user_id as number,
    email: res.body.email as string,
    apiKey: res.body.api_key as string,
  };
}

const FIXTURE = JSON.stringify({
  featured_title: "Goodbye",
  featured_url: "https://en.wikipedia.org/wiki/Goodbye",
});

/** A helloworld webhook authenticated by `headers`/`query`. */
async function hook(
  t: TestServer,
  query: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${t.url}/api/v1/external/helloworld?stream=test&topic=Hello${query}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: FIXTURE,
  });
  return { status: res.status, body: (await res.json()) as unknown };
}

/** An API call (GET /users/me/subscriptions) with HTTP Basic `email:key`. */
async function me(t: TestServer, email: string, key: string): Promise<{ status: number; body: unknown }> {
  const res = await t.api.get("/api/v1/users/me/subscriptions", { as: { email, apiKey: key } });
  return { status: res.status, body: res.body };
}
const API_OK = { status: 200, body: { result: "success", msg: "", subscriptions: [] } };

const OK = { status: 200, body: { result: "success", msg: "" } };
const INVALID_KEY = {
  status: 401,
  body: { result: "error", msg: "Invalid API key", code: "INVALID_API_KEY" },
};
const BASIC_INVALID = {
  status: 401,
  body: { result: "error", msg: "Invalid API key", code: "UNAUTHORIZED" },
};

describe("POST /api/v1/bots/{bot_id}/api_key/rotate", () => {
  it("keeps the old key valid (API and incoming webhooks) until overlap_until, then only the new one", async () => {
    const { t, clock } = await start();
    const bot = await incomingBot(t, 1);
    const rotated = await t.api.post(`/api/v1/bots/${bot.id}/api_key/rotate`, {
      as: t.users.iago,
      params: { overlap_until: String(T0 + 2 * HOUR) },
    });
    expect({ status: rotated.status, body: rotated.body }).toEqual({
      status: 200,
      body: {
        result: "success",
        msg: "",
        api_key: KEY,
        old_api_keys: [{ rotated_at: T0, retires_at: T0 + 2 * HOUR }],
        token: null,
        old_tokens: [],
      },
    });
    const fresh = rotated.body.api_key as string;
    expect(fresh).not.toBe(bot.apiKey);

    // Both keys authenticate during the overlap: the API (HTTP Basic) and incoming webhooks.
    expect(await me(t, bot.email, bot.apiKey)).toEqual(API_OK);
    expect(await me(t, bot.email, fresh)).toEqual(API_OK);
    expect(await hook(t, `&api_key=${bot.apiKey}`)).toEqual(OK);
    expect(await hook(t, "", { authorization: `Bearer ${bot.apiKey}` })).toEqual(OK);
    const basic = Buffer.from(`${bot.email}:${bot.apiKey}`).toString("base64");
    expect(await hook(t, "", { authorization: `Basic ${basic}` })).toEqual(OK);
    expect(await hook(t, `&api_key=${fresh}`)).toEqual(OK);

    // Past overlap_until, the old key is refused everywhere; the new one works.
    clock.advance(2 * HOUR * 1000);
    expect(await me(t, bot.email, bot.apiKey)).toEqual(BASIC_INVALID);
    expect(await hook(t, `&api_key=${bot.apiKey}`)).toEqual(INVALID_KEY);
    expect(await me(t, bot.email, fresh)).toEqual(API_OK);
    const list = await t.api.get(`/api/v1/bots/${bot.id}/credentials`, { as: t.users.iago });
    expect(list.body).toEqual({
      result: "success",
      msg: "",
      api_key: fresh,
      old_api_keys: [],
      token: null,
      old_tokens: [],
    });
  });

  it("without overlap_until keeps the old key until retire_old, which ends the overlap at once", async () => {
    const { t, clock } = await start();
    const bot = await incomingBot(t, 1);
    const rotated = await t.api.post(`/api/v1/bots/${bot.id}/api_key/rotate`, { as: t.users.iago });
    expect(rotated.body).toEqual({
      result: "success",
      msg: "",
      api_key: KEY,
      old_api_keys: [{ rotated_at: T0, retires_at: null }],
      token: null,
      old_tokens: [],
    });
    clock.advance(400 * 24 * HOUR * 1000);
    expect(await hook(t, `&api_key=${bot.apiKey}`)).toEqual(OK);

    const retired = await t.api.post(`/api/v1/bots/${bot.id}/api_key/retire_old`, { as: t.users.iago });
    expect(retired.body).toEqual({
      result: "success",
      msg: "",
      api_key: rotated.body.api_key,
      old_api_keys: [],
      token: null,
      old_tokens: [],
    });
    expect(await hook(t, `&api_key=${bot.apiKey}`)).toEqual(INVALID_KEY);
    expect(await me(t, bot.email, bot.apiKey)).toEqual(BASIC_INVALID);
  });

  it("keeps Zulip's regenerate immediate: the old key, and any key in an overlap, stop at once", async () => {
    const { t } = await start();
    const bot = await incomingBot(t);
    const rotated = await t.api.post(`/api/v1/bots/${bot.id}/api_key/rotate`, { as: t.users.iago });
    const second = rotated.body.api_key as string;
    const regenerated = await t.api.post(`/api/v1/bots/${bot.id}/api_key/regenerate`, { as: t.users.iago });
    expect(regenerated.body).toEqual({ result: "success", msg: "", api_key: KEY });
    for (const old of [bot.apiKey, second]) expect(await hook(t, `&api_key=${old}`)).toEqual(INVALID_KEY);
    expect(await hook(t, `&api_key=${regenerated.body.api_key as string}`)).toEqual(OK);
    const list = await t.api.get(`/api/v1/bots/${bot.id}/credentials`, { as: t.users.iago });
    expect(list.body.old_api_keys).toEqual([]);
  });

  it("does not let a deactivated bot's old key in", async () => {
    const { t } = await start();
    const bot = await incomingBot(t);
    await t.api.post(`/api/v1/bots/${bot.id}/api_key/rotate`, { as: t.users.iago });
    expect((await t.api.delete(`/api/v1/bots/${bot.id}`, { as: t.users.iago })).status).toBe(200);
    expect(await hook(t, `&api_key=${bot.apiKey}`)).toEqual({
      status: 401,
      body: { result: "error", msg: "Account is deactivated", code: "USER_DEACTIVATED" },
    });
  });

  it("answers errors: unknown bot, not your bot, a bad or past or too distant time, a bot without a token", async () => {
    const { t } = await start();
    const bot = await incomingBot(t);
    const cases: [string, string, Record<string, string>, typeof t.users.iago][] = [
      ["/api/v1/bots/99999/api_key/rotate", "No such bot", {}, t.users.iago],
      ["/api/v1/bots/abc/api_key/rotate", "No such bot", {}, t.users.iago],
      [`/api/v1/bots/${t.users.hamlet.id}/api_key/rotate`, "No such bot", {}, t.users.iago],
      [`/api/v1/bots/${bot.id}/api_key/rotate`, "Insufficient permission", {}, t.users.hamlet],
      [`/api/v1/bots/${bot.id}/api_key/retire_old`, "Insufficient permission", {}, t.users.hamlet],
      [`/api/v1/bots/${bot.id}/token/rotate`, "Insufficient permission", {}, t.users.hamlet],
      [`/api/v1/bots/${bot.id}/token/retire_old`, "Insufficient permission", {}, t.users.hamlet],
      [
        `/api/v1/bots/${bot.id}/api_key/rotate`,
        "overlap_until must be a time in the future, at most 365 days from now",
        { overlap_until: String(T0) },
        t.users.iago,
      ],
      [
        `/api/v1/bots/${bot.id}/api_key/rotate`,
        "overlap_until must be a time in the future, at most 365 days from now",
        { overlap_until: String(T0 + 366 * 24 * HOUR) },
        t.users.iago,
      ],
      [
        `/api/v1/bots/${bot.id}/token/rotate`,
        "This bot has no outgoing webhook token",
        { overlap_until: String(T0 + HOUR) },
        t.users.iago,
      ],
    ];
    for (const [path, msg, params, as] of cases) {
      const res = await t.api.post(path, { as, params });
      expect({ path, status: res.status, body: res.body }).toEqual({
        path,
        status: 400,
        body: { result: "error", msg, code: "BAD_REQUEST" },
      });
    }
    const badTime = await t.api.post(`/api/v1/bots/${bot.id}/api_key/rotate`, {
      as: t.users.iago,
      params: { overlap_until: "tomorrow" },
    });
    expect({ status: badTime.status, body: badTime.body }).toEqual({
      status: 400,
      body: {
        result: "error",
        msg: 'Argument "overlap_until" is not valid JSON.',
        code: "BAD_REQUEST",
      },
    });
    const list = await t.api.get(`/api/v1/bots/${bot.id}/credentials`, { as: t.users.hamlet });
    expect({ status: list.status, body: list.body }).toEqual({
      status: 400,
      body: { result: "error", msg: "Insufficient permission", code: "BAD_REQUEST" },
    });
    // Nothing was rotated by the refused requests.
    expect(await hook(t, `&api_key=${bot.apiKey}`)).toEqual(OK);
    const own = await t.api.get(`/api/v1/bots/${bot.id}/credentials`, { as: t.users.iago });
    expect(own.body.old_api_keys).toEqual([]);
  });
});

describe("the delivery log marks requests made with an old credential", () => {
  it("marks an incoming webhook authenticated by the old key (old_credential: api_key), not one with the new key", async () => {
    const { t } = await start();
    const bot = await incomingBot(t);
    const rotated = await t.api.post(`/api/v1/bots/${bot.id}/api_key/rotate`, { as: t.users.iago });
    const fresh = rotated.body.api_key as string;
    expect(await hook(t, "", { authorization: `Bearer ${bot.apiKey}` })).toEqual(OK);
    expect(await hook(t, `&api_key=${fresh}`)).toEqual(OK);
    const log = await t.api.get(`/api/v1/bots/${bot.id}/deliveries`, { as: t.users.iago });
    expect(log.status).toBe(200);
    const entries = log.body.deliveries as Record<string, unknown>[];
    expect(
      entries.map((e) => ({
        url: (e["request"] as { url: string }).url,
        authorization: (e["request"] as { headers: Record<string, string> }).headers["authorization"],
        outcome: e["outcome"],
        old_credential: e["old_credential"],
      })),
    ).toEqual([
      {
        url: "/api/v1/external/helloworld?stream=test&topic=Hello",
        authorization: undefined,
        outcome: "sent",
        old_credential: null,
      },
      {
        url: "/api/v1/external/helloworld?stream=test&topic=Hello",
        authorization: "[redacted]",
        outcome: "sent",
        old_credential: "api_key",
      },
    ]);
    // The old key is redacted like the current one (nowhere in the stored entry).
    expect(JSON.stringify(entries)).not.toContain(bot.apiKey);
  });
});

interface Received {
  body: string;
}

async function receiver(): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"response_not_required": true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  cleanups.push(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, received };
}

describe("POST /api/v1/bots/{bot_id}/token/rotate", () => {
  it("keeps sending the old token until the overlap ends or is retired, each such delivery marked in the log", async () => {
    const { t, clock } = await start();
    const ep = await receiver();
    const created = await t.api.post("/api/v1/bots", {
      as: t.users.iago,
      params: {
        full_name: "Outgoing Bot",
        short_name: "outgoing",
        bot_type: 3,
        payload_url: JSON.stringify(ep.url),
        interface_type: 1,
      },
    });
    expect(created.status).toBe(200);
    const botId = created.body.user_id as number;
    const oldToken = created.body.services[0].token as string;
    const send = async (content: string): Promise<void> => {
      const res = await t.api.post("/api/v1/messages", {
        as: t.users.iago,
        params: { type: "stream", to: "test", topic: "castle", content: `@**Outgoing Bot** ${content}` },
      });
      expect(res.status).toBe(200);
      await t.running.services.outgoing.idle();
    };
    const tokensSent = (): string[] =>
      ep.received.map((r) => (JSON.parse(r.body) as { token: string }).token);

    const rotated = await t.api.post(`/api/v1/bots/${botId}/token/rotate`, {
      as: t.users.iago,
      params: { overlap_until: String(T0 + HOUR) },
    });
    expect({ status: rotated.status, body: rotated.body }).toEqual({
      status: 200,
      body: {
        result: "success",
        msg: "",
        api_key: KEY,
        old_api_keys: [],
        token: KEY,
        old_tokens: [{ token: oldToken, rotated_at: T0, retires_at: T0 + HOUR }],
      },
    });
    const newToken = rotated.body.token as string;
    expect(newToken).not.toBe(oldToken);
    // GET /bots shows the new token as the service's.
    const bots = await t.api.get("/api/v1/bots", { as: t.users.iago });
    const listed = (bots.body.bots as { user_id: number; services: { token: string }[] }[]).find(
      (b) => b.user_id === botId,
    );
    expect(listed?.services.map((s) => s.token)).toEqual([newToken]);

    await send("during the overlap");
    clock.advance(HOUR * 1000);
    await send("after it");
    expect(tokensSent()).toEqual([oldToken, newToken]);

    // A rotation until retired: the old token is sent until retire_old.
    const again = await t.api.post(`/api/v1/bots/${botId}/token/rotate`, { as: t.users.iago });
    expect(again.body.old_tokens).toEqual([{ token: newToken, rotated_at: T0 + HOUR, retires_at: null }]);
    const newest = again.body.token as string;
    await send("until retired");
    const retired = await t.api.post(`/api/v1/bots/${botId}/token/retire_old`, { as: t.users.iago });
    expect(retired.body).toEqual({
      result: "success",
      msg: "",
      api_key: KEY,
      old_api_keys: [],
      token: newest,
      old_tokens: [],
    });
    await send("retired");
    expect(tokensSent()).toEqual([oldToken, newToken, newToken, newest]);

    const log = await t.api.get(`/api/v1/bots/${botId}/deliveries`, { as: t.users.iago });
    expect(
      (log.body.deliveries as { outcome: string; old_credential: string | null }[]).map((e) => [
        e.outcome,
        e.old_credential,
      ]),
    ).toEqual([
      ["delivered", null],
      ["delivered", "token"],
      ["delivered", null],
      ["delivered", "token"],
    ]);
  });
});
