import { afterEach, describe, expect, it, jest } from "@jest/globals";
import { ManualClock } from "../../src/clock.js";
import { drainEvents, registerQueue } from "../helpers/events.js";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer } from "../helpers/test-server.js";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** 2026-01-01T00:00:00Z, the ManualClock's start, in seconds. */
const T0 = 1767225600;

async function start(): Promise<{ server: TestServer; clock: ManualClock }> {
  const clock = new ManualClock();
  server = await startTestServer({ clock });
  return { server, clock };
}

const active = (ts: number) => ({
  website: { client: "website", status: "active", timestamp: ts, pushable: false },
  aggregated: { client: "website", status: "active", timestamp: ts },
});

describe("POST /api/v1/users/me/presence", () => {
  it("records a ping, answers the realm's presence and tells the realm once", async () => {
    const { server, clock } = await start();
    const { api, users } = server;
    const q = await registerQueue(server, users.othello, { event_types: ["presence"] });
    const res = await api.post("/api/v1/users/me/presence", {
      as: users.hamlet,
      params: { status: "active", new_user_input: true },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      result: "success",
      msg: "",
      presences: { "hamlet@zulip.com": active(T0) },
      server_timestamp: T0,
    });
    clock.advance(30_000);
    // Still active: no second event.
    await api.post("/api/v1/users/me/presence", { as: users.hamlet, params: { status: "active" } });
    expect(await drainEvents(q)).toEqual([
      {
        id: 0,
        type: "presence",
        user_id: users.hamlet.id,
        email: "hamlet@zulip.com",
        server_timestamp: T0,
        presence: { website: { client: "website", status: "active", timestamp: T0, pushable: false } },
      },
    ]);
  });

  it("answers slim presence keyed by user id, and nothing with ping_only", async () => {
    const { server } = await start();
    const { api, users } = server;
    const ping = await api.post("/api/v1/users/me/presence", {
      as: users.hamlet,
      params: { status: "idle", ping_only: true },
    });
    expect(ping.body).toEqual({ result: "success", msg: "" });
    const res = await api.post("/api/v1/users/me/presence", {
      as: users.othello,
      params: { status: "active", slim_presence: true },
    });
    expect(res.body).toEqual({
      result: "success",
      msg: "",
      presences: {
        [String(users.hamlet.id)]: { idle_timestamp: T0 },
        [String(users.othello.id)]: { active_timestamp: T0, idle_timestamp: T0 },
      },
      server_timestamp: T0,
    });
  });

  it("answers a ping that changes nobody's status without reading every user of the realm", async () => {
    // Every client pings each minute: the answer looks up the emails of the users it lists only.
    const { server, clock } = await start();
    const { api, users } = server;
    await api.post("/api/v1/users/me/presence", { as: users.hamlet, params: { status: "active" } });
    await api.post("/api/v1/users/me/presence", { as: users.othello, params: { status: "active" } });
    clock.advance(30_000);
    const allUsers = jest.spyOn(server.running.services.users, "allUsers");
    try {
      const full = await api.post("/api/v1/users/me/presence", {
        as: users.hamlet,
        params: { status: "active" },
      });
      const slim = await api.post("/api/v1/users/me/presence", {
        as: users.othello,
        params: { status: "active", slim_presence: true },
      });
      expect([full.body, slim.body]).toEqual([
        {
          result: "success",
          msg: "",
          presences: { "hamlet@zulip.com": active(T0 + 30), "othello@zulip.com": active(T0) },
          server_timestamp: T0 + 30,
        },
        {
          result: "success",
          msg: "",
          presences: {
            [String(users.hamlet.id)]: { active_timestamp: T0 + 30, idle_timestamp: T0 + 30 },
            [String(users.othello.id)]: { active_timestamp: T0 + 30, idle_timestamp: T0 + 30 },
          },
          server_timestamp: T0 + 30,
        },
      ]);
      expect(allUsers).not.toHaveBeenCalled();
    } finally {
      allUsers.mockRestore();
    }
  });

  it("rejects an unknown status", async () => {
    const { server } = await start();
    const res = await server.api.post("/api/v1/users/me/presence", {
      as: server.users.hamlet,
      params: { status: "away" },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: "error", msg: "Invalid status: away", code: "BAD_REQUEST" });
  });

  it("is in register's presences and in GET /realm/presence", async () => {
    const { server } = await start();
    const { api, users } = server;
    await api.post("/api/v1/users/me/presence", { as: users.hamlet, params: { status: "active" } });
    const q = await registerQueue(server, users.othello, { fetch_event_types: ["presence"] });
    expect(q.register.presences).toEqual({ "hamlet@zulip.com": active(T0) });
    const slim = await registerQueue(server, users.othello, {
      fetch_event_types: ["presence"],
      slim_presence: true,
    });
    expect(slim.register.presences).toEqual({
      [String(users.hamlet.id)]: { active_timestamp: T0, idle_timestamp: T0 },
    });
    const realm = await api.get("/api/v1/realm/presence", { as: users.othello });
    expect(realm.body).toEqual({
      result: "success",
      msg: "",
      presences: { "hamlet@zulip.com": active(T0) },
      server_timestamp: T0,
    });
  });
});

describe("GET /api/v1/users/{user_id_or_email}/presence", () => {
  it("answers one user's presence by id or email", async () => {
    const { server, clock } = await start();
    const { api, users } = server;
    await api.post("/api/v1/users/me/presence", { as: users.hamlet, params: { status: "active" } });
    clock.advance(200_000);
    await api.post("/api/v1/users/me/presence", { as: users.hamlet, params: { status: "idle" } });
    const expected = {
      result: "success",
      msg: "",
      presence: {
        website: { status: "idle", timestamp: T0 + 200 },
        aggregated: { status: "idle", timestamp: T0 + 200 },
      },
    };
    const byId = await api.get(`/api/v1/users/${users.hamlet.id}/presence`, { as: users.othello });
    expect(byId.body).toEqual(expected);
    const byEmail = await api.get("/api/v1/users/hamlet@zulip.com/presence", { as: users.othello });
    expect(byEmail.body).toEqual(expected);
  });

  it("names a user without presence data, a bot and an unknown user", async () => {
    const { server } = await start();
    const { api, users } = server;
    const none = await api.get("/api/v1/users/cordelia@zulip.com/presence", { as: users.othello });
    expect(none.status).toBe(400);
    expect(none.body).toEqual({
      result: "error",
      msg: "No presence data for cordelia@zulip.com",
      code: "BAD_REQUEST",
    });
    const bot = await api.get(`/api/v1/users/${users.webhookBot.id}/presence`, { as: users.othello });
    expect(bot.body).toEqual({
      result: "error",
      msg: "Presence is not supported for bot users.",
      code: "BAD_REQUEST",
    });
    const unknown = await api.get("/api/v1/users/999/presence", { as: users.othello });
    expect(unknown.body).toEqual({ result: "error", msg: "No such user", code: "BAD_REQUEST" });
  });
});

describe("POST /api/v1/typing", () => {
  it("tells the recipients and the sender that a direct message is being typed", async () => {
    const { server } = await start();
    const { api, users } = server;
    const q = await registerQueue(server, users.othello, { event_types: ["typing"] });
    const res = await api.post("/api/v1/typing", {
      as: users.hamlet,
      params: { op: "start", to: [users.othello.id] },
    });
    expect(res.body).toEqual({ result: "success", msg: "" });
    await api.post("/api/v1/typing", {
      as: users.hamlet,
      params: { op: "stop", type: "direct", to: [users.othello.id] },
    });
    const recipients = [
      { user_id: users.hamlet.id, email: "hamlet@zulip.com" },
      { user_id: users.othello.id, email: "othello@zulip.com" },
    ];
    const sender = { user_id: users.hamlet.id, email: "hamlet@zulip.com" };
    expect(await drainEvents(q)).toEqual([
      { id: 0, type: "typing", op: "start", message_type: "direct", sender, recipients },
      { id: 1, type: "typing", op: "stop", message_type: "direct", sender, recipients },
    ]);
  });

  it("tells the stream's subscribers whose clients asked for stream typing notifications", async () => {
    const { server } = await start();
    const { api, users } = server;
    await api.post("/api/v1/users/me/subscriptions", {
      as: users.iago,
      params: { subscriptions: [{ name: "Denmark" }], principals: [users.hamlet.id, users.othello.id] },
    });
    const streamId = (
      await api.get("/api/v1/get_stream_id", { as: users.hamlet, params: { stream: "Denmark" } })
    ).body.stream_id as number;
    const q = await registerQueue(server, users.othello, {
      event_types: ["typing"],
      client_capabilities: { stream_typing_notifications: true },
    });
    const legacy = await registerQueue(server, users.othello, { event_types: ["typing"] });
    const res = await api.post("/api/v1/typing", {
      as: users.hamlet,
      params: { op: "start", type: "stream", to: [streamId], topic: "castle" },
    });
    expect(res.body).toEqual({ result: "success", msg: "" });
    expect(await drainEvents(q)).toEqual([
      {
        id: 0,
        type: "typing",
        op: "start",
        message_type: "stream",
        sender: { user_id: users.hamlet.id, email: "hamlet@zulip.com" },
        stream_id: streamId,
        topic: "castle",
      },
    ]);
    expect(await drainEvents(legacy)).toEqual([]);
  });

  it("tells nobody of typing in a stream of more than 100 subscribers, as Zulip", async () => {
    const { server } = await start();
    const { api, users } = server;
    const others: number[] = [];
    const owner = server.running.firstStart!.owner;
    for (let i = 0; i < 98; i++) {
      const user = await server.running.services.users.createUser(owner, {
        email: `reader${i}@zulip.com`,
        password: undefined,
        fullName: `Reader ${i}`,
        role: 400,
        joinDefaultStreams: false,
      });
      others.push(user.id);
    }
    const subscribe = (principals: number[]) =>
      api.post("/api/v1/users/me/subscriptions", {
        as: users.iago,
        params: { subscriptions: [{ name: "Agora" }], principals },
      });
    // Iago (who creates it), Hamlet, Othello and 97 readers: 100 subscribers, notices still sent.
    await subscribe([users.iago.id, users.hamlet.id, users.othello.id, ...others.slice(0, 97)]);
    const streamId = (
      await api.get("/api/v1/get_stream_id", { as: users.hamlet, params: { stream: "Agora" } })
    ).body.stream_id as number;
    const q = await registerQueue(server, users.othello, {
      event_types: ["typing"],
      client_capabilities: { stream_typing_notifications: true },
    });
    const type = (op: string) =>
      api.post("/api/v1/typing", {
        as: users.hamlet,
        params: { op, type: "stream", to: [streamId], topic: "forum" },
      });
    expect((await type("start")).body).toEqual({ result: "success", msg: "" });
    expect((await drainEvents(q)).map((e) => e["op"])).toEqual(["start"]);
    // The 101st subscriber: the stream is now too large.
    await subscribe([others[97]!]);
    expect((await type("stop")).body).toEqual({ result: "success", msg: "" });
    expect(await drainEvents(q)).toEqual([]);
  });

  it("rejects a missing or empty recipient list, an unknown user and a missing topic", async () => {
    const { server } = await start();
    const { api, users } = server;
    const post = (params: Record<string, unknown>) =>
      api.post("/api/v1/typing", { as: users.hamlet, params: params as Record<string, string> });
    const error = (msg: string) => ({ result: "error", msg, code: "BAD_REQUEST" });
    expect((await post({ op: "start" })).body).toEqual(error("Missing 'to' argument"));
    expect((await post({ op: "start", to: [] })).body).toEqual(error("Empty 'to' list"));
    expect((await post({ op: "start", to: [999] })).body).toEqual(error("Invalid user ID 999"));
    expect((await post({ op: "begin", to: [users.othello.id] })).body).toEqual(error("Invalid op: 'begin'"));
    expect((await post({ op: "start", type: "stream", to: [1] })).body).toEqual(error("Missing topic"));
    expect((await post({ op: "start", type: "stream", topic: "x" })).body).toEqual(
      error("Missing stream_id"),
    );
    expect((await post({ op: "start", type: "stream", stream_id: 999, topic: "x" })).body).toEqual(
      error("Invalid stream ID"),
    );
  });
});

describe("POST /api/v1/users/me/status", () => {
  it("sets a status text and emoji, tells the realm, and shows it in register", async () => {
    const { server } = await start();
    const { api, users } = server;
    const q = await registerQueue(server, users.othello, { event_types: ["user_status"] });
    const res = await api.post("/api/v1/users/me/status", {
      as: users.hamlet,
      params: { status_text: "  on vacation ", emoji_name: "beer" },
    });
    expect(res.body).toEqual({ result: "success", msg: "" });
    expect(await drainEvents(q)).toEqual([
      {
        id: 0,
        type: "user_status",
        user_id: users.hamlet.id,
        status_text: "on vacation",
        emoji_name: "beer",
        emoji_code: "1f37a",
        reaction_type: "unicode_emoji",
      },
    ]);
    const reg = await registerQueue(server, users.othello, { fetch_event_types: ["user_status"] });
    expect(reg.register.user_status).toEqual({
      [String(users.hamlet.id)]: {
        status_text: "on vacation",
        emoji_name: "beer",
        emoji_code: "1f37a",
        reaction_type: "unicode_emoji",
      },
    });
    await api.post("/api/v1/users/me/status", {
      as: users.hamlet,
      params: { status_text: "", emoji_name: "" },
    });
    const cleared = await registerQueue(server, users.othello, { fetch_event_types: ["user_status"] });
    expect(cleared.register.user_status).toEqual({});
  });

  it("rejects no change, a long text and an unknown emoji", async () => {
    const { server } = await start();
    const { api, users } = server;
    const post = (params: Record<string, string>) =>
      api.post("/api/v1/users/me/status", { as: users.hamlet, params });
    const error = (msg: string) => ({ result: "error", msg, code: "BAD_REQUEST" });
    expect((await post({})).body).toEqual(error("Client did not pass any new values."));
    expect((await post({ status_text: "x".repeat(61) })).body).toEqual(
      error("status_text is too long (limit: 60 characters)."),
    );
    expect((await post({ emoji_name: "nope" })).body).toEqual(error("Emoji 'nope' does not exist"));
  });

  it("takes several statuses set at once (two clients), keeping one of them whole", async () => {
    // The row was deleted and inserted again: two saves at once both inserted, and on PostgreSQL
    // the second was refused.
    const { server } = await start();
    const { api, users } = server;
    const texts = ["at lunch", "in a meeting", "commuting", "on call"];
    const answers = await Promise.all(
      texts.map((status_text) =>
        api.post("/api/v1/users/me/status", { as: users.hamlet, params: { status_text } }),
      ),
    );
    expect(answers.map((a) => a.body)).toEqual(texts.map(() => ({ result: "success", msg: "" })));
    const reg = await registerQueue(server, users.othello, { fetch_event_types: ["user_status"] });
    const status = (reg.register.user_status as Record<string, { status_text: string }>)[
      String(users.hamlet.id)
    ];
    expect(texts).toContain(status?.status_text);
  });
});
