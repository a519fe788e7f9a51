import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import {
  T0,
  createStream,
  expectedStreamMessage,
  recordEvents,
  send,
  startMessagingServer,
  subscribe,
} from "./message-helpers.js";
import type { MessagingServer } from "./message-helpers.js";

let server: MessagingServer;
let denmark: number;

beforeEach(async () => {
  server = await startMessagingServer();
  const { hamlet, othello, iago } = server.users;
  denmark = await createStream(server, "Denmark", [hamlet, othello, iago]);
});
afterEach(async () => {
  await server.close();
});

const ok = { result: "success", msg: "" };
const error = (msg: string) => ({ result: "error", msg, code: "BAD_REQUEST" });

async function topics(): Promise<[number, string][]> {
  const res = await server.api.get("/api/v1/messages", {
    as: server.users.hamlet,
    params: { anchor: "oldest", num_before: 0, num_after: 20 },
  });
  return res.body.messages.map((m: { id: number; subject: string }) => [m.id, m.subject]);
}

describe("PATCH /api/v1/messages/{id}", () => {
  it("edits the content and records the edit in the message", async () => {
    const { api, users } = server;
    await send(server, users.hamlet, { type: "stream", to: "Denmark", topic: "t", content: "hello" });
    server.clock.advance(60_000);
    const res = await api.patch("/api/v1/messages/1", {
      as: users.hamlet,
      params: { content: "new **content**" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(ok);
    const got = await api.get("/api/v1/messages/1", { as: users.othello });
    expect(got.body).toEqual({
      ...ok,
      raw_content: "new **content**",
      message: {
        ...expectedStreamMessage(server, {
          id: 1,
          sender: "hamlet",
          content: "<p>new <strong>content</strong></p>",
          topic: "t",
          stream: "Denmark",
          streamId: denmark,
          recipientId: 1,
          flags: [],
        }),
        last_edit_timestamp: T0 + 60,
        edit_history: [
          {
            user_id: users.hamlet.id,
            timestamp: T0 + 60,
            prev_content: "hello",
            prev_rendered_content: "<p>hello</p>",
          },
        ],
      },
    });
  });

  it("turns empty content into (deleted)", async () => {
    const { api, users } = server;
    await send(server, users.hamlet, { type: "stream", to: "Denmark", topic: "t", content: "hello" });
    expect(
      (await api.patch("/api/v1/messages/1", { as: users.hamlet, params: { content: "  " } })).body,
    ).toEqual(ok);
    expect((await api.get("/api/v1/messages/1", { as: users.hamlet })).body.raw_content).toBe("(deleted)");
  });

  it("edits the topic of one message by default", async () => {
    const { api, users } = server;
    for (let i = 0; i < 3; i++)
      await send(server, users.hamlet, { type: "stream", to: "Denmark", topic: "a", content: "x" });
    expect(
      (await api.patch("/api/v1/messages/2", { as: users.hamlet, params: { topic: "b" } })).body,
    ).toEqual(ok);
    expect(await topics()).toEqual([
      [1, "a"],
      [2, "b"],
      [3, "a"],
    ]);
    const got = await api.get("/api/v1/messages/2", { as: users.hamlet });
    expect(got.body.message.edit_history).toEqual([
      { user_id: users.hamlet.id, timestamp: T0, prev_topic: "a", topic: "b" },
    ]);
  });

  it("moves later messages with change_later and the whole topic with change_all", async () => {
    const { api, users } = server;
    for (let i = 0; i < 4; i++)
      await send(server, users.hamlet, { type: "stream", to: "Denmark", topic: "a", content: "x" });
    await send(server, users.hamlet, { type: "stream", to: "Denmark", topic: "other", content: "x" });
    const later = await api.patch("/api/v1/messages/3", {
      as: users.hamlet,
      params: { topic: "b", propagate_mode: "change_later" },
    });
    expect(later.body).toEqual(ok);
    expect(await topics()).toEqual([
      [1, "a"],
      [2, "a"],
      [3, "b"],
      [4, "b"],
      [5, "other"],
    ]);
    const all = await api.patch("/api/v1/messages/4", {
      as: users.hamlet,
      params: { topic: "c", propagate_mode: "change_all" },
    });
    expect(all.body).toEqual(ok);
    expect(await topics()).toEqual([
      [1, "a"],
      [2, "a"],
      [3, "c"],
      [4, "c"],
      [5, "other"],
    ]);
  });

  it("tells a topic's resolving and unresolving in it, from the Notification Bot, as Zulip does", async () => {
    const { api, users } = server;
    await send(server, users.hamlet, { type: "stream", to: "Denmark", topic: "outage", content: "down" });
    await send(server, users.othello, { type: "stream", to: "Denmark", topic: "outage", content: "still" });
    const last = async (): Promise<{ subject: string; content: string; sender_email: string }[]> => {
      const res = await api.get("/api/v1/messages", {
        as: users.hamlet,
        params: { anchor: "newest", num_before: 20, num_after: 0, apply_markdown: false },
      });
      return res.body.messages.map((m: { subject: string; content: string; sender_email: string }) => ({
        subject: m.subject,
        content: m.content,
        sender_email: m.sender_email,
      }));
    };
    const resolve = await api.patch("/api/v1/messages/1", {
      as: users.iago,
      params: { topic: "✔ outage", propagate_mode: "change_all" },
    });
    expect(resolve.body).toEqual(ok);
    const iago = users.iago;
    expect(await last()).toEqual([
      { subject: "✔ outage", content: "down", sender_email: users.hamlet.email },
      { subject: "✔ outage", content: "still", sender_email: users.othello.email },
      {
        subject: "✔ outage",
        content: `@_**Iago|${iago.id}** has marked this topic as resolved.`,
        sender_email: "notification-bot@zulip.com",
      },
    ]);
    const unresolve = await api.patch("/api/v1/messages/1", {
      as: users.hamlet,
      params: { topic: "outage", propagate_mode: "change_all" },
    });
    expect(unresolve.body).toEqual(ok);
    const after = await last();
    expect(after.map((m) => m.subject)).toEqual(["outage", "outage", "outage", "outage"]);
    expect(after[3]).toEqual({
      subject: "outage",
      content: `@_**King Hamlet|${users.hamlet.id}** has marked this topic as unresolved.`,
      sender_email: "notification-bot@zulip.com",
    });
    // A rename that is not the same name with or without the mark says nothing.
    await api.patch("/api/v1/messages/1", {
      as: users.hamlet,
      params: { topic: "✔ another", propagate_mode: "change_all" },
    });
    expect(await last()).toHaveLength(4);
  });

  it("lets an administrator edit the topic of someone else's message, not its content", async () => {
    const { api, users } = server;
    await send(server, users.hamlet, { type: "stream", to: "Denmark", topic: "a", content: "x" });
    expect((await api.patch("/api/v1/messages/1", { as: users.iago, params: { topic: "b" } })).body).toEqual(
      ok,
    );
    const content = await api.patch("/api/v1/messages/1", { as: users.iago, params: { content: "y" } });
    expect(content.status).toBe(400);
    expect(content.body).toEqual(error("You don't have permission to edit this message"));
  });

  it("updates mention flags when the content changes", async () => {
    const { api, users } = server;
    await send(server, users.hamlet, { type: "stream", to: "Denmark", topic: "a", content: "x" });
    await api.patch("/api/v1/messages/1", {
      as: users.hamlet,
      params: { content: "@**Othello, the Moor of Venice**" },
    });
    expect((await api.get("/api/v1/messages/1", { as: users.othello })).body.message.flags).toEqual([
      "mentioned",
    ]);
    await api.patch("/api/v1/messages/1", { as: users.hamlet, params: { content: "nobody" } });
    expect((await api.get("/api/v1/messages/1", { as: users.othello })).body.message.flags).toEqual([]);
  });

  describe("errors", () => {
    beforeEach(async () => {
      const { users } = server;
      await send(server, users.hamlet, { type: "stream", to: "Denmark", topic: "a", content: "x" });
      await send(server, users.hamlet, {
        type: "private",
        to: JSON.stringify([users.othello.email]),
        content: "pm",
      });
    });
    const cases: [string, string, "hamlet" | "othello", Record<string, string>, Record<string, unknown>][] = [
      ["an unknown message", "/api/v1/messages/99", "hamlet", { content: "y" }, error("Invalid message(s)")],
      [
        "someone else's message",
        "/api/v1/messages/1",
        "othello",
        { content: "y" },
        error("You don't have permission to edit this message"),
      ],
      [
        "a member moving someone else's topic",
        "/api/v1/messages/1",
        "othello",
        { topic: "b" },
        error("You don't have permission to edit this message"),
      ],
      ["nothing to change", "/api/v1/messages/1", "hamlet", {}, error("Nothing to change")],
      ["the same topic", "/api/v1/messages/1", "hamlet", { topic: "a" }, error("Nothing to change")],
      ["a blank topic", "/api/v1/messages/1", "hamlet", { topic: "  " }, error("Topic can't be empty")],
      [
        "a topic on a private message",
        "/api/v1/messages/2",
        "hamlet",
        { topic: "b" },
        error("Private messages cannot have topics."),
      ],
      [
        "a bad propagate_mode",
        "/api/v1/messages/1",
        "hamlet",
        { topic: "b", propagate_mode: "sideways" },
        error("Invalid propagate_mode"),
      ],
      [
        "propagate_mode without a topic edit",
        "/api/v1/messages/1",
        "hamlet",
        { content: "y", propagate_mode: "change_all" },
        error("Invalid propagate_mode without topic edit"),
      ],
      [
        "a private message of others",
        "/api/v1/messages/2",
        "othello",
        { content: "y" },
        error("You don't have permission to edit this message"),
      ],
    ];
    it.each(cases)("rejects %s", async (_name, path, who, params, body) => {
      const res = await server.api.patch(path, { as: server.users[who], params });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(body);
    });

    it("rejects a private message the editor never received", async () => {
      const res = await server.api.patch("/api/v1/messages/2", {
        as: server.users.cordelia,
        params: { content: "y" },
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(error("Invalid message(s)"));
    });
  });

  describe("events", () => {
    it("publishes update_message for a content edit to everyone who has the message", async () => {
      const { api, users } = server;
      await send(server, users.hamlet, { type: "stream", to: "Denmark", topic: "t", content: "hello" });
      // cordelia subscribes later: she has no row, but hears about the edit (shared history).
      await subscribe(server, denmark, users.cordelia);
      const log = recordEvents(server);
      server.clock.advance(5_000);
      await api.patch("/api/v1/messages/1", { as: users.hamlet, params: { content: "new content" } });
      expect(log).toEqual([
        {
          event: {
            type: "update_message",
            user_id: users.hamlet.id,
            edit_timestamp: T0 + 5,
            message_id: 1,
            message_ids: [1],
            rendering_only: false,
            stream_name: "Denmark",
            stream_id: denmark,
            orig_content: "hello",
            orig_rendered_content: "<p>hello</p>",
            content: "new content",
            rendered_content: "<p>new content</p>",
            is_me_message: false,
          },
          recipients: [
            { id: users.iago.id, flags: [] },
            { id: users.hamlet.id, flags: ["read"] },
            { id: users.othello.id, flags: [] },
            { id: users.cordelia.id, flags: ["read"] },
          ],
        },
      ]);
    });

    it("publishes update_message for a topic move with every moved id", async () => {
      const { api, users } = server;
      for (let i = 0; i < 3; i++)
        await send(server, users.hamlet, { type: "stream", to: "Denmark", topic: "a", content: "x" });
      const log = recordEvents(server);
      await api.patch("/api/v1/messages/2", {
        as: users.hamlet,
        params: { topic: "b", propagate_mode: "change_all" },
      });
      expect(log).toEqual([
        {
          event: {
            type: "update_message",
            user_id: users.hamlet.id,
            edit_timestamp: T0,
            message_id: 2,
            message_ids: [1, 2, 3],
            rendering_only: false,
            stream_name: "Denmark",
            stream_id: denmark,
            propagate_mode: "change_all",
            orig_subject: "a",
            subject: "b",
            topic_links: [],
          },
          recipients: [
            { id: users.iago.id, flags: [] },
            { id: users.hamlet.id, flags: ["read"] },
            { id: users.othello.id, flags: [] },
          ],
        },
      ]);
    });

    it("publishes nothing when the edit is rejected", async () => {
      await send(server, server.users.hamlet, {
        type: "stream",
        to: "Denmark",
        topic: "t",
        content: "hello",
      });
      const log = recordEvents(server);
      await server.api.patch("/api/v1/messages/1", { as: server.users.othello, params: { content: "x" } });
      expect(log).toEqual([]);
    });
  });
});
