/**
 * The bot lifecycle with Zulip's endpoints: PATCH /bots/{bot_id}, DELETE /bots/{bot_id},
 * POST /users/{user_id}/reactivate, POST /bots/{bot_id}/api_key/regenerate,
 * POST /users/me/api_key/regenerate — success, permission errors and realm_bot events.
 */
import { afterEach, describe, expect, it } from "@jest/globals";
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { ManualClock } from "../../src/clock.js";
import { defaultConfig } from "../../src/config.js";
import type { Credentials } from "../helpers/client.js";
import { drainEvents, registerQueue } from "../helpers/events.js";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer } from "../helpers/test-server.js";
import { createStream, send } from "./message-helpers.js";

const gravatar = (email: string): string =>
  `https://secure.gravatar.com/avatar/${crypto.createHash("md5").update(email).digest("hex")}?d=identicon&version=1`;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function server(): Promise<TestServer & { clock: ManualClock }> {
  const clock = new ManualClock();
  const s = await startTestServer({
    clock,
    config: { outgoingWebhooks: { ...defaultConfig().outgoingWebhooks, pollIntervalMs: 0 } },
  });
  cleanups.push(() => s.close());
  return Object.assign(s, { clock });
}

interface Bot extends Credentials {
  id: number;
  token: string | undefined;
}

async function createBot(
  s: TestServer,
  as: Credentials,
  params: Record<string, string | number>,
): Promise<Bot> {
  const res = await s.api.post("/api/v1/bots", { as, params });
  expect(res.status).toBe(200);
  return {
    id: res.body.user_id as number,
    email: res.body.email as string,
    apiKey: res.body.api_key as string,
    token: (res.body.services as { token?: string }[])[0]?.token,
  };
}

const hookParams = {
  full_name: "Hook Bot",
  short_name: "hook",
  bot_type: 3,
  payload_url: '"http://127.0.0.1:1/"',
};
const err = (msg: string, code = "BAD_REQUEST", extra: Record<string, unknown> = {}) => ({
  result: "error",
  msg,
  code,
  ...extra,
});

describe("PATCH /api/v1/bots/{bot_id}", () => {
  it("renames, repoints, reconfigures and hands over a bot, with realm_bot and realm_user events", async () => {
    const s = await server();
    const { iago, hamlet, othello, cordelia } = s.users;
    const bot = await createBot(s, hamlet, hookParams);
    await createStream(s, "Denmark", [hamlet]);
    const queues = await Promise.all(
      [iago, hamlet, othello, cordelia].map((u) =>
        registerQueue(s, u, { event_types: ["realm_bot", "realm_user"] }),
      ),
    );
    // Only an administrator may hand the bot to someone else (issue 23, finding 6).
    const res = await s.api.patch(`/api/v1/bots/${bot.id}`, {
      as: iago,
      params: {
        full_name: "Hook Bot Two",
        service_payload_url: '"http://127.0.0.1:2/hook"',
        service_interface: 2,
        config_data: { github_secret: "s3cret" },
        default_sending_stream: "Denmark",
        default_events_register_stream: "Denmark",
        default_all_public_streams: true,
        bot_owner_id: othello.id,
      },
      skipSchemaCheck: true,
    });
    expect({ status: res.status, body: res.body }).toEqual({
      status: 200,
      body: {
        result: "success",
        msg: "",
        full_name: "Hook Bot Two",
        avatar_url: gravatar("hook-bot@zulip.com"),
        service_interface: 2,
        service_payload_url: "http://127.0.0.1:2/hook",
        config_data: { github_secret: "s3cret" },
        default_sending_stream: "Denmark",
        default_events_register_stream: "Denmark",
        default_all_public_streams: true,
        bot_owner: "othello@zulip.com",
      },
    });
    const botEvents = [
      { user_id: bot.id, full_name: "Hook Bot Two" },
      { user_id: bot.id, owner_id: othello.id },
      {
        user_id: bot.id,
        services: [{ base_url: "http://127.0.0.1:2/hook", interface: 2, token: bot.token }],
      },
      { user_id: bot.id, default_sending_stream: "Denmark" },
      { user_id: bot.id, default_events_register_stream: "Denmark" },
      { user_id: bot.id, default_all_public_streams: true },
    ].map((b) => ({ type: "realm_bot", op: "update", bot: b }));
    const userEvents = [
      { type: "realm_user", op: "update", person: { user_id: bot.id, full_name: "Hook Bot Two" } },
      { type: "realm_user", op: "update", person: { user_id: bot.id, bot_owner_id: othello.id } },
    ];
    const withIds = (events: object[]) => events.map((e, id) => ({ ...e, id }));
    const listed = await s.api.get("/api/v1/bots", { as: othello, skipSchemaCheck: true });
    // The transferred bot has a new key: the old one (which the previous owner knows) stops working.
    const newKey = (listed.body.bots as { api_key: string }[])[0]!.api_key;
    expect(newKey).toMatch(/^\w{32}$/);
    expect(newKey).not.toBe(bot.apiKey);
    const asOld = await s.api.get("/api/v1/users/me", {
      as: { email: bot.email, apiKey: bot.apiKey },
      skipSchemaCheck: true,
    });
    expect(asOld.status).toBe(401);
    const asNew = await s.api.get("/api/v1/users/me", {
      as: { email: bot.email, apiKey: newKey },
      skipSchemaCheck: true,
    });
    expect(asNew.status).toBe(200);
    const keyEvent = { type: "realm_bot", op: "update", bot: { user_id: bot.id, api_key: newKey } };
    // The administrator, the old and the new owner administer the bot; everyone sees its new name
    // and owner; the new key reaches the administrator and the new owner, never the previous owner.
    for (const q of [queues[0]!, queues[2]!])
      expect(await drainEvents(q, { skipSchemaCheck: true })).toEqual(
        withIds([...botEvents, keyEvent, ...userEvents]),
      );
    expect(await drainEvents(queues[1]!, { skipSchemaCheck: true })).toEqual(
      withIds([...botEvents, ...userEvents]),
    );
    expect(await drainEvents(queues[3]!, { skipSchemaCheck: true })).toEqual(withIds(userEvents));

    expect(listed.body).toEqual({
      result: "success",
      msg: "",
      bots: [
        {
          user_id: bot.id,
          username: "hook-bot@zulip.com",
          email: "hook-bot@zulip.com",
          full_name: "Hook Bot Two",
          bot_type: 3,
          is_active: true,
          api_key: newKey,
          avatar_url: gravatar("hook-bot@zulip.com"),
          default_sending_stream: "Denmark",
          default_events_register_stream: "Denmark",
          default_all_public_streams: true,
          owner_id: othello.id,
          services: [{ base_url: "http://127.0.0.1:2/hook", interface: 2, token: bot.token }],
        },
      ],
    });
  });

  it("lets an administrator edit any bot and refuses everyone else, unknown bots and bad values", async () => {
    const s = await server();
    const { iago, hamlet, cordelia, webhookBot } = s.users;
    const bot = await createBot(s, hamlet, hookParams);
    const patch = (as: Credentials, id: number, params: Record<string, string | number | boolean>) =>
      s.api
        .patch(`/api/v1/bots/${id}`, { as, params, skipSchemaCheck: true })
        .then((r) => ({ status: r.status, body: r.body }));
    expect(await patch(cordelia, bot.id, { full_name: "Mine" })).toEqual({
      status: 400,
      body: err("Insufficient permission"),
    });
    expect(await patch(hamlet, 9999, { full_name: "X" })).toEqual({ status: 400, body: err("No such bot") });
    expect(await patch(hamlet, cordelia.id, { full_name: "X" })).toEqual({
      status: 400,
      body: err("No such bot"),
    });
    expect(await patch(hamlet, bot.id, { full_name: "King Hamlet" })).toEqual({
      status: 400,
      body: err("Name is already in use!"),
    });
    expect(await patch(hamlet, bot.id, { bot_owner_id: 9999 })).toEqual({
      status: 400,
      body: err("Failed to change owner, no such user"),
    });
    expect(await patch(hamlet, bot.id, { bot_owner_id: webhookBot.id })).toEqual({
      status: 400,
      body: err("Failed to change owner, bots can't own other bots"),
    });
    // Issue 23, finding 6: a member cannot hand a bot to someone else without their consent.
    expect(await patch(hamlet, bot.id, { bot_owner_id: cordelia.id })).toEqual({
      status: 400,
      body: err("Only organization administrators can transfer a bot to another user"),
    });
    expect(await patch(hamlet, bot.id, { default_sending_stream: "nope" })).toEqual({
      status: 400,
      body: err("Invalid stream name 'nope'"),
    });
    expect(await patch(hamlet, bot.id, { service_payload_url: '"not a url"' })).toEqual({
      status: 400,
      body: err("service_payload_url is not a URL"),
    });
    expect(await patch(hamlet, bot.id, { service_interface: 3 })).toEqual({
      status: 400,
      body: err("Invalid interface type"),
    });
    expect(await patch(iago, bot.id, { full_name: "Renamed By Admin" })).toEqual({
      status: 200,
      body: {
        result: "success",
        msg: "",
        full_name: "Renamed By Admin",
        avatar_url: gravatar("hook-bot@zulip.com"),
        service_interface: null,
        service_payload_url: null,
        config_data: null,
        default_sending_stream: null,
        default_events_register_stream: null,
        default_all_public_streams: false,
        bot_owner: "hamlet@zulip.com",
      },
    });
  });
});

describe("DELETE /api/v1/bots/{bot_id} and POST /api/v1/users/{user_id}/reactivate", () => {
  it("stops a deactivated bot's key at once (API and incoming webhooks) and brings it back on reactivation", async () => {
    const s = await server();
    const { iago, hamlet, cordelia } = s.users;
    const bot = await createBot(s, hamlet, { full_name: "Hook In", short_name: "hookin", bot_type: 1 });
    await createStream(s, "Denmark", [hamlet]);
    const queues = await Promise.all(
      [iago, hamlet, cordelia].map((u) => registerQueue(s, u, { event_types: ["realm_bot", "realm_user"] })),
    );
    const me = () => s.api.get("/api/v1/users/me", { as: bot, skipSchemaCheck: true }).then((r) => r.status);
    const webhook = () =>
      s.api
        .post(`/api/v1/external/helloworld?api_key=${bot.apiKey}&stream=Denmark`, {
          body: JSON.stringify({ featured_title: "T", featured_url: "https://example.com" }),
          headers: { "content-type": "application/json" },
          skipSchemaCheck: true,
        })
        .then((r) => ({ status: r.status, body: r.body }));
    expect(await me()).toBe(200); // now in the auth cache
    expect((await webhook()).status).toBe(200);

    expect(
      (await s.api.delete(`/api/v1/bots/${bot.id}`, { as: cordelia, skipSchemaCheck: true })).body,
    ).toEqual(err("Insufficient permission"));
    const deleted = await s.api.delete(`/api/v1/bots/${bot.id}`, { as: hamlet });
    expect({ status: deleted.status, body: deleted.body }).toEqual({
      status: 200,
      body: { result: "success", msg: "" },
    });
    const refused = await s.api.get("/api/v1/users/me", { as: bot, skipSchemaCheck: true });
    expect({ status: refused.status, body: refused.body }).toEqual({
      status: 401,
      body: err("Account is deactivated", "UNAUTHORIZED"),
    });
    expect(await webhook()).toEqual({ status: 401, body: err("Account is deactivated", "USER_DEACTIVATED") });
    const removed = [
      { type: "realm_bot", op: "remove", bot: { user_id: bot.id, full_name: "Hook In" }, id: 0 },
      { type: "realm_user", op: "remove", person: { user_id: bot.id, full_name: "Hook In" }, id: 1 },
    ];
    expect(await drainEvents(queues[0]!, { skipSchemaCheck: true })).toEqual(removed);
    expect(await drainEvents(queues[1]!, { skipSchemaCheck: true })).toEqual(removed);
    expect(await drainEvents(queues[2]!, { skipSchemaCheck: true })).toEqual([{ ...removed[1], id: 0 }]);

    const notAdmin = await s.api.post(`/api/v1/users/${bot.id}/reactivate`, {
      as: hamlet,
      skipSchemaCheck: true,
    });
    expect({ status: notAdmin.status, body: notAdmin.body }).toEqual({
      status: 400,
      body: err("Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL"),
    });
    const unknown = await s.api.post("/api/v1/users/9999/reactivate", { as: iago, skipSchemaCheck: true });
    expect(unknown.body).toEqual(err("No such user"));
    const back = await s.api.post(`/api/v1/users/${bot.id}/reactivate`, { as: iago });
    expect({ status: back.status, body: back.body }).toEqual({
      status: 200,
      body: { result: "success", msg: "" },
    });
    expect(await me()).toBe(200);
    const person = {
      user_id: bot.id,
      email: "hookin-bot@zulip.com",
      full_name: "Hook In",
      is_admin: false,
      is_owner: false,
      is_guest: false,
      is_bot: true,
      bot_type: 1,
      bot_owner_id: hamlet.id,
      role: 400,
      timezone: "",
      avatar_url: gravatar("hookin-bot@zulip.com"),
      avatar_version: 1,
      date_joined: "2026-01-01T00:00:00.000+00:00",
      is_active: true,
    };
    const added = [
      { type: "realm_user", op: "add", person, id: 2 },
      {
        type: "realm_bot",
        op: "add",
        bot: {
          email: "hookin-bot@zulip.com",
          user_id: bot.id,
          full_name: "Hook In",
          bot_type: 1,
          is_active: true,
          api_key: bot.apiKey,
          default_sending_stream: null,
          default_events_register_stream: null,
          default_all_public_streams: false,
          avatar_url: gravatar("hookin-bot@zulip.com"),
          owner_id: hamlet.id,
          services: [],
        },
        id: 3,
      },
    ];
    expect(await drainEvents(queues[1]!, { skipSchemaCheck: true })).toEqual(added);
    expect(await drainEvents(queues[2]!, { skipSchemaCheck: true })).toEqual([{ ...added[0], id: 1 }]);
  });

  it("drops a deactivated bot's pending outgoing-webhook deliveries", async () => {
    const s = await server();
    const { hamlet } = s.users;
    const received: string[] = [];
    const endpoint = http.createServer((req, res) => {
      received.push(req.url ?? "");
      res.end('{"response_not_required": true}');
    });
    await new Promise<void>((resolve) => endpoint.listen(0, "127.0.0.1", () => resolve()));
    cleanups.push(() => new Promise<void>((resolve) => endpoint.close(() => resolve())));
    const live = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/`;
    const bot = await createBot(s, hamlet, hookParams); // points at a closed port: the first attempt fails
    const streamId = await createStream(s, "Denmark", [hamlet]);
    await send(s, hamlet, { type: "stream", to: streamId, topic: "t", content: "@**Hook Bot** hi" });
    const { outgoing } = s.running.services;
    await outgoing.idle?.();
    expect((await outgoing.jobs()).map((j) => [j.attempts, j.status])).toEqual([[1, "pending"]]);
    // Repoint it at a live endpoint, then deactivate it before the retry.
    await s.api.patch(`/api/v1/bots/${bot.id}`, {
      as: hamlet,
      params: { service_payload_url: JSON.stringify(live) },
      skipSchemaCheck: true,
    });
    await s.api.delete(`/api/v1/bots/${bot.id}`, { as: hamlet });
    s.clock.advance(60_000);
    await outgoing.tick();
    expect(received).toEqual([]);
    expect((await outgoing.jobs()).map((j) => j.status)).not.toContain("pending");
  });
});

describe("POST /api/v1/bots/{bot_id}/api_key/regenerate and /users/me/api_key/regenerate", () => {
  it("gives a new key, stops the old one at once, and tells the bot's administrators", async () => {
    const s = await server();
    const { iago, hamlet, cordelia } = s.users;
    const bot = await createBot(s, hamlet, { full_name: "Keyed", short_name: "keyed", bot_type: 1 });
    await createStream(s, "Denmark", [hamlet]);
    const q = await registerQueue(s, hamlet, { event_types: ["realm_bot"] });
    expect((await s.api.get("/api/v1/users/me", { as: bot, skipSchemaCheck: true })).status).toBe(200);
    // Incoming webhooks authenticate by key alone (and remember it): the old key must stop too.
    const webhook = (apiKey: string) =>
      s.api
        .post(`/api/v1/external/helloworld?api_key=${apiKey}&stream=Denmark`, {
          body: JSON.stringify({ featured_title: "T", featured_url: "https://example.com" }),
          headers: { "content-type": "application/json" },
          skipSchemaCheck: true,
        })
        .then((r) => ({ status: r.status, body: r.body }));
    expect((await webhook(bot.apiKey)).status).toBe(200);
    const denied = await s.api.post(`/api/v1/bots/${bot.id}/api_key/regenerate`, {
      as: cordelia,
      skipSchemaCheck: true,
    });
    expect({ status: denied.status, body: denied.body }).toEqual({
      status: 400,
      body: err("Insufficient permission"),
    });
    const res = await s.api.post(`/api/v1/bots/${bot.id}/api_key/regenerate`, {
      as: hamlet,
      skipSchemaCheck: true,
    });
    const key = res.body.api_key as string;
    expect({ status: res.status, body: res.body }).toEqual({
      status: 200,
      body: { result: "success", msg: "", api_key: key },
    });
    expect(key).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(key).not.toBe(bot.apiKey);
    expect((await s.api.get("/api/v1/users/me", { as: bot, skipSchemaCheck: true })).status).toBe(401);
    expect(await webhook(bot.apiKey)).toEqual({
      status: 401,
      body: err("Invalid API key", "INVALID_API_KEY"),
    });
    expect(await webhook(key)).toEqual({ status: 200, body: { result: "success", msg: "" } });
    expect(
      (await s.api.get("/api/v1/users/me", { as: { ...bot, apiKey: key }, skipSchemaCheck: true })).status,
    ).toBe(200);
    expect(await drainEvents(q, { skipSchemaCheck: true })).toEqual([
      { type: "realm_bot", op: "update", bot: { user_id: bot.id, api_key: key }, id: 0 },
    ]);

    const own = await s.api.post("/api/v1/users/me/api_key/regenerate", { as: iago, skipSchemaCheck: true });
    const ownKey = own.body.api_key as string;
    expect({ status: own.status, body: own.body }).toEqual({
      status: 200,
      body: { result: "success", msg: "", api_key: ownKey },
    });
    expect((await s.api.get("/api/v1/users/me", { as: iago, skipSchemaCheck: true })).status).toBe(401);
    expect(
      (await s.api.get("/api/v1/users/me", { as: { ...iago, apiKey: ownKey }, skipSchemaCheck: true }))
        .status,
    ).toBe(200);
  });
});
