import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { createStream, muteTopic, recordEvents, send, startMessagingServer } from "./message-helpers.js";
import type { MessagingServer } from "./message-helpers.js";

let server: MessagingServer;
let denmark: number;
let verona: number;

/**
 * Messages othello receives: 1 Denmark/a, 2 Denmark/b, 3 Verona/a, 4 PM from hamlet,
 * 5 group PM from hamlet (with cordelia), 6 Denmark/A mentioning him.
 */
beforeEach(async () => {
  server = await startMessagingServer();
  const { hamlet, othello, iago, cordelia } = server.users;
  denmark = await createStream(server, "Denmark", [hamlet, othello, iago]);
  verona = await createStream(server, "Verona", [hamlet, othello]);
  await send(server, hamlet, { type: "stream", to: "Denmark", topic: "a", content: "1" });
  await send(server, hamlet, { type: "stream", to: "Denmark", topic: "b", content: "2" });
  await send(server, hamlet, { type: "stream", to: "Verona", topic: "a", content: "3" });
  await send(server, hamlet, { type: "private", to: JSON.stringify([othello.email]), content: "4" });
  await send(server, hamlet, {
    type: "private",
    to: JSON.stringify([othello.email, cordelia.email]),
    content: "5",
  });
  await send(server, hamlet, {
    type: "stream",
    to: "Denmark",
    topic: "A",
    content: "@**Othello, the Moor of Venice** 6",
  });
});
afterEach(async () => {
  await server.close();
});

const ok = { result: "success", msg: "" };
const error = (msg: string) => ({ result: "error", msg, code: "BAD_REQUEST" });

async function unreadIds(as = server.users.othello): Promise<number[]> {
  const res = await server.api.get("/api/v1/messages", {
    as,
    params: { anchor: "oldest", num_before: 0, num_after: 50, narrow: [["is", "unread"]] },
  });
  return res.body.messages.map((m: { id: number }) => m.id);
}

const flagsEvent = (op: string, flag: string, messages: number[], all = false) => ({
  type: "update_message_flags",
  op,
  operation: op,
  flag,
  messages,
  all,
});

describe("POST /api/v1/mark_all_as_read", () => {
  it("marks every unread message read (unread → read) and says so with all=true", async () => {
    const { api, users } = server;
    expect(await unreadIds()).toEqual([1, 2, 3, 4, 5, 6]);
    const log = recordEvents(server);
    const res = await api.post("/api/v1/mark_all_as_read", { as: users.othello });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(ok);
    expect(await unreadIds()).toEqual([]);
    expect(log).toEqual([{ event: flagsEvent("add", "read", [], true), recipients: [users.othello.id] }]);
    // Other users' flags are untouched.
    expect(await unreadIds(users.iago)).toEqual([1, 2, 6]);
  });
});

describe("POST /api/v1/mark_stream_as_read", () => {
  it("marks the stream's messages read and publishes the changed ids", async () => {
    const { api, users } = server;
    const log = recordEvents(server);
    const res = await api.post("/api/v1/mark_stream_as_read", {
      as: users.othello,
      params: { stream_id: denmark },
    });
    expect(res.body).toEqual(ok);
    expect(await unreadIds()).toEqual([3, 4, 5]);
    expect(log).toEqual([{ event: flagsEvent("add", "read", [1, 2, 6]), recipients: [users.othello.id] }]);
  });

  it("publishes nothing when nothing changed", async () => {
    const { api, users } = server;
    await api.post("/api/v1/mark_stream_as_read", { as: users.othello, params: { stream_id: denmark } });
    const log = recordEvents(server);
    const res = await api.post("/api/v1/mark_stream_as_read", {
      as: users.othello,
      params: { stream_id: denmark },
    });
    expect(res.body).toEqual(ok);
    expect(log).toEqual([]);
  });

  it("rejects an unknown stream and a private stream of others", async () => {
    const { api, users } = server;
    const secret = await createStream(server, "secret", [users.hamlet], { inviteOnly: true });
    for (const streamId of [999, secret]) {
      const res = await api.post("/api/v1/mark_stream_as_read", {
        as: users.othello,
        params: { stream_id: streamId },
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(error("Invalid stream ID"));
    }
  });

  it("requires stream_id", async () => {
    const res = await server.api.post("/api/v1/mark_stream_as_read", {
      as: server.users.othello,
      params: {},
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      result: "error",
      msg: "Missing 'stream_id' argument",
      code: "REQUEST_VARIABLE_MISSING",
      var_name: "stream_id",
    });
  });
});

describe("POST /api/v1/mark_topic_as_read", () => {
  it("marks the topic's messages read, matching the topic case-insensitively", async () => {
    const { api, users } = server;
    const log = recordEvents(server);
    const res = await api.post("/api/v1/mark_topic_as_read", {
      as: users.othello,
      params: { stream_id: denmark, topic_name: "a" },
    });
    expect(res.body).toEqual(ok);
    expect(await unreadIds()).toEqual([2, 3, 4, 5]);
    expect(log).toEqual([{ event: flagsEvent("add", "read", [1, 6]), recipients: [users.othello.id] }]);
  });

  it("marks the whole stream when topic_name is empty", async () => {
    const { api, users } = server;
    const res = await api.post("/api/v1/mark_topic_as_read", {
      as: users.othello,
      params: { stream_id: denmark, topic_name: "" },
    });
    expect(res.body).toEqual(ok);
    expect(await unreadIds()).toEqual([3, 4, 5]);
  });

  it("rejects a topic the user has no message in, and an unknown stream", async () => {
    const { api, users } = server;
    const topic = await api.post("/api/v1/mark_topic_as_read", {
      as: users.othello,
      params: { stream_id: denmark, topic_name: "nope" },
    });
    expect(topic.status).toBe(400);
    expect(topic.body).toEqual(error("No such topic 'nope'"));
    const stream = await api.post("/api/v1/mark_topic_as_read", {
      as: users.othello,
      params: { stream_id: 999, topic_name: "a" },
    });
    expect(stream.status).toBe(400);
    expect(stream.body).toEqual(error("Invalid stream ID"));
  });
});

describe("POST /api/v1/messages/flags", () => {
  it("stars and unstars messages", async () => {
    const { api, users } = server;
    const log = recordEvents(server);
    const add = await api.post("/api/v1/messages/flags", {
      as: users.othello,
      params: { messages: [1, 3], op: "add", flag: "starred" },
    });
    expect(add.body).toEqual({ ...ok, messages: [1, 3] });
    const starred = await api.get("/api/v1/messages", {
      as: users.othello,
      params: { anchor: "oldest", num_before: 0, num_after: 10, narrow: [["is", "starred"]] },
    });
    expect(starred.body.messages.map((m: { id: number; flags: string[] }) => [m.id, m.flags])).toEqual([
      [1, ["starred"]],
      [3, ["starred"]],
    ]);
    const remove = await api.post("/api/v1/messages/flags", {
      as: users.othello,
      params: { messages: [3], op: "remove", flag: "starred" },
    });
    expect(remove.body).toEqual({ ...ok, messages: [3] });
    expect(log).toEqual([
      { event: flagsEvent("add", "starred", [1, 3]), recipients: [users.othello.id] },
      { event: flagsEvent("remove", "starred", [3]), recipients: [users.othello.id] },
    ]);
  });

  it("marks read and unread, publishing only the ids that changed", async () => {
    const { api, users } = server;
    await api.post("/api/v1/messages/flags", {
      as: users.othello,
      params: { messages: [2], op: "add", flag: "read" },
    });
    const log = recordEvents(server);
    await api.post("/api/v1/messages/flags", {
      as: users.othello,
      params: { messages: [1, 2], op: "add", flag: "read" },
    });
    expect(await unreadIds()).toEqual([3, 4, 5, 6]);
    await api.post("/api/v1/messages/flags", {
      as: users.othello,
      params: { messages: [2], op: "remove", flag: "read" },
    });
    expect(await unreadIds()).toEqual([2, 3, 4, 5, 6]);
    expect(log).toEqual([
      { event: flagsEvent("add", "read", [1]), recipients: [users.othello.id] },
      {
        // Marking unread carries the message's conversation (Zulip's message_details, level 121).
        event: {
          ...flagsEvent("remove", "read", [2]),
          message_details: { "2": { type: "stream", stream_id: 2, topic: "b" } },
        },
        recipients: [users.othello.id],
      },
    ]);
  });

  it("stars a public stream message the user never received", async () => {
    const { api, users } = server;
    const res = await api.post("/api/v1/messages/flags", {
      as: users.cordelia,
      params: { messages: [1], op: "add", flag: "starred" },
    });
    expect(res.body).toEqual({ ...ok, messages: [1] });
    const got = await api.get("/api/v1/messages/1", { as: users.cordelia });
    expect(got.body.message.flags).toEqual(["read", "starred", "historical"]);
  });

  it("stars none of several messages when one of them cannot be read", async () => {
    const { api, users } = server;
    // 1 and 3 are public-history stream messages Cordelia never received; 4 is another pair's DM.
    const res = await api.post("/api/v1/messages/flags", {
      as: users.cordelia,
      params: { messages: [1, 3, 4], op: "add", flag: "starred" },
    });
    expect([res.status, res.body]).toEqual([400, error("Invalid message(s)")]);
    const got = await api.get("/api/v1/messages/1", { as: users.cordelia });
    expect(got.body.message.flags).toEqual(["read", "historical"]);
  });

  it.each([
    ["an unknown flag", { messages: [1], op: "add", flag: "shiny" }, error("Invalid flag: 'shiny'")],
    [
      "a flag that is not editable",
      { messages: [1], op: "add", flag: "mentioned" },
      error("Flag not editable: 'mentioned'"),
    ],
    [
      "an unknown operation",
      { messages: [1], op: "toggle", flag: "read" },
      error("Invalid message flag operation: 'toggle'"),
    ],
    [
      "a message the user cannot read",
      { messages: [4, 99], op: "add", flag: "starred" },
      error("Invalid message(s)"),
    ],
  ])("rejects %s", async (_name, params, body) => {
    const res = await server.api.post("/api/v1/messages/flags", { as: server.users.cordelia, params });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(body);
  });
});

describe("services.messages.unreadMessages (register's unread_msgs)", () => {
  it("groups unread messages and leaves muted topics out of the count", async () => {
    const { users } = server;
    await muteTopic(server, users.othello, denmark, "a");
    const unread = await server.running.services.messages.unreadMessages(users.othello.id);
    expect(unread).toEqual({
      count: 4,
      pms: [{ other_user_id: users.hamlet.id, sender_id: users.hamlet.id, unread_message_ids: [4] }],
      streams: [
        { stream_id: denmark, topic: "A", unread_message_ids: [6] },
        { stream_id: denmark, topic: "a", unread_message_ids: [1] },
        { stream_id: denmark, topic: "b", unread_message_ids: [2] },
        { stream_id: verona, topic: "a", unread_message_ids: [3] },
      ],
      huddles: [
        {
          user_ids_string: [users.hamlet.id, users.othello.id, users.cordelia.id]
            .sort((a, b) => a - b)
            .join(","),
          unread_message_ids: [5],
        },
      ],
      mentions: [6],
      old_unreads_missing: false,
    });
  });

  it("is empty after mark_all_as_read", async () => {
    await server.api.post("/api/v1/mark_all_as_read", { as: server.users.othello });
    expect(await server.running.services.messages.unreadMessages(server.users.othello.id)).toEqual({
      count: 0,
      pms: [],
      streams: [],
      huddles: [],
      mentions: [],
      old_unreads_missing: false,
    });
  });
});
