import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { createStream, recordEvents, send, startMessagingServer, subscribe } from "./message-helpers.js";
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

const error = (msg: string) => ({ result: "error", msg, code: "BAD_REQUEST" });

describe("DELETE /api/v1/messages/{id}", () => {
  it("lets an administrator delete a message permanently", async () => {
    const { api, users } = server;
    await send(server, users.hamlet, { type: "stream", to: "Denmark", topic: "t", content: "oops" });
    const res = await api.delete("/api/v1/messages/1", { as: users.iago });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: "success", msg: "" });
    const fetched = await api.get("/api/v1/messages", {
      as: users.othello,
      params: { anchor: "newest", num_before: 5, num_after: 0 },
    });
    expect(fetched.body.messages).toEqual([]);
    const again = await api.delete("/api/v1/messages/1", { as: users.iago });
    expect(again.status).toBe(400);
    expect(again.body).toEqual(error("Invalid message(s)"));
  });

  it("refuses members, even for their own messages", async () => {
    const { api, users } = server;
    await send(server, users.hamlet, { type: "stream", to: "Denmark", topic: "t", content: "mine" });
    for (const who of [users.hamlet, users.othello]) {
      const res = await api.delete("/api/v1/messages/1", { as: who });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(error("You don't have permission to delete this message"));
    }
  });

  it("answers Invalid message(s) for an unknown message", async () => {
    const res = await server.api.delete("/api/v1/messages/77", { as: server.users.iago });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error("Invalid message(s)"));
  });

  it("answers Invalid message(s) to an administrator who cannot read the message", async () => {
    const { api, users } = server;
    await send(server, users.hamlet, {
      type: "private",
      to: JSON.stringify([users.othello.email]),
      content: "pm",
    });
    const res = await api.delete("/api/v1/messages/1", { as: users.iago });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error("Invalid message(s)"));
  });

  describe("events", () => {
    it("publishes delete_message to everyone who had the stream message and to subscribers", async () => {
      const { api, users } = server;
      await send(server, users.hamlet, { type: "stream", to: "Denmark", topic: "t", content: "oops" });
      await subscribe(server, denmark, users.cordelia);
      const log = recordEvents(server);
      await api.delete("/api/v1/messages/1", { as: users.iago });
      expect(log).toEqual([
        {
          event: {
            type: "delete_message",
            message_ids: [1],
            message_type: "stream",
            stream_id: denmark,
            topic: "t",
          },
          recipients: [users.iago.id, users.hamlet.id, users.othello.id, users.cordelia.id],
        },
      ]);
    });

    it("publishes delete_message for a private message to its participants", async () => {
      const { api, users } = server;
      await send(server, users.iago, {
        type: "private",
        to: JSON.stringify([users.othello.email]),
        content: "pm",
      });
      const log = recordEvents(server);
      await api.delete("/api/v1/messages/1", { as: users.iago });
      expect(log).toEqual([
        {
          event: { type: "delete_message", message_ids: [1], message_type: "private" },
          recipients: [users.iago.id, users.othello.id],
        },
      ]);
    });

    it("publishes nothing when the deletion is refused", async () => {
      await send(server, server.users.hamlet, { type: "stream", to: "Denmark", topic: "t", content: "x" });
      const log = recordEvents(server);
      await server.api.delete("/api/v1/messages/1", { as: server.users.hamlet });
      expect(log).toEqual([]);
    });
  });
});
