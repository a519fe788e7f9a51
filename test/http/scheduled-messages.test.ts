import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { ManualClock } from "../../src/clock.js";
import { defaultConfig } from "../../src/config.js";
import { silentLogger } from "../../src/lib/logger.js";
import { startServer } from "../../src/server.js";
import { apiClient } from "../helpers/client.js";
import { drainEvents, registerQueue } from "../helpers/events.js";
import type { TestUser } from "../helpers/test-server.js";
import { T0, createStream, startMessagingServer } from "./message-helpers.js";
import type { MessagingServer } from "./message-helpers.js";

// Seeded users: iago (1, owner), hamlet (3), othello (4), cordelia (5), polonius (6, guest).
// The clock starts at T0 and moves only when a test advances it.
let server: MessagingServer;
let denmark: number;
let secret: number;
beforeEach(async () => {
  server = await startMessagingServer();
  const { users } = server;
  denmark = await createStream(server, "Denmark", [users.hamlet, users.othello]);
  secret = await createStream(server, "secret", [users.othello], { inviteOnly: true });
});
afterEach(async () => {
  await server.close();
});

const ok = { result: "success", msg: "" };
const error = (msg: string) => ({ result: "error", msg, code: "BAD_REQUEST" });
const HOUR = 3600;

const schedule = (as: TestUser, params: Record<string, unknown>) =>
  server.api.post("/api/v1/scheduled_messages", { as, params: params as Record<string, string> });

async function lastMessage(as: TestUser): Promise<Record<string, unknown>> {
  const res = await server.api.get("/api/v1/messages", {
    as,
    params: { anchor: "newest", num_before: 1, num_after: 0, apply_markdown: false },
  });
  return (res.body.messages as Record<string, unknown>[])[0] ?? {};
}

describe("scheduled messages", () => {
  it("schedules, lists, edits and cancels, with events and register", async () => {
    const { api, users } = server;
    const q = await registerQueue(server, users.hamlet, { event_types: ["scheduled_messages"] });
    const stream = await schedule(users.hamlet, {
      type: "stream",
      to: denmark,
      topic: "castle",
      content: "**Later**",
      scheduled_delivery_timestamp: T0 + 2 * HOUR,
    });
    expect(stream.body).toEqual({ ...ok, scheduled_message_id: 1 });
    const direct = await schedule(users.hamlet, {
      type: "direct",
      to: JSON.stringify([users.othello.id, users.hamlet.id]),
      content: "psst",
      scheduled_delivery_timestamp: T0 + HOUR,
    });
    expect(direct.body).toEqual({ ...ok, scheduled_message_id: 2 });
    const s1 = {
      scheduled_message_id: 1,
      to: denmark,
      type: "stream",
      topic: "castle",
      content: "**Later**",
      rendered_content: "<p><strong>Later</strong></p>",
      scheduled_delivery_timestamp: T0 + 2 * HOUR,
      failed: false,
    };
    const s2 = {
      scheduled_message_id: 2,
      to: [users.othello.id],
      type: "private",
      content: "psst",
      rendered_content: "<p>psst</p>",
      scheduled_delivery_timestamp: T0 + HOUR,
      failed: false,
    };
    expect((await api.get("/api/v1/scheduled_messages", { as: users.hamlet })).body).toEqual({
      ...ok,
      scheduled_messages: [s2, s1],
    });
    expect((await api.get("/api/v1/scheduled_messages", { as: users.othello })).body).toEqual({
      ...ok,
      scheduled_messages: [],
    });

    const patch = (id: number, params: Record<string, unknown>) =>
      api.patch(`/api/v1/scheduled_messages/${id}`, {
        as: users.hamlet,
        params: params as Record<string, string>,
      });
    expect((await patch(1, { content: "Sooner", scheduled_delivery_timestamp: T0 + 30 * 60 })).body).toEqual(
      ok,
    );
    // Changing the type needs the recipient (and a topic for a stream).
    expect((await patch(2, { type: "stream", to: denmark, topic: "gossip" })).body).toEqual(ok);
    expect((await api.delete("/api/v1/scheduled_messages/2", { as: users.hamlet })).body).toEqual(ok);
    const s1b = {
      ...s1,
      content: "Sooner",
      rendered_content: "<p>Sooner</p>",
      scheduled_delivery_timestamp: T0 + 1800,
    };
    const s2b = { ...s2, to: denmark, type: "stream", topic: "gossip" };
    expect(await drainEvents(q)).toEqual([
      { id: 0, type: "scheduled_messages", op: "add", scheduled_messages: [s1] },
      { id: 1, type: "scheduled_messages", op: "add", scheduled_messages: [s2] },
      { id: 2, type: "scheduled_messages", op: "update", scheduled_message: s1b },
      { id: 3, type: "scheduled_messages", op: "update", scheduled_message: s2b },
      { id: 4, type: "scheduled_messages", op: "remove", scheduled_message_id: 2 },
    ]);
    const reg = await registerQueue(server, users.hamlet, { fetch_event_types: ["scheduled_messages"] });
    expect(reg.register.scheduled_messages).toEqual([s1b]);
  });

  it("sends each message at its time, once, as its sender; then it is gone from the list", async () => {
    const { api, users, clock } = server;
    const worker = server.running.services.scheduledMessages;
    await schedule(users.hamlet, {
      type: "stream",
      to: denmark,
      topic: "castle",
      content: "On the hour",
      scheduled_delivery_timestamp: T0 + HOUR,
    });
    await schedule(users.hamlet, {
      type: "private",
      to: JSON.stringify([users.othello.id]),
      content: "Two hours",
      scheduled_delivery_timestamp: T0 + 2 * HOUR,
    });
    const q = await registerQueue(server, users.hamlet, { event_types: ["scheduled_messages"] });
    clock.advance((HOUR - 1) * 1000);
    expect(await worker.tick()).toBe(0);
    clock.advance(1000);
    expect(await worker.tick()).toBe(1);
    expect(await worker.tick()).toBe(0);
    expect(await lastMessage(users.othello)).toEqual(
      expect.objectContaining({
        sender_id: users.hamlet.id,
        stream_id: denmark,
        subject: "castle",
        content: "On the hour",
        timestamp: T0 + HOUR,
      }),
    );
    expect(await drainEvents(q)).toEqual([
      { id: 0, type: "scheduled_messages", op: "remove", scheduled_message_id: 1 },
    ]);
    clock.advance(HOUR * 1000);
    expect(await worker.tick()).toBe(1);
    expect(await lastMessage(users.othello)).toEqual(
      expect.objectContaining({ sender_id: users.hamlet.id, type: "private", content: "Two hours" }),
    );
    expect((await api.get("/api/v1/scheduled_messages", { as: users.hamlet })).body).toEqual({
      ...ok,
      scheduled_messages: [],
    });
    // A sent message can no longer be edited or cancelled.
    const gone = await api.delete("/api/v1/scheduled_messages/1", { as: users.hamlet });
    expect([gone.status, gone.body]).toEqual([404, error("Scheduled message does not exist")]);
  });

  it("marks a message that can no longer be sent as failed and tells its sender why", async () => {
    const { api, users, clock } = server;
    await schedule(users.othello, {
      type: "stream",
      to: secret,
      topic: "plans",
      content: "hush",
      scheduled_delivery_timestamp: T0 + HOUR,
    });
    // Othello leaves the private stream before the message is due.
    await api.delete("/api/v1/users/me/subscriptions", {
      as: users.othello,
      params: { subscriptions: JSON.stringify(["secret"]) },
    });
    clock.advance(HOUR * 1000);
    expect(await server.running.services.scheduledMessages.tick()).toBe(1);
    const listed = await api.get("/api/v1/scheduled_messages", { as: users.othello });
    expect(listed.body.scheduled_messages).toEqual([
      expect.objectContaining({ scheduled_message_id: 1, to: secret, failed: true }),
    ]);
    expect(await lastMessage(users.othello)).toEqual(
      expect.objectContaining({
        sender_email: "notification-bot@zulip.com",
        type: "private",
        content:
          "The message you scheduled for <time:2026-01-01 01:00:00+00:00>  was not sent because of the " +
          "following error:\n\n> Not authorized to send to stream 'secret'\n\n[View scheduled messages](#scheduled)",
      }),
    );
    // A failed message needs a new time to be edited; then it is pending again.
    const patch = (params: Record<string, unknown>) =>
      api.patch("/api/v1/scheduled_messages/1", {
        as: users.othello,
        params: params as Record<string, string>,
      });
    expect((await patch({ content: "again" })).body).toEqual(
      error("Scheduled delivery time must be in the future."),
    );
    expect((await patch({ to: denmark, scheduled_delivery_timestamp: T0 + 2 * HOUR })).body).toEqual(ok);
    expect(
      (await api.get("/api/v1/scheduled_messages", { as: users.othello })).body.scheduled_messages,
    ).toEqual([
      expect.objectContaining({ to: denmark, failed: false, scheduled_delivery_timestamp: T0 + 2 * HOUR }),
    ]);
  });

  it("answers Zulip's errors, and a scheduled message is its sender's only", async () => {
    const { api, users } = server;
    const base = {
      type: "stream",
      to: denmark,
      topic: "castle",
      content: "x",
      scheduled_delivery_timestamp: T0 + HOUR,
    };
    const cases: [TestUser, Record<string, unknown>, Record<string, unknown>][] = [
      [
        users.hamlet,
        { ...base, scheduled_delivery_timestamp: T0 },
        error("Scheduled delivery time must be in the future."),
      ],
      [
        users.hamlet,
        { ...base, to: 999 },
        { ...error("Stream with ID '999' does not exist"), code: "STREAM_DOES_NOT_EXIST", stream_id: 999 },
      ],
      [users.hamlet, { ...base, to: secret }, error("Not authorized to send to stream 'secret'")],
      [users.hamlet, { ...base, topic: undefined }, error("Missing topic")],
      [users.hamlet, { ...base, content: "  " }, error("Message must not be empty")],
      [users.hamlet, { ...base, type: "huddle" }, error("Invalid type")],
      [users.hamlet, { ...base, type: "private", to: JSON.stringify([999]) }, error("Invalid user ID 999")],
      [users.hamlet, { ...base, type: "private", to: "[]" }, error("Message must have recipients")],
    ];
    for (const [as, params, body] of cases) {
      expect([params, (await schedule(as, params)).body]).toEqual([params, body]);
    }
    expect((await schedule(users.hamlet, { ...base, content: undefined })).body).toEqual({
      result: "error",
      msg: "Missing 'content' argument",
      code: "REQUEST_VARIABLE_MISSING",
      var_name: "content",
    });
    await schedule(users.hamlet, base);
    const patch = (as: TestUser, id: number, params: Record<string, unknown>) =>
      api.patch(`/api/v1/scheduled_messages/${id}`, { as, params: params as Record<string, string> });
    expect((await patch(users.hamlet, 1, {})).body).toEqual(error("Nothing to change"));
    expect((await patch(users.hamlet, 1, { type: "private" })).body).toEqual(
      error("Recipient required when updating type of scheduled message."),
    );
    expect((await patch(users.hamlet, 1, { type: "stream", to: denmark })).body).toEqual(
      error("Topic required when updating scheduled message type to stream."),
    );
    expect((await patch(users.hamlet, 1, { to: secret })).body).toEqual(
      error("Not authorized to send to stream 'secret'"),
    );
    const others = await patch(users.othello, 1, { content: "mine now" });
    expect([others.status, others.body]).toEqual([404, error("Scheduled message does not exist")]);
    const del = await api.delete("/api/v1/scheduled_messages/1", { as: users.othello });
    expect([del.status, del.body]).toEqual([404, error("Scheduled message does not exist")]);
    expect(
      (await api.get("/api/v1/scheduled_messages", { as: users.hamlet })).body.scheduled_messages,
    ).toEqual([expect.objectContaining({ scheduled_message_id: 1, content: "x" })]);
  });
});

describe("scheduled messages and can_send_message_group", () => {
  it("refuses to schedule to a stream whose can_send_message_group leaves the sender out", async () => {
    const { api, users } = server;
    const onlyHamlet = { direct_members: [users.hamlet.id], direct_subgroups: [] };
    const set = await api.patch(`/api/v1/streams/${denmark}`, {
      as: users.iago,
      params: { can_send_message_group: JSON.stringify({ new: onlyHamlet }) },
    });
    expect(set.body).toEqual(ok);
    const base = {
      type: "stream",
      to: denmark,
      topic: "castle",
      content: "x",
      scheduled_delivery_timestamp: T0 + HOUR,
    };
    const refused = await schedule(users.othello, base);
    expect([refused.status, refused.body]).toEqual([
      400,
      error("You do not have permission to post in this stream."),
    ]);
    expect((await schedule(users.hamlet, base)).body).toEqual({ ...ok, scheduled_message_id: 1 });
    // Moving a scheduled message there is checked the same way.
    const direct = await schedule(users.othello, {
      type: "direct",
      to: JSON.stringify([users.hamlet.id]),
      content: "psst",
      scheduled_delivery_timestamp: T0 + HOUR,
    });
    expect(direct.body).toEqual({ ...ok, scheduled_message_id: 2 });
    const moved = await api.patch("/api/v1/scheduled_messages/2", {
      as: users.othello,
      params: { type: "stream", to: String(denmark), topic: "castle" },
    });
    expect([moved.status, moved.body]).toEqual([
      400,
      error("You do not have permission to post in this stream."),
    ]);
  });
});

describe("scheduled messages across a restart", () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it("are sent by the next server when they fell due while none ran", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "scheduled-durable-"));
    cleanups.push(() => fs.promises.rm(dataDir, { recursive: true, force: true }));
    const clock = new ManualClock(T0 * 1000);
    const config = defaultConfig({
      port: 0,
      dataDir,
      ownerEmail: "iago@zulip.com",
      ownerName: "Iago",
      botDomain: "zulip.com",
      rateLimit: null,
      logLevel: "silent",
    });
    let running = await startServer(config, { clock, logger: silentLogger, ownerPassword: "pw" });
    const iago = running.firstStart!.owner;
    const as = { email: iago.email, apiKey: iago.apiKey };
    const res = await apiClient(running.url).post("/api/v1/scheduled_messages", {
      as,
      params: {
        type: "private",
        to: JSON.stringify([iago.id]),
        content: "note to self",
        scheduled_delivery_timestamp: T0 + 60,
      },
    });
    expect(res.body).toEqual({ ...ok, scheduled_message_id: 1 });
    await running.close();

    clock.advance(3600 * 1000);
    running = await startServer(config, { clock, logger: silentLogger });
    cleanups.push(() => running.close());
    // start() already ran the worker; a tick waits for it (and finds nothing left).
    expect(await running.services.scheduledMessages.tick()).toBe(0);
    const sent = await running.db.all<{ sender_id: number; content: string }>(
      "SELECT sender_id, content FROM messages ORDER BY id DESC LIMIT 1",
    );
    expect(sent).toEqual([{ sender_id: iago.id, content: "note to self" }]);
    expect((await apiClient(running.url).get("/api/v1/scheduled_messages", { as })).body).toEqual({
      ...ok,
      scheduled_messages: [],
    });
  });
});
