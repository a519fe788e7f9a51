/**
 * The authorization matrix (issue 11): every endpoint of the app's routers × every kind of caller
 * (owner, admin, member, guest, each bot type, a deactivated user and bot, another user's key, no
 * key), each answer's status written out as a literal table; plus: the content of a private stream
 * never appears in any answer or event of a non-subscriber.
 *
 * A route the table does not list yet (other helpers add routes) still runs, under the rule every
 * route must keep: no key, a deactivated account or a wrong key → 401; never a 5xx.
 * MATRIX_DISCOVER=1 prints the observed table (to review before pasting it here).
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { defaultConfig } from "../../src/config.js";
import { Role } from "../../src/domain/users/types.js";
import type { User } from "../../src/domain/users/types.js";
import { UsersRepo } from "../../src/store/users-repo.js";
import { encodeParams } from "../helpers/client.js";
import type { ParamValue } from "../helpers/client.js";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer } from "../helpers/test-server.js";
import { createStream } from "../http/message-helpers.js";
import { appRoutes } from "./fuzz-lib.js";

const CALLERS = [
  "owner",
  "admin",
  "member",
  "guest",
  "genericBot",
  "incomingBot",
  "outgoingBot",
  "embeddedBot",
  "deactivatedUser",
  "deactivatedBot",
  "otherKey",
  "noKey",
] as const;
type Caller = (typeof CALLERS)[number];
const UNAUTHENTICATED: readonly Caller[] = ["deactivatedUser", "deactivatedBot", "otherKey", "noKey"];

/** Expected status per caller, in the order of CALLERS. */
type Row = [number, number, number, number, number, number, number, number, number, number, number, number];

const SECRET = "TOP-SECRET-7f3a";

/**
 * The table. Columns: owner, admin, member, guest, generic bot, incoming-webhook bot, outgoing-webhook
 * bot, embedded bot, deactivated user, deactivated bot, another user's key, no key.
 */
const EXPECTED: Record<string, Row> = {
  "GET /api/v1/server_settings": [200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
  "POST /api/v1/fetch_api_key": [200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
  "POST /api/v1/external/:integration": [200, 200, 200, 200, 200, 200, 200, 200, 401, 401, 200, 400],
  "GET /api/v1/integrations": [200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
  "GET /api/v1/users": [200, 200, 200, 200, 200, 401, 200, 200, 401, 401, 401, 401],
  "GET /api/v1/users/me": [200, 200, 200, 200, 200, 401, 200, 200, 401, 401, 401, 401],
  "GET /api/v1/users/:user": [200, 200, 200, 200, 200, 401, 200, 200, 401, 401, 401, 401],
  "POST /api/v1/users": [200, 200, 400, 400, 400, 401, 400, 400, 401, 401, 401, 401],
  "POST /api/v1/bots": [200, 200, 200, 400, 400, 401, 400, 400, 401, 401, 401, 401],
  "PATCH /api/v1/bots/:bot_id": [200, 200, 200, 400, 400, 401, 400, 400, 401, 401, 401, 401],
  "GET /api/v1/bots": [200, 200, 200, 200, 200, 401, 200, 200, 401, 401, 401, 401],
  "GET /api/v1/realm/profile_fields": [200, 200, 200, 200, 200, 401, 200, 200, 401, 401, 401, 401],
  "POST /api/v1/realm/profile_fields": [200, 200, 400, 400, 400, 401, 400, 400, 401, 401, 401, 401],
  "PATCH /api/v1/users/me/profile_data": [200, 200, 200, 200, 200, 401, 200, 200, 401, 401, 401, 401],
  "POST /api/v1/register": [200, 200, 200, 200, 200, 401, 200, 200, 401, 401, 401, 401],
  "GET /api/v1/events": [200, 400, 400, 400, 400, 401, 400, 400, 401, 401, 401, 401],
  "DELETE /api/v1/events": [200, 400, 400, 400, 400, 401, 400, 400, 401, 401, 401, 401],
  "POST /api/v1/messages": [200, 200, 200, 200, 200, 200, 200, 200, 401, 401, 401, 401],
  "GET /api/v1/messages": [200, 200, 200, 200, 200, 401, 200, 200, 401, 401, 401, 401],
  "GET /api/v1/messages/:id": [200, 200, 200, 200, 200, 401, 200, 200, 401, 401, 401, 401],
  "PATCH /api/v1/messages/:id": [200, 400, 400, 400, 400, 401, 400, 400, 401, 401, 401, 401],
  "GET /api/v1/messages/:id/history": [200, 200, 200, 200, 200, 401, 200, 200, 401, 401, 401, 401],
  "DELETE /api/v1/messages/:id": [200, 200, 400, 400, 400, 401, 400, 400, 401, 401, 401, 401],
  "POST /api/v1/messages/:id/reactions": [200, 200, 200, 200, 200, 401, 200, 200, 401, 401, 401, 401],
  "DELETE /api/v1/messages/:id/reactions": [400, 400, 400, 400, 400, 401, 400, 400, 401, 401, 401, 401],
  "POST /api/v1/messages/flags": [200, 200, 200, 200, 200, 401, 200, 200, 401, 401, 401, 401],
  "POST /api/v1/mark_all_as_read": [200, 200, 200, 200, 200, 401, 200, 200, 401, 401, 401, 401],
  "POST /api/v1/mark_stream_as_read": [200, 200, 200, 200, 200, 401, 200, 200, 401, 401, 401, 401],
  "POST /api/v1/mark_topic_as_read": [200, 200, 200, 200, 200, 401, 200, 200, 401, 401, 401, 401],
  "GET /api/v1/streams": [200, 200, 200, 200, 200, 401, 200, 200, 401, 401, 401, 401],
  "GET /api/v1/get_stream_id": [200, 200, 200, 200, 200, 401, 200, 200, 401, 401, 401, 401],
  "GET /api/v1/streams/:stream_id": [200, 200, 400, 400, 400, 401, 400, 400, 401, 401, 401, 401],
  "GET /api/v1/streams/:stream_id/members": [200, 200, 400, 400, 400, 401, 400, 400, 401, 401, 401, 401],
  "GET /api/v1/users/me/subscriptions": [200, 200, 200, 200, 200, 401, 200, 200, 401, 401, 401, 401],
  "POST /api/v1/users/me/subscriptions": [200, 200, 200, 400, 200, 401, 200, 200, 401, 401, 401, 401],
  "DELETE /api/v1/users/me/subscriptions": [200, 200, 200, 400, 200, 401, 200, 200, 401, 401, 401, 401],
  "POST /api/v1/users/me/subscriptions/properties": [
    200, 200, 200, 200, 200, 401, 200, 200, 401, 401, 401, 401,
  ],
  "PATCH /api/v1/users/me/subscriptions/muted_topics": [
    200, 200, 200, 200, 200, 401, 200, 200, 401, 401, 401, 401,
  ],
  "PATCH /api/v1/settings/notifications": [200, 200, 200, 200, 400, 401, 400, 400, 401, 401, 401, 401],
  "PUT /api/v1/bot_storage": [400, 400, 400, 400, 200, 401, 200, 200, 401, 401, 401, 401],
  "GET /api/v1/bot_storage": [400, 400, 400, 400, 200, 401, 200, 200, 401, 401, 401, 401],
  "DELETE /api/v1/bot_storage": [400, 400, 400, 400, 200, 401, 200, 200, 401, 401, 401, 401],
  "GET /api/v1/integrations/:name": [200, 200, 200, 200, 200, 401, 200, 200, 401, 401, 401, 401],
  "GET /api/v1/integrations/:name/fixtures/:fixture": [
    200, 200, 200, 200, 200, 401, 200, 200, 401, 401, 401, 401,
  ],
  "GET /api/v1/messages/:id (private stream)": [200, 400, 400, 400, 400, 401, 400, 400, 401, 401, 401, 401],
  "GET /api/v1/messages (private stream narrow)": [
    200, 200, 200, 200, 200, 401, 200, 200, 401, 401, 401, 401,
  ],
  "GET /api/v1/messages/:id/history (private stream)": [
    200, 400, 400, 400, 400, 401, 400, 400, 401, 401, 401, 401,
  ],
  "PATCH /api/v1/streams/:stream_id": [200, 200, 400, 400, 400, 401, 400, 400, 401, 401, 401, 401],
  "DELETE /api/v1/streams/:stream_id": [200, 200, 400, 400, 400, 401, 400, 400, 401, 401, 401, 401],
  "DELETE /api/v1/bots/:bot_id": [200, 200, 200, 400, 400, 401, 400, 400, 401, 401, 401, 401],
  "POST /api/v1/bots/:bot_id/api_key/regenerate": [
    200, 200, 200, 400, 400, 401, 400, 400, 401, 401, 401, 401,
  ],
  "POST /api/v1/users/:user_id/reactivate": [200, 200, 400, 400, 400, 401, 400, 400, 401, 401, 401, 401],
  "PATCH /api/v1/users/:user_id": [200, 200, 400, 400, 400, 401, 400, 400, 401, 401, 401, 401],
  "DELETE /api/v1/users/:user_id": [200, 200, 400, 400, 400, 401, 400, 400, 401, 401, 401, 401],
  "GET /api/v1/bots/:bot_id/deliveries": [200, 200, 200, 403, 403, 401, 403, 403, 401, 401, 401, 401],
};

interface Fixture {
  server: TestServer;
  users: Record<Caller, { email: string; apiKey: string; id: number }>;
  denmark: number;
  secret: number;
  secretMessage: number;
  elsinore: number;
  ownerQueue: () => Promise<string>;
  freshMessage: () => Promise<number>;
  hamletBot: number;
  n: number;
  /** A new member (active or deactivated). */
  throwawayUser: (active: boolean) => Promise<User>;
  /** A new generic bot owned by hamlet (the member). */
  throwawayBot: () => Promise<number>;
  /** A new public stream with the owner and hamlet subscribed. */
  throwawayStream: () => Promise<number>;
}

interface Request {
  path: string;
  params?: Record<string, ParamValue>;
  /** Raw JSON body (webhooks). */
  json?: unknown;
}

/** One canonical, valid request per endpoint, so that "allowed" means 2xx. */
const CANONICAL: Record<string, (f: Fixture, caller: Caller) => Promise<Request> | Request> = {
  "GET /api/v1/server_settings": () => ({ path: "/api/v1/server_settings" }),
  "POST /api/v1/fetch_api_key": (f) => ({
    path: "/api/v1/fetch_api_key",
    params: { username: f.server.users.othello.email, password: `${f.server.users.othello.email}-password` },
  }),
  "POST /api/v1/external/:integration": (f, caller) => ({
    path: `/api/v1/external/helloworld?stream=Denmark${caller === "noKey" ? "" : `&api_key=${f.users[caller].apiKey}`}`,
    json: { featured_title: "Matrix", featured_url: "https://example.com/" },
  }),
  "GET /api/v1/integrations": () => ({ path: "/api/v1/integrations" }),
  "GET /api/v1/users": () => ({ path: "/api/v1/users" }),
  "GET /api/v1/users/me": () => ({ path: "/api/v1/users/me" }),
  "GET /api/v1/users/:user": (f) => ({ path: `/api/v1/users/${f.server.users.hamlet.id}` }),
  "POST /api/v1/users": (f) => ({
    path: "/api/v1/users",
    params: { email: `new${f.n}@zulip.com`, password: "pw-123456", full_name: `New ${f.n}` },
  }),
  "POST /api/v1/bots": (f) => ({
    path: "/api/v1/bots",
    params: { full_name: `Matrix Bot ${f.n}`, short_name: `matrix${f.n}`, bot_type: 1 },
  }),
  "PATCH /api/v1/bots/:bot_id": (f) => ({
    path: `/api/v1/bots/${f.hamletBot}`,
    params: { config_data: { webhook_secret: `s${f.n}` } },
  }),
  "GET /api/v1/bots": () => ({ path: "/api/v1/bots" }),
  "GET /api/v1/realm/profile_fields": () => ({ path: "/api/v1/realm/profile_fields" }),
  "POST /api/v1/realm/profile_fields": (f) => ({
    path: "/api/v1/realm/profile_fields",
    params: { name: `Field ${f.n}`, field_type: 1 },
  }),
  "PATCH /api/v1/users/me/profile_data": () => ({
    path: "/api/v1/users/me/profile_data",
    params: { data: [] },
  }),
  "POST /api/v1/register": () => ({ path: "/api/v1/register", params: { event_types: ["message"] } }),
  "GET /api/v1/events": async (f) => ({
    path: "/api/v1/events",
    params: { queue_id: await f.ownerQueue(), last_event_id: -1, dont_block: true },
  }),
  "DELETE /api/v1/events": async (f) => ({
    path: "/api/v1/events",
    params: { queue_id: await f.ownerQueue() },
  }),
  "POST /api/v1/messages": () => ({
    path: "/api/v1/messages",
    params: { type: "stream", to: "Denmark", topic: "matrix", content: "hello" },
  }),
  "GET /api/v1/messages": () => ({
    path: "/api/v1/messages",
    params: { anchor: "newest", num_before: 5, num_after: 0, narrow: [["stream", "Denmark"]] },
  }),
  "GET /api/v1/messages/:id": async (f) => ({ path: `/api/v1/messages/${await f.freshMessage()}` }),
  "PATCH /api/v1/messages/:id": async (f) => ({
    path: `/api/v1/messages/${await f.freshMessage()}`,
    params: { content: "edited" },
  }),
  "GET /api/v1/messages/:id/history": async (f) => ({
    path: `/api/v1/messages/${await f.freshMessage()}/history`,
  }),
  "DELETE /api/v1/messages/:id": async (f) => ({ path: `/api/v1/messages/${await f.freshMessage()}` }),
  "POST /api/v1/messages/:id/reactions": async (f) => ({
    path: `/api/v1/messages/${await f.freshMessage()}/reactions`,
    params: { emoji_name: "smile" },
  }),
  "DELETE /api/v1/messages/:id/reactions": async (f) => ({
    path: `/api/v1/messages/${await f.freshMessage()}/reactions`,
    params: { emoji_name: "smile" },
  }),
  "POST /api/v1/messages/flags": async (f) => ({
    path: "/api/v1/messages/flags",
    params: { messages: [await f.freshMessage()], op: "add", flag: "starred" },
  }),
  "POST /api/v1/mark_all_as_read": () => ({ path: "/api/v1/mark_all_as_read" }),
  "POST /api/v1/mark_stream_as_read": (f) => ({
    path: "/api/v1/mark_stream_as_read",
    params: { stream_id: f.denmark },
  }),
  "POST /api/v1/mark_topic_as_read": (f) => ({
    path: "/api/v1/mark_topic_as_read",
    params: { stream_id: f.denmark, topic_name: "matrix" },
  }),
  "GET /api/v1/streams": () => ({ path: "/api/v1/streams" }),
  "GET /api/v1/get_stream_id": () => ({ path: "/api/v1/get_stream_id", params: { stream: "Denmark" } }),
  "GET /api/v1/streams/:stream_id": (f) => ({ path: `/api/v1/streams/${f.secret}` }),
  "GET /api/v1/streams/:stream_id/members": (f) => ({ path: `/api/v1/streams/${f.secret}/members` }),
  "GET /api/v1/users/me/subscriptions": () => ({ path: "/api/v1/users/me/subscriptions" }),
  "POST /api/v1/users/me/subscriptions": () => ({
    path: "/api/v1/users/me/subscriptions",
    params: { subscriptions: [{ name: "Elsinore" }] },
  }),
  "DELETE /api/v1/users/me/subscriptions": () => ({
    path: "/api/v1/users/me/subscriptions",
    params: { subscriptions: ["Elsinore"] },
  }),
  "POST /api/v1/users/me/subscriptions/properties": (f) => ({
    path: "/api/v1/users/me/subscriptions/properties",
    params: { subscription_data: [{ stream_id: f.denmark, property: "pin_to_top", value: true }] },
  }),
  "PATCH /api/v1/users/me/subscriptions/muted_topics": () => ({
    path: "/api/v1/users/me/subscriptions/muted_topics",
    params: { stream: "Denmark", topic: "matrix", op: "add" },
  }),
  "PATCH /api/v1/settings/notifications": () => ({
    path: "/api/v1/settings/notifications",
    params: { enable_sounds: false },
  }),
  "PUT /api/v1/bot_storage": () => ({ path: "/api/v1/bot_storage", params: { storage: { k: "v" } } }),
  "GET /api/v1/bot_storage": () => ({ path: "/api/v1/bot_storage" }),
  "DELETE /api/v1/bot_storage": () => ({ path: "/api/v1/bot_storage", params: { keys: [] } }),
  "GET /api/v1/integrations/:name": () => ({ path: "/api/v1/integrations/helloworld" }),
  "GET /api/v1/integrations/:name/fixtures/:fixture": () => ({
    path: "/api/v1/integrations/helloworld/fixtures/case:test_hello_message",
  }),
  // Lifecycle: each call on a throwaway account, bot or stream.
  "DELETE /api/v1/users/:user_id": async (f) => ({
    path: `/api/v1/users/${(await f.throwawayUser(true)).id}`,
  }),
  "PATCH /api/v1/users/:user_id": async (f) => ({
    path: `/api/v1/users/${(await f.throwawayUser(true)).id}`,
    params: { full_name: `Renamed ${f.n}` },
  }),
  "POST /api/v1/users/:user_id/reactivate": async (f) => ({
    path: `/api/v1/users/${(await f.throwawayUser(false)).id}/reactivate`,
  }),
  "DELETE /api/v1/bots/:bot_id": async (f) => ({ path: `/api/v1/bots/${await f.throwawayBot()}` }),
  "POST /api/v1/bots/:bot_id/api_key/regenerate": async (f) => ({
    path: `/api/v1/bots/${await f.throwawayBot()}/api_key/regenerate`,
  }),
  "GET /api/v1/bots/:bot_id/deliveries": (f) => ({ path: `/api/v1/bots/${f.hamletBot}/deliveries` }),
  "DELETE /api/v1/streams/:stream_id": async (f) => ({
    path: `/api/v1/streams/${await f.throwawayStream()}`,
  }),
  "PATCH /api/v1/streams/:stream_id": async (f) => ({
    path: `/api/v1/streams/${await f.throwawayStream()}`,
    params: { description: "changed" },
  }),
  // Private-stream checks beyond the one canonical request per endpoint.
  "GET /api/v1/messages/:id (private stream)": (f) => ({ path: `/api/v1/messages/${f.secretMessage}` }),
  "GET /api/v1/messages (private stream narrow)": () => ({
    path: "/api/v1/messages",
    params: { anchor: "newest", num_before: 5, num_after: 0, narrow: [["stream", "secret"]] },
  }),
  "GET /api/v1/messages/:id/history (private stream)": (f) => ({
    path: `/api/v1/messages/${f.secretMessage}/history`,
  }),
};

let f: Fixture;
const observed: Record<string, Record<Caller, number>> = {};
const leaks: string[] = [];
const queues = new Map<Caller, string>();

async function call(method: string, req: Request, caller: Caller): Promise<{ status: number; text: string }> {
  const headers: Record<string, string> = {};
  const u = f.users[caller];
  if (caller !== "noKey" && !req.path.startsWith("/api/v1/external/")) {
    // Another user's key: hamlet's email with othello's key.
    const key = caller === "otherKey" ? f.server.users.othello.apiKey : u.apiKey;
    const email = caller === "otherKey" ? f.server.users.hamlet.email : u.email;
    headers["authorization"] = "Basic " + Buffer.from(`${email}:${key}`).toString("base64");
  }
  let url = f.server.url + req.path;
  let body: string | undefined;
  const encoded = encodeParams(req.params ?? {}).toString();
  if (req.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(req.json);
  } else if (method === "GET") {
    if (encoded !== "") url += (url.includes("?") ? "&" : "?") + encoded;
  } else {
    headers["content-type"] = "application/x-www-form-urlencoded";
    body = encoded;
  }
  const res = await fetch(url, { method, headers, ...(body !== undefined ? { body } : {}) });
  return { status: res.status, text: await res.text() };
}

beforeAll(async () => {
  const server = await startTestServer({
    config: { outgoingWebhooks: { ...defaultConfig().outgoingWebhooks, maxAttempts: 1, pollIntervalMs: 0 } },
  });
  const svc = server.running.services;
  const iago = (await svc.users.byId(server.users.iago.id))!;
  const hamlet = (await svc.users.byId(server.users.hamlet.id))!;
  const mk = (email: string, role: number): Promise<User> =>
    svc.users.createUser(iago, {
      email,
      password: "pw",
      fullName: email.split("@")[0] ?? email,
      role,
      joinDefaultStreams: false,
    });
  const admin = await mk("desdemona@zulip.com", Role.ADMIN);
  const ghost = await mk("ghost@zulip.com", Role.MEMBER);
  const bot = async (
    botType: number,
    shortName: string,
    extra: Record<string, unknown> = {},
  ): Promise<User> =>
    (await svc.users.createBot(hamlet, { fullName: `${shortName} bot`, shortName, botType, ...extra })).bot;
  const genericBot = await bot(1, "generic");
  const outgoingBot = await bot(3, "outgoing", { payloadUrl: "http://127.0.0.1:9/", interfaceType: 1 });
  const embeddedBot = await bot(4, "embedded", { serviceName: "helloworld" });
  const deadBot = await bot(1, "dead");
  const hamletBot = await bot(1, "renamable");
  const repo = new UsersRepo(server.running.db);
  await repo.setActive(ghost.id, false);
  await repo.setActive(deadBot.id, false);
  const t = server.users;
  const all = [
    t.iago,
    admin,
    t.hamlet,
    t.polonius,
    genericBot,
    t.webhookBot,
    outgoingBot,
    embeddedBot,
    ghost,
    deadBot,
  ];
  const denmark = await createStream(server, "Denmark", [...all, t.othello]);
  const secret = await createStream(server, "secret", [t.iago], { inviteOnly: true });
  const elsinore = await createStream(server, "Elsinore", [t.iago]);
  const cred = (u: { email: string; apiKey: string; id: number }) => ({
    email: u.email,
    apiKey: u.apiKey,
    id: u.id,
  });
  let n = 0;
  f = {
    server,
    users: {
      owner: cred(t.iago),
      admin: cred(admin),
      member: cred(t.hamlet),
      guest: cred(t.polonius),
      genericBot: cred(genericBot),
      incomingBot: cred(t.webhookBot),
      outgoingBot: cred(outgoingBot),
      embeddedBot: cred(embeddedBot),
      deactivatedUser: cred(ghost),
      deactivatedBot: cred(deadBot),
      otherKey: cred(t.hamlet),
      noKey: { email: "", apiKey: "", id: 0 },
    },
    denmark,
    secret,
    elsinore,
    secretMessage: 0,
    hamletBot: hamletBot.id,
    get n() {
      return ++n;
    },
    ownerQueue: async () => {
      const res = await call(
        "POST",
        { path: "/api/v1/register", params: { event_types: ["message"] } },
        "owner",
      );
      return (JSON.parse(res.text) as { queue_id: string }).queue_id;
    },
    throwawayUser: async (active) => {
      const u = await mk(`temp${++n}@zulip.com`, Role.MEMBER);
      if (!active) await repo.setActive(u.id, false);
      return u;
    },
    throwawayBot: async () => (await bot(1, `temp${++n}`)).id,
    throwawayStream: () => createStream(server, `temp stream ${++n}`, [t.iago, t.hamlet]),
    freshMessage: () =>
      svc.messages.send(iago, { type: "stream", to: "Denmark", topic: "matrix", content: "fresh" }),
  };
  // Every caller listens to every event before the private content exists.
  for (const caller of CALLERS) {
    const res = await call("POST", { path: "/api/v1/register", params: {} }, caller);
    if (res.status === 200) queues.set(caller, (JSON.parse(res.text) as { queue_id: string }).queue_id);
  }
  f.secretMessage = await svc.messages.send(iago, {
    type: "stream",
    to: "secret",
    topic: "plans",
    content: SECRET,
  });
  await svc.messages.send(iago, {
    type: "stream",
    to: "secret",
    topic: SECRET,
    content: "topic is secret too",
  });
}, 60_000);

afterAll(() => f.server.close());

/** Subscribers of the private stream: the only callers who may see its content. */
const MAY_SEE_SECRET = new Set<Caller>(["owner"]);

describe("authorization matrix", () => {
  it("answers every endpoint × caller as the table says, and never 5xx", async () => {
    const routes = appRoutes(f.server.running.services);
    const keys = new Map<string, boolean>();
    for (const r of routes) {
      for (const m of r.methods) {
        if (m === "HEAD" || m === "OPTIONS") continue;
        keys.set(
          r.path === "/api/v1/external/:integration" ? `POST ${r.path}` : `${m} ${r.path}`,
          r.authenticated,
        );
      }
    }
    for (const k of Object.keys(CANONICAL)) if (k.includes(" (")) keys.set(k, true);
    const unlisted: string[] = [];
    for (const [key, authenticated] of keys) {
      const method = key.split(" ")[0]!;
      const make = CANONICAL[key];
      observed[key] = {} as Record<Caller, number>;
      // A route without a canonical request is called only by the callers who must be refused
      // (calling it as the owner could, say, deactivate the owner); a public one by no-key only.
      const callers: readonly Caller[] =
        make !== undefined ? CALLERS : authenticated ? UNAUTHENTICATED : ["noKey"];
      for (const caller of callers) {
        const req =
          make === undefined
            ? { path: key.split(" ")[1]!.replace(/[:*][a-z_]+/g, "1") }
            : await make(f, caller);
        const res = await call(method, req, caller);
        observed[key][caller] = res.status;
        if (!MAY_SEE_SECRET.has(caller) && res.text.includes(SECRET))
          leaks.push(`${key} as ${caller}: ${res.text.slice(0, 200)}`);
      }
      if (make === undefined) unlisted.push(`${key}${authenticated ? "" : " (public)"}`);
    }
    if (process.env["MATRIX_DISCOVER"] === "1") {
      const lines = Object.entries(observed).map(
        ([k, v]) => `  ${JSON.stringify(k)}: [${CALLERS.map((c) => v[c]).join(", ")}],`,
      );
      process.stdout.write(`observed matrix:\n${lines.join("\n")}\n`);
    }
    // Routes the table does not list yet: the rule every route keeps.
    const ruleBreaks = unlisted.flatMap((entry) => {
      const key = entry.replace(/ \(public\)$/, "");
      const o = observed[key]!;
      if (entry.endsWith(" (public)")) return o.noKey >= 500 ? [`${key} without a key: ${o.noKey}`] : [];
      return UNAUTHENTICATED.filter((c) => o[c] !== 401).map((c) => `${key} as ${c}: ${o[c]}`);
    });
    process.stdout.write(
      `authorization matrix: ${keys.size - unlisted.length} rows in the table, ${unlisted.length} routes checked by the rule only: ${unlisted.join(", ")}\n`,
    );
    expect(ruleBreaks).toEqual([]);
    const listed = Object.fromEntries(
      Object.entries(observed)
        .filter(([k]) => CANONICAL[k] !== undefined)
        .map(([k, v]) => [k, CALLERS.map((c) => v[c])]),
    );
    expect(listed).toEqual(EXPECTED);
  }, 120_000);

  it("never shows a private stream's content to a non-subscriber, in answers or events", async () => {
    for (const [caller, queue] of queues) {
      const res = await call(
        "GET",
        { path: "/api/v1/events", params: { queue_id: queue, last_event_id: -1, dont_block: true } },
        caller,
      );
      if (!MAY_SEE_SECRET.has(caller) && res.text.includes(SECRET))
        leaks.push(`events of ${caller}: ${res.text.slice(0, 200)}`);
    }
    // The owner (a subscriber) does see it: the check would notice a marker that never went out.
    const own = await call(
      "GET",
      {
        path: "/api/v1/events",
        params: { queue_id: queues.get("owner")!, last_event_id: -1, dont_block: true },
      },
      "owner",
    );
    expect(own.text.includes(SECRET)).toBe(true);
    expect(leaks).toEqual([]);
  });
});
