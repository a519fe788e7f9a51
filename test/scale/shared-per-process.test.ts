/**
 * The state that was per process until issue 17's audit (docs/deploy.md, "What lives where") and is
 * shared through Redis now: presence, owner-notification intervals, per-bot webhook token buckets,
 * the sign-in throttles, the temporary-URL key of uploads, the linkifier and alert-word caches. Two servers in
 * this Jest process on one PostgreSQL schema, one Redis prefix and one uploads folder; each check
 * acts on one process and observes on the other. Skipped without PostgreSQL + Redis.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { Redis } from "ioredis";
import { ManualClock } from "../../src/clock.js";
import { defaultConfig } from "../../src/config.js";
import { silentLogger } from "../../src/lib/logger.js";
import { startServer } from "../../src/server.js";
import type { RunningServer } from "../../src/server.js";
import { apiClient, basicAuthHeader } from "../helpers/client.js";
import type { ApiClient } from "../helpers/client.js";
import { drainEvents, registerQueue } from "../helpers/events.js";
import { freshPostgresSchema, postgresAvailable } from "../helpers/postgres.js";
import { REDIS_URL, dropRedisPrefix, freshRedisPrefix, redisAvailable } from "../helpers/redis.js";
import { OWNER_PASSWORD, startTestServer } from "../helpers/test-server.js";
import type { TestServer } from "../helpers/test-server.js";
import { createStream } from "../http/message-helpers.js";

const servicesUp = (await postgresAvailable()) && (await redisAvailable());
if (!servicesUp) process.stdout.write("SKIPPED per-process state tests: PostgreSQL or Redis not running\n");

const ok = { result: "success", msg: "" };

(servicesUp ? describe : describe.skip)("state two processes share through Redis", () => {
  const prefix = freshRedisPrefix();
  const clock = new ManualClock();
  const uploadsDir = fs.mkdtempSync(path.join(os.tmpdir(), "shared-uploads-"));
  let a: TestServer;
  let b: RunningServer;
  let onB: ApiClient;
  let raw: Redis;
  let dropSchema: () => Promise<void>;

  beforeAll(async () => {
    const schema = await freshPostgresSchema();
    dropSchema = schema.drop;
    const shared = {
      databaseUrl: schema.url,
      redisUrl: REDIS_URL,
      redisPrefix: prefix,
      uploadsDir,
      webhookRateLimit: { count: 2, seconds: 60 },
    };
    a = await startTestServer({ clock, config: shared });
    b = await startServer(defaultConfig({ port: 0, dataDir: ":memory:", logLevel: "silent", ...shared }), {
      clock,
      logger: silentLogger,
    });
    onB = apiClient(b.url);
    raw = new Redis(REDIS_URL);
  });

  afterAll(async () => {
    await b.close();
    await a.close();
    await dropRedisPrefix(raw, prefix);
    raw.disconnect();
    await dropSchema();
    fs.rmSync(uploadsDir, { recursive: true, force: true });
  });

  it("presence: a ping answered by A is seen through B, and B does not announce the user again", async () => {
    const { hamlet, othello } = a.users;
    const onBServer = { ...a, url: b.url, api: onB, running: b };
    const q = await registerQueue(onBServer, othello, { event_types: ["presence"] });
    const now = Math.floor(clock.now() / 1000);
    const ping = await a.api.post("/api/v1/users/me/presence", {
      as: hamlet,
      params: { status: "active", ping_only: true },
    });
    expect(ping.body).toEqual(ok);
    const website = { client: "website", status: "active", timestamp: now, pushable: false };
    const realm = await onB.get("/api/v1/realm/presence", { as: othello });
    expect(realm.body).toEqual({
      ...ok,
      presences: {
        "hamlet@zulip.com": {
          website,
          aggregated: { client: "website", status: "active", timestamp: now },
        },
      },
      server_timestamp: now,
    });
    const one = await onB.get("/api/v1/users/hamlet@zulip.com/presence", { as: othello });
    expect(one.body).toEqual({
      ...ok,
      presence: {
        website: { status: "active", timestamp: now },
        aggregated: { status: "active", timestamp: now },
      },
    });
    // The next ping, through B: hamlet was online and active already, so no second event.
    clock.advance(60_000);
    const again = await onB.post("/api/v1/users/me/presence", {
      as: hamlet,
      params: { status: "active", ping_only: true },
    });
    expect(again.body).toEqual(ok);
    await a.running.services.eventQueues.idle();
    expect(await drainEvents(q)).toEqual([
      {
        type: "presence",
        user_id: hamlet.id,
        email: "hamlet@zulip.com",
        server_timestamp: now,
        presence: { website },
        id: 0,
      },
    ]);
  });

  it("webhook token buckets and the owner notice: one bucket and one notice for both processes", async () => {
    await createStream(a, "test", [a.users.iago, a.users.webhookBot]);
    const hook = (url: string): Promise<Response> =>
      fetch(`${url}/api/v1/external/helloworld?api_key=${a.users.webhookBot.apiKey}&stream=test`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: '{"featured_title":"T","featured_url":"https://example.com/"}',
      });
    const statuses = [];
    for (const url of [a.url, b.url, a.url, b.url]) statuses.push((await hook(url)).status);
    // 2 per 60 s: the third request is refused although it is A's second.
    expect(statuses).toEqual([200, 200, 429, 429]);
    const over = await hook(b.url);
    expect([over.status, over.headers.get("retry-after"), over.headers.get("x-ratelimit-limit")]).toEqual([
      429,
      "30",
      "2",
    ]);
    const pms = await a.api.get("/api/v1/messages", {
      as: a.users.iago,
      params: {
        anchor: "newest",
        num_before: 20,
        num_after: 0,
        narrow: [{ operator: "is", operand: "private" }],
      },
    });
    expect([pms.status, pms.body]).toEqual([200, expect.anything()]);
    const notices = (pms.body.messages as { content: string }[]).filter((m) =>
      m.content.includes("rate limit"),
    );
    expect(notices.length).toBe(1);
  });

  it("fetch_api_key: five failures spread over both processes lock the username on both", async () => {
    const tryKey = (api: ApiClient, password: string) =>
      api.post("/api/v1/fetch_api_key", { params: { username: "cordelia@zulip.com", password } });
    const statuses = [];
    for (const api of [a.api, onB, a.api, onB, a.api]) statuses.push((await tryKey(api, "wrong")).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
    const limited = await tryKey(onB, "cordelia@zulip.com-password");
    expect([limited.status, limited.body.code]).toEqual([429, "RATE_LIMIT_HIT"]);
    expect((await tryKey(a.api, "cordelia@zulip.com-password")).status).toBe(429);
  });

  it("web sign-in: twenty failures from one address over both processes refuse the next on either", async () => {
    const login = (url: string, username: string, password: string) =>
      fetch(`${url}/login`, {
        method: "POST",
        headers: {
          cookie: "csrftoken=abc",
          "x-csrftoken": "abc",
          "content-type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams({ username, password }).toString(),
      });
    const statuses = [];
    for (let i = 0; i < 20; i++) {
      statuses.push((await login(i % 2 === 0 ? a.url : b.url, `nobody${i}@zulip.com`, "x")).status);
    }
    expect(statuses).toEqual(Array(20).fill(401));
    const limited = await login(a.url, "iago@zulip.com", OWNER_PASSWORD);
    expect([limited.status, await limited.json()]).toEqual([
      429,
      { result: "error", msg: "API usage exceeded rate limit", code: "RATE_LIMIT_HIT", "retry-after": 600 },
    ]);
  });

  it("uploads: a temporary URL issued by A is honoured by B", async () => {
    const { hamlet } = a.users;
    const form = new FormData();
    form.append("memo", new Blob([new Uint8Array(Buffer.from("memo"))]), "memo.txt");
    const res = await fetch(`${a.url}/api/v1/user_uploads`, {
      method: "POST",
      headers: { authorization: basicAuthHeader(hamlet) },
      body: form,
    });
    const uploaded = (await res.json()) as { url: string };
    const pathId = uploaded.url.slice("/user_uploads/".length);
    const temporary = await a.api.get(`/api/v1/user_uploads/${pathId}`, { as: hamlet });
    expect(temporary.status).toBe(200);
    const file = await fetch(`${b.url}${temporary.body.url as string}`);
    expect([file.status, await file.text()]).toEqual([200, "memo"]);
  });

  it("linkifiers: one added through A applies at once to what B renders", async () => {
    const render = async () =>
      (await onB.post("/api/v1/messages/render", { as: a.users.hamlet, params: { content: "#123" } })).body
        .rendered as string;
    // B renders once without it (and caches the empty list).
    expect(await render()).toBe("<p>#123</p>");
    const added = await a.api.post("/api/v1/realm/filters", {
      as: a.users.iago,
      params: { pattern: "#(?P<id>[0-9]+)", url_template: "https://example.com/issues/{id}" },
    });
    expect(added.status).toBe(200);
    // The invalidation travels by pub/sub: B hears it within moments (bounded wait, not a timing check).
    let rendered = await render();
    for (let i = 0; i < 100 && !rendered.includes("<a"); i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      rendered = await render();
    }
    expect(rendered).toBe(
      '<p><a href="https://example.com/issues/123" title="https://example.com/issues/123">#123</a></p>',
    );
  });

  it("alert words: one added through A flags what B sends from then on", async () => {
    const { hamlet, othello } = a.users;
    await createStream(a, "fruit", [hamlet, othello]);
    const sendOnB = async (content: string): Promise<number> => {
      const res = await onB.post("/api/v1/messages", {
        as: othello,
        params: { type: "stream", to: "fruit", topic: "t", content },
      });
      expect(res.status).toBe(200);
      return res.body.id as number;
    };
    const flagsOf = async (id: number): Promise<string[]> => {
      const res = await a.api.get("/api/v1/messages", {
        as: hamlet,
        params: { anchor: id, num_before: 0, num_after: 0 },
      });
      return res.body.messages[0].flags as string[];
    };
    // B reads (and keeps) the realm's alert words: none yet.
    expect(await flagsOf(await sendOnB("a banana"))).not.toContain("has_alert_word");
    const added = await a.api.post("/api/v1/users/me/alert_words", {
      as: hamlet,
      params: { alert_words: JSON.stringify(["banana"]) },
    });
    expect(added.body).toEqual({ ...ok, alert_words: ["banana"] });
    // The invalidation travels by pub/sub: B hears it within moments (bounded wait, not a timing check).
    let flags = await flagsOf(await sendOnB("another banana"));
    for (let i = 0; i < 100 && !flags.includes("has_alert_word"); i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      flags = await flagsOf(await sendOnB("one more banana"));
    }
    expect(flags).toContain("has_alert_word");
  });
});
