import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { registerQueue, drainEvents } from "../helpers/events.js";
import { expectedStreamMessage, send, startMessagingServer } from "./message-helpers.js";
import type { MessagingServer } from "./message-helpers.js";

// A public stream "Denmark" of hamlet, othello and iago, and a private stream "secret" of othello
// and cordelia, both created through the API. Outsiders of "secret": hamlet (member), polonius
// (guest), iago (administrator, not subscribed).
const SUBS = "/api/v1/users/me/subscriptions";

let server: MessagingServer;
let denmark: number;
let secret: number;
let m1: number;

const reactionsOf = (id: number) => `/api/v1/messages/${id}/reactions`;
const SUCCESS = { result: "success", msg: "" };
const error = (msg: string, code = "BAD_REQUEST") => ({ result: "error", msg, code });

beforeEach(async () => {
  server = await startMessagingServer();
  const { api, users } = server;
  const created = await api.post(SUBS, {
    as: users.hamlet,
    params: {
      subscriptions: [{ name: "Denmark" }],
      principals: [users.hamlet.email, users.othello.email, users.iago.email],
    },
  });
  expect(created.status).toBe(200);
  const priv = await api.post(SUBS, {
    as: users.othello,
    params: {
      subscriptions: [{ name: "secret" }],
      invite_only: true,
      principals: [users.othello.email, users.cordelia.email],
    },
  });
  expect(priv.status).toBe(200);
  const ids = await api.get("/api/v1/get_stream_id", { as: users.hamlet, params: { stream: "Denmark" } });
  denmark = ids.body.stream_id as number;
  const sid = await api.get("/api/v1/get_stream_id", { as: users.othello, params: { stream: "secret" } });
  secret = sid.body.stream_id as number;
  m1 = await send(server, users.hamlet, { type: "stream", to: "Denmark", topic: "castle", content: "hello" });
});
afterEach(async () => {
  await server.close();
});

describe("POST /api/v1/messages/{message_id}/reactions", () => {
  it("adds a reaction by emoji name and shows it on the message", async () => {
    const { api, users } = server;
    const res = await api.post(reactionsOf(m1), { as: users.othello, params: { emoji_name: "wave" } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(SUCCESS);

    const got = await api.get(`/api/v1/messages/${m1}`, { as: users.hamlet });
    expect(got.status).toBe(200);
    expect(got.body.message.reactions).toEqual([
      { emoji_name: "wave", emoji_code: "1f44b", reaction_type: "unicode_emoji", user_id: users.othello.id },
    ]);
  });

  it("lists every reaction of a page of messages in GET /messages, oldest first", async () => {
    const { api, users } = server;
    const m2 = await send(server, users.othello, {
      type: "stream",
      to: "Denmark",
      topic: "castle",
      content: "second",
    });
    const react = (as: typeof users.hamlet, id: number, params: Record<string, string>) =>
      api.post(reactionsOf(id), { as, params });
    expect((await react(users.othello, m1, { emoji_name: "tada" })).status).toBe(200);
    expect((await react(users.iago, m1, { emoji_name: "+1" })).status).toBe(200);
    expect((await react(users.hamlet, m2, { emoji_name: "heart", emoji_code: "2764" })).status).toBe(200);
    // thumbs_up and +1 are one emoji (1f44d): hamlet's vote keeps the name iago used first.
    expect((await react(users.hamlet, m1, { emoji_name: "thumbs_up" })).status).toBe(200);
    expect(
      (await react(users.hamlet, m1, { emoji_name: "zulip", reaction_type: "zulip_extra_emoji" })).status,
    ).toBe(200);

    const got = await api.get("/api/v1/messages", {
      as: users.hamlet,
      params: { anchor: "newest", num_before: 10, num_after: 0, narrow: [["stream", "Denmark"]] },
    });
    expect(got.status).toBe(200);
    const base = { topic: "castle", stream: "Denmark", streamId: denmark, client: "node" };
    const recipientId = (got.body.messages[0] as { recipient_id: number }).recipient_id;
    expect(got.body).toEqual({
      ...SUCCESS,
      anchor: 10000000000000000,
      found_anchor: false,
      found_oldest: true,
      found_newest: true,
      history_limited: false,
      messages: [
        {
          ...expectedStreamMessage(server, {
            ...base,
            id: m1,
            sender: "hamlet",
            content: "<p>hello</p>",
            recipientId,
            flags: ["read"],
          }),
          reactions: [
            {
              emoji_name: "tada",
              emoji_code: "1f389",
              reaction_type: "unicode_emoji",
              user_id: users.othello.id,
            },
            { emoji_name: "+1", emoji_code: "1f44d", reaction_type: "unicode_emoji", user_id: users.iago.id },
            {
              emoji_name: "+1",
              emoji_code: "1f44d",
              reaction_type: "unicode_emoji",
              user_id: users.hamlet.id,
            },
            {
              emoji_name: "zulip",
              emoji_code: "zulip",
              reaction_type: "zulip_extra_emoji",
              user_id: users.hamlet.id,
            },
          ],
        },
        {
          ...expectedStreamMessage(server, {
            ...base,
            id: m2,
            sender: "othello",
            content: "<p>second</p>",
            recipientId,
            flags: [],
          }),
          reactions: [
            {
              emoji_name: "heart",
              emoji_code: "2764",
              reaction_type: "unicode_emoji",
              user_id: users.hamlet.id,
            },
          ],
        },
      ],
    });
  });

  it("answers REACTION_ALREADY_EXISTS when the user already reacted with that emoji", async () => {
    const { api, users } = server;
    expect(
      (await api.post(reactionsOf(m1), { as: users.othello, params: { emoji_name: "wave" } })).status,
    ).toBe(200);
    const res = await api.post(reactionsOf(m1), { as: users.othello, params: { emoji_name: "wave" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error("Reaction already exists.", "REACTION_ALREADY_EXISTS"));
  });

  it("rejects an emoji name that does not exist", async () => {
    const { api, users } = server;
    const res = await api.post(reactionsOf(m1), {
      as: users.othello,
      params: { emoji_name: "no_such_emoji" },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error("Emoji 'no_such_emoji' does not exist"));
  });

  it("rejects a name that does not match the emoji code, and an unknown code", async () => {
    const { api, users } = server;
    const mismatch = await api.post(reactionsOf(m1), {
      as: users.othello,
      params: { emoji_name: "wave", emoji_code: "1f389" },
    });
    expect([mismatch.status, mismatch.body]).toEqual([400, error("Invalid emoji name.")]);
    const unknown = await api.post(reactionsOf(m1), {
      as: users.othello,
      params: { emoji_name: "wave", emoji_code: "fffff" },
    });
    expect([unknown.status, unknown.body]).toEqual([400, error("Invalid emoji code.")]);
  });

  it("rejects custom emoji (none exist) and unknown reaction types", async () => {
    const { api, users } = server;
    const custom = await api.post(reactionsOf(m1), {
      as: users.othello,
      params: { emoji_name: "wave", emoji_code: "1", reaction_type: "realm_emoji" },
    });
    expect([custom.status, custom.body]).toEqual([400, error("Invalid custom emoji.")]);
    const extra = await api.post(reactionsOf(m1), {
      as: users.othello,
      params: { emoji_name: "wave", reaction_type: "zulip_extra_emoji" },
    });
    expect([extra.status, extra.body]).toEqual([400, error("Invalid emoji code.")]);
    const bogus = await api.post(reactionsOf(m1), {
      as: users.othello,
      params: { emoji_name: "wave", reaction_type: "bogus_emoji" },
    });
    expect([bogus.status, bogus.body]).toEqual([400, error("Invalid emoji type.")]);
  });

  it("requires emoji_name", async () => {
    const { api, users } = server;
    const res = await api.post(reactionsOf(m1), {
      as: users.othello,
      params: { emoji_code: "1f44b" },
      skipSchemaCheck: true, // var_name is a data field Zulip's error schemas do not list
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      result: "error",
      msg: "Missing 'emoji_name' argument",
      code: "REQUEST_VARIABLE_MISSING",
      var_name: "emoji_name",
    });
  });

  it("answers Invalid message(s) for a message that does not exist", async () => {
    const { api, users } = server;
    const res = await api.post(reactionsOf(9999), { as: users.othello, params: { emoji_name: "wave" } });
    expect([res.status, res.body]).toEqual([400, error("Invalid message(s)")]);
  });

  it.each(["hamlet", "polonius", "iago"] as const)(
    "answers Invalid message(s) to %s, who cannot read a private stream's message",
    async (who) => {
      const { api, users } = server;
      const hidden = await send(server, users.othello, {
        type: "stream",
        to: secret,
        topic: "plan",
        content: "the plan",
      });
      const add = await api.post(reactionsOf(hidden), { as: users[who], params: { emoji_name: "wave" } });
      expect([add.status, add.body]).toEqual([400, error("Invalid message(s)")]);
      const remove = await api.delete(reactionsOf(hidden), {
        as: users[who],
        params: { emoji_name: "wave" },
      });
      expect([remove.status, remove.body]).toEqual([400, error("Invalid message(s)")]);
      const seen = await api.get(`/api/v1/messages/${hidden}`, { as: users.cordelia });
      expect(seen.body.message.reactions).toEqual([]);
    },
  );

  it("lets a reader of public history react, and then tells them about later reactions", async () => {
    const { api, users } = server;
    // cordelia is not subscribed to the public stream Denmark and never received m1.
    const res = await api.post(reactionsOf(m1), { as: users.cordelia, params: { emoji_name: "smile" } });
    expect([res.status, res.body]).toEqual([200, SUCCESS]);
    const q = await registerQueue(server, users.cordelia, { event_types: ["reaction"] });
    expect(
      (await api.post(reactionsOf(m1), { as: users.hamlet, params: { emoji_name: "tada" } })).status,
    ).toBe(200);
    expect(await drainEvents(q)).toEqual([
      {
        type: "reaction",
        op: "add",
        user_id: users.hamlet.id,
        user: {
          user_id: users.hamlet.id,
          email: users.hamlet.email,
          full_name: "King Hamlet",
          is_mirror_dummy: false,
        },
        message_id: m1,
        emoji_name: "tada",
        emoji_code: "1f389",
        reaction_type: "unicode_emoji",
        id: 0,
      },
    ]);
  });
});

describe("DELETE /api/v1/messages/{message_id}/reactions", () => {
  it("removes the user's reaction and leaves the others", async () => {
    const { api, users } = server;
    expect(
      (await api.post(reactionsOf(m1), { as: users.othello, params: { emoji_name: "wave" } })).status,
    ).toBe(200);
    expect((await api.post(reactionsOf(m1), { as: users.iago, params: { emoji_name: "wave" } })).status).toBe(
      200,
    );
    const res = await api.delete(reactionsOf(m1), { as: users.othello, params: { emoji_name: "wave" } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(SUCCESS);
    const got = await api.get(`/api/v1/messages/${m1}`, { as: users.hamlet });
    expect(got.body.message.reactions).toEqual([
      { emoji_name: "wave", emoji_code: "1f44b", reaction_type: "unicode_emoji", user_id: users.iago.id },
    ]);
  });

  it("removes by emoji_code alone", async () => {
    const { api, users } = server;
    expect(
      (await api.post(reactionsOf(m1), { as: users.othello, params: { emoji_name: "tada" } })).status,
    ).toBe(200);
    const res = await api.delete(reactionsOf(m1), { as: users.othello, params: { emoji_code: "1f389" } });
    expect([res.status, res.body]).toEqual([200, SUCCESS]);
    const got = await api.get(`/api/v1/messages/${m1}`, { as: users.othello });
    expect(got.body.message.reactions).toEqual([]);
  });

  it("answers REACTION_DOES_NOT_EXIST when the user has no such reaction", async () => {
    const { api, users } = server;
    expect((await api.post(reactionsOf(m1), { as: users.iago, params: { emoji_name: "wave" } })).status).toBe(
      200,
    );
    const res = await api.delete(reactionsOf(m1), { as: users.othello, params: { emoji_name: "wave" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error("Reaction doesn't exist.", "REACTION_DOES_NOT_EXIST"));
  });

  it("needs emoji_name or emoji_code", async () => {
    const { api, users } = server;
    const res = await api.delete(reactionsOf(m1), { as: users.othello });
    expect([res.status, res.body]).toEqual([
      400,
      error("At least one of the following arguments must be present: emoji_name, emoji_code"),
    ]);
  });

  it("answers Invalid message(s) for a message that does not exist", async () => {
    const { api, users } = server;
    const res = await api.delete(reactionsOf(9999), { as: users.othello, params: { emoji_name: "wave" } });
    expect([res.status, res.body]).toEqual([400, error("Invalid message(s)")]);
  });
});

describe("DELETE /api/v1/messages/{message_id}", () => {
  it("deletes a message that has reactions, and its reactions with it", async () => {
    const { api, users } = server;
    expect(
      (await api.post(reactionsOf(m1), { as: users.othello, params: { emoji_name: "wave" } })).status,
    ).toBe(200);
    const res = await api.delete(`/api/v1/messages/${m1}`, { as: users.iago });
    expect([res.status, res.body]).toEqual([200, SUCCESS]);
    const left = await server.running.db.all("SELECT * FROM reactions");
    expect(left).toEqual([]);
  });
});

describe("reaction events", () => {
  it("reach every user who has the message, for add and remove", async () => {
    const { api, users } = server;
    const queues = await Promise.all(
      [users.hamlet, users.othello, users.iago, users.cordelia].map((u) =>
        registerQueue(server, u, { event_types: ["reaction"] }),
      ),
    );
    expect(
      (await api.post(reactionsOf(m1), { as: users.othello, params: { emoji_name: "wave" } })).status,
    ).toBe(200);
    expect(
      (await api.delete(reactionsOf(m1), { as: users.othello, params: { emoji_name: "wave" } })).status,
    ).toBe(200);
    const event = (op: string, id: number) => ({
      type: "reaction",
      op,
      user_id: users.othello.id,
      user: {
        user_id: users.othello.id,
        email: "othello@zulip.com",
        full_name: "Othello, the Moor of Venice",
        is_mirror_dummy: false,
      },
      message_id: m1,
      emoji_name: "wave",
      emoji_code: "1f44b",
      reaction_type: "unicode_emoji",
      id,
    });
    const [hamlet, othello, iago, cordelia] = queues;
    expect(await drainEvents(hamlet!)).toEqual([event("add", 0), event("remove", 1)]);
    expect(await drainEvents(othello!)).toEqual([event("add", 0), event("remove", 1)]);
    expect(await drainEvents(iago!)).toEqual([event("add", 0), event("remove", 1)]);
    // cordelia is not subscribed to Denmark and has no row for the message.
    expect(await drainEvents(cordelia!)).toEqual([]);
  });
});
