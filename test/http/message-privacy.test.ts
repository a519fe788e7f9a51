import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import type { TestUser } from "../helpers/test-server.js";
import {
  createStream,
  recordEvents,
  send,
  startMessagingServer,
  subscribe,
  unsubscribe,
} from "./message-helpers.js";
import type { MessagingServer } from "./message-helpers.js";

let server: MessagingServer;
let secret: number;
let vault: number;
let denmark: number;

/**
 * 1: "secret" (private, history not shared; hamlet, othello), 2: "vault" (private, shared history;
 * hamlet), 3: "Denmark" (public; hamlet), 4: private hamlet → othello.
 */
beforeEach(async () => {
  server = await startMessagingServer();
  const { hamlet, othello } = server.users;
  secret = await createStream(server, "secret", [hamlet, othello], {
    inviteOnly: true,
    historyPublicToSubscribers: false,
  });
  vault = await createStream(server, "vault", [hamlet], {
    inviteOnly: true,
    historyPublicToSubscribers: true,
  });
  denmark = await createStream(server, "Denmark", [hamlet]);
  await send(server, hamlet, { type: "stream", to: "secret", topic: "plans", content: "secret plans" });
  await send(server, hamlet, { type: "stream", to: "vault", topic: "gold", content: "vault gold" });
  await send(server, hamlet, { type: "stream", to: "Denmark", topic: "news", content: "public news" });
  await send(server, hamlet, { type: "private", to: JSON.stringify([othello.email]), content: "just us" });
});
afterEach(async () => {
  await server.close();
});

const invalid = { result: "error", msg: "Invalid message(s)", code: "BAD_REQUEST" };

async function visible(as: TestUser, narrow: unknown[] = []): Promise<[number, string[]][]> {
  const res = await server.api.get("/api/v1/messages", {
    as,
    params: { anchor: "oldest", num_before: 0, num_after: 100, narrow },
  });
  expect(res.status).toBe(200);
  return res.body.messages.map((m: { id: number; flags: string[] }) => [m.id, m.flags]);
}

describe("message privacy", () => {
  it("shows outsiders no private stream or private message in any fetch", async () => {
    const { users } = server;
    for (const who of [users.cordelia, users.iago, users.polonius]) {
      expect(await visible(who)).toEqual([]);
      expect(await visible(who, [["stream", "secret"]])).toEqual([]);
      expect(await visible(who, [["stream", "vault"]])).toEqual([]);
      expect(await visible(who, [["is", "private"]])).toEqual([]);
      expect(await visible(who, [["sender", users.hamlet.email]])).toEqual([]);
      expect(await visible(who, [["topic", "plans"]])).toEqual([]);
    }
    // A public stream's history is readable by members (not guests) through a stream narrow.
    expect(await visible(users.cordelia, [["stream", "Denmark"]])).toEqual([[3, ["read", "historical"]]]);
    expect(await visible(users.polonius, [["stream", "Denmark"]])).toEqual([]);
  });

  it("answers Invalid message(s) on every single-message endpoint", async () => {
    const { api, users } = server;
    for (const who of [users.cordelia, users.iago]) {
      for (const id of [1, 2, 4]) {
        for (const res of [
          await api.get(`/api/v1/messages/${id}`, { as: who }),
          await api.get(`/api/v1/messages/${id}/history`, { as: who }),
          await api.patch(`/api/v1/messages/${id}`, { as: who, params: { topic: "leak" } }),
          await api.delete(`/api/v1/messages/${id}`, { as: who }),
          await api.post("/api/v1/messages/flags", {
            as: who,
            params: { messages: [id], op: "add", flag: "starred" },
          }),
          await api.post("/api/v1/messages/flags", {
            as: who,
            params: { messages: [id], op: "add", flag: "read" },
          }),
        ]) {
          expect([res.status, res.body]).toEqual([400, invalid]);
        }
      }
    }
    // A guest cannot read a public stream's messages without subscribing.
    const guest = await api.get("/api/v1/messages/3", { as: users.polonius });
    expect([guest.status, guest.body]).toEqual([400, invalid]);
  });

  it("refuses mark_stream_as_read and sending to outsiders of a private stream", async () => {
    const { api, users } = server;
    const mark = await api.post("/api/v1/mark_stream_as_read", {
      as: users.cordelia,
      params: { stream_id: secret },
    });
    expect([mark.status, mark.body]).toEqual([
      400,
      { result: "error", msg: "Invalid stream ID", code: "BAD_REQUEST" },
    ]);
    const post = await api.post("/api/v1/messages", {
      as: users.iago,
      params: { type: "stream", to: "secret", topic: "t", content: "hi" },
    });
    expect([post.status, post.body]).toEqual([
      400,
      { result: "error", msg: "Not authorized to send to stream 'secret'", code: "BAD_REQUEST" },
    ]);
  });

  it("shows a new subscriber earlier messages only when history is shared", async () => {
    const { api, users } = server;
    await subscribe(server, secret, users.cordelia);
    await subscribe(server, vault, users.cordelia);
    expect(await visible(users.cordelia, [["stream", "secret"]])).toEqual([]);
    expect((await api.get("/api/v1/messages/1", { as: users.cordelia })).body).toEqual(invalid);
    expect(await visible(users.cordelia, [["stream", "vault"]])).toEqual([[2, ["read", "historical"]]]);
    expect((await api.get("/api/v1/messages/2/history", { as: users.cordelia })).status).toBe(200);
    // New messages reach her in both.
    const id = await send(server, users.hamlet, {
      type: "stream",
      to: "secret",
      topic: "plans",
      content: "welcome",
    });
    expect(await visible(users.cordelia, [["stream", "secret"]])).toEqual([[id, []]]);
  });

  it("lets a guest read a public stream's history once subscribed", async () => {
    await subscribe(server, denmark, server.users.polonius);
    expect(await visible(server.users.polonius, [["stream", "Denmark"]])).toEqual([
      [3, ["read", "historical"]],
    ]);
  });

  it("keeps the messages a user received after they unsubscribe", async () => {
    const { users } = server;
    await unsubscribe(server, secret, users.othello);
    expect(await visible(users.othello, [["stream", "secret"]])).toEqual([[1, []]]);
    await send(server, users.hamlet, { type: "stream", to: "secret", topic: "plans", content: "after" });
    expect(await visible(users.othello, [["stream", "secret"]])).toEqual([[1, []]]);
  });

  it("delivers private stream messages only to subscribers, even when others are mentioned", async () => {
    const { users } = server;
    const log = recordEvents(server);
    await send(server, users.hamlet, {
      type: "stream",
      to: "secret",
      topic: "plans",
      content: "@**Cordelia, Lear's daughter** @**all**",
    });
    expect(log.map((p) => p.recipients)).toEqual([
      [
        { id: users.hamlet.id, flags: ["read", "wildcard_mentioned"] },
        { id: users.othello.id, flags: ["wildcard_mentioned"] },
      ],
    ]);
    expect(await visible(users.cordelia)).toEqual([]);
  });

  it("does not link a private stream for a sender who cannot see it", async () => {
    const { api, users } = server;
    await subscribe(server, denmark, users.cordelia);
    const id = await send(server, users.cordelia, {
      type: "stream",
      to: "Denmark",
      topic: "t",
      content: "#**secret**",
    });
    const got = await api.get(`/api/v1/messages/${id}`, { as: users.cordelia });
    expect(got.body.message.content).toBe("<p>#<strong>secret</strong></p>");
    const linked = await send(server, users.hamlet, {
      type: "stream",
      to: "Denmark",
      topic: "t",
      content: "#**secret**",
    });
    const shown = await api.get(`/api/v1/messages/${linked}`, { as: users.hamlet });
    expect(shown.body.message.content).toBe(
      `<p><a class="stream" data-stream-id="${secret}" href="/#narrow/stream/${secret}-secret">#secret</a></p>`,
    );
  });
});
