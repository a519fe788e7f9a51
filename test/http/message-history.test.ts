import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { T0, createStream, send, startMessagingServer } from "./message-helpers.js";
import type { MessagingServer } from "./message-helpers.js";

let server: MessagingServer;

beforeEach(async () => {
  server = await startMessagingServer();
  const { hamlet, othello, iago } = server.users;
  await createStream(server, "Denmark", [hamlet, othello, iago]);
});
afterEach(async () => {
  await server.close();
});

const history = (id: number | string, as = server.users.othello) =>
  server.api.get(`/api/v1/messages/${id}/history`, { as });

describe("GET /api/v1/messages/{id}/history", () => {
  it("has only the original snapshot when the message was never edited", async () => {
    await send(server, server.users.hamlet, { type: "stream", to: "Denmark", topic: "t", content: "hello" });
    const res = await history(1);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      result: "success",
      msg: "",
      message_history: [
        {
          topic: "t",
          content: "hello",
          rendered_content: "<p>hello</p>",
          timestamp: T0,
          user_id: server.users.hamlet.id,
        },
      ],
    });
  });

  it("adds a snapshot per edit: content edits carry the diff, topic edits prev_topic", async () => {
    const { api, users } = server;
    await send(server, users.hamlet, { type: "stream", to: "Denmark", topic: "t", content: "hello" });
    server.clock.advance(10_000);
    await api.patch("/api/v1/messages/1", { as: users.hamlet, params: { content: "new content" } });
    server.clock.advance(10_000);
    await api.patch("/api/v1/messages/1", { as: users.iago, params: { topic: "t2" } });
    server.clock.advance(10_000);
    await api.patch("/api/v1/messages/1", {
      as: users.hamlet,
      params: { content: "new content here", topic: "t3" },
    });
    const res = await history(1);
    expect(res.body).toEqual({
      result: "success",
      msg: "",
      message_history: [
        {
          topic: "t",
          content: "hello",
          rendered_content: "<p>hello</p>",
          timestamp: T0,
          user_id: users.hamlet.id,
        },
        {
          topic: "t",
          content: "new content",
          rendered_content: "<p>new content</p>",
          timestamp: T0 + 10,
          user_id: users.hamlet.id,
          prev_content: "hello",
          prev_rendered_content: "<p>hello</p>",
          content_html_diff:
            '<p><span class="highlight_text_deleted">hello</span><span class="highlight_text_inserted">new content</span></p>',
        },
        {
          topic: "t2",
          content: "new content",
          rendered_content: "<p>new content</p>",
          timestamp: T0 + 20,
          user_id: users.iago.id,
          prev_topic: "t",
        },
        {
          topic: "t3",
          content: "new content here",
          rendered_content: "<p>new content here</p>",
          timestamp: T0 + 30,
          user_id: users.hamlet.id,
          prev_topic: "t2",
          prev_content: "new content",
          prev_rendered_content: "<p>new content</p>",
          content_html_diff: '<p>new content<span class="highlight_text_inserted"> here</span></p>',
        },
      ],
    });
  });

  it("answers Invalid message(s) for an unknown message", async () => {
    const res = await history(42);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: "error", msg: "Invalid message(s)", code: "BAD_REQUEST" });
  });

  it("answers Invalid message(s) for a private message of others", async () => {
    const { users } = server;
    await send(server, users.hamlet, {
      type: "private",
      to: JSON.stringify([users.othello.email]),
      content: "pm",
    });
    const res = await history(1, users.cordelia);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: "error", msg: "Invalid message(s)", code: "BAD_REQUEST" });
  });
});
