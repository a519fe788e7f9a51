import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { drainEvents, registerQueue } from "../helpers/events.js";
import { T0, createStream, send, startMessagingServer } from "./message-helpers.js";
import type { MessagingServer } from "./message-helpers.js";

/**
 * Archived streams (Zulip 10.0-11.0, feature levels 315, 362, 378, 388): DELETE /streams/{id}
 * archives, keeping the name and the history; `is_archived` in stream objects; GET /streams
 * `exclude_archived`; PATCH /streams/{id} `is_archived: false` unarchives; posting is refused.
 *
 * Users: iago 1 (owner), hamlet 3, othello 4 (members), polonius 6 (guest).
 * Streams: 1 general, 2 Denmark (hamlet, othello), 3 secret (private: othello).
 */
let server: MessagingServer;
let denmark: number;
let secret: number;

const ok = { result: "success", msg: "" };
const error = (msg: string) => ({ result: "error", msg, code: "BAD_REQUEST" });
const NOBODY = { direct_members: [], direct_subgroups: [] };

const DENMARK = {
  stream_id: 2,
  name: "Denmark",
  description: "",
  rendered_description: "",
  date_created: T0,
  invite_only: false,
  is_web_public: false,
  stream_post_policy: 1,
  message_retention_days: null,
  history_public_to_subscribers: true,
  first_message_id: 1,
  is_announcement_only: false,
  stream_weekly_traffic: null,
  is_archived: true,
  creator_id: null,
  is_recently_active: true,
  topics_policy: "inherit",
  can_add_subscribers_group: NOBODY,
  can_administer_channel_group: NOBODY,
  can_remove_subscribers_group: 2,
  can_send_message_group: 6,
  can_subscribe_group: NOBODY,
};

beforeEach(async () => {
  server = await startMessagingServer();
  const { hamlet, othello } = server.users;
  denmark = await createStream(server, "Denmark", [hamlet, othello]);
  secret = await createStream(server, "secret", [othello], { inviteOnly: true });
  await send(server, hamlet, { type: "stream", to: "Denmark", topic: "castle", content: "before" });
  for (const id of [denmark, secret]) {
    const res = await server.api.delete(`/api/v1/streams/${id}`, { as: server.users.iago });
    expect(res.body).toEqual(ok);
  }
});
afterEach(async () => {
  await server.close();
});

const streamNames = async (as: MessagingServer["users"]["iago"], params: Record<string, boolean>) => {
  const res = await server.api.get("/api/v1/streams", { as, params });
  expect(res.status).toBe(200);
  return (res.body.streams as { name: string; is_archived: boolean }[]).map((s) => [s.name, s.is_archived]);
};

describe("archived streams", () => {
  it("GET /streams/{id} answers an archived stream with is_archived, to those who may see it", async () => {
    const { iago, hamlet, polonius } = server.users;
    expect((await server.api.get(`/api/v1/streams/${denmark}`, { as: hamlet })).body).toEqual({
      ...ok,
      stream: DENMARK,
    });
    const guest = await server.api.get(`/api/v1/streams/${denmark}`, { as: polonius });
    expect([guest.status, guest.body]).toEqual([400, error("Invalid stream ID")]);
    const privateOne = await server.api.get(`/api/v1/streams/${secret}`, { as: hamlet });
    expect([privateOne.status, privateOne.body]).toEqual([400, error("Invalid stream ID")]);
    const admin = await server.api.get(`/api/v1/streams/${secret}`, { as: iago });
    expect([admin.body.stream.name, admin.body.stream.is_archived]).toEqual(["secret", true]);
  });

  it("GET /streams leaves archived streams out unless exclude_archived is false", async () => {
    const { iago, hamlet } = server.users;
    expect(await streamNames(hamlet, {})).toEqual([["general", false]]);
    expect(await streamNames(hamlet, { exclude_archived: false })).toEqual([
      ["Denmark", true],
      ["general", false],
    ]);
    expect(await streamNames(iago, { exclude_archived: false, include_all: true })).toEqual([
      ["Denmark", true],
      ["general", false],
      ["secret", true],
    ]);
  });

  it("refuses posting by id and by name, and keeps the history readable", async () => {
    const { hamlet } = server.users;
    for (const to of [denmark, "Denmark"]) {
      const res = await server.api.post("/api/v1/messages", {
        as: hamlet,
        params: { type: "stream", to, topic: "castle", content: "after" },
      });
      expect([res.status, res.body]).toEqual([400, error("Not authorized to send to stream 'Denmark'")]);
    }
    const history = await server.api.get("/api/v1/messages", {
      as: hamlet,
      params: {
        anchor: "newest",
        num_before: 10,
        num_after: 0,
        narrow: [{ operator: "channel", operand: denmark }],
      },
    });
    expect(history.status).toBe(200);
    expect(history.body.messages.map((m: { content: string }) => m.content)).toEqual(["<p>before</p>"]);
  });

  it("keeps the name taken: no new stream, no rename to it", async () => {
    const { iago, hamlet } = server.users;
    const subscribe = await server.api.post("/api/v1/users/me/subscriptions", {
      as: hamlet,
      params: { subscriptions: [{ name: "denmark" }] },
    });
    expect([subscribe.status, subscribe.body]).toEqual([400, error("Stream 'Denmark' is archived.")]);
    const rename = await server.api.patch("/api/v1/streams/1", { as: iago, params: { new_name: "Denmark" } });
    expect([rename.status, rename.body]).toEqual([400, error("Stream name 'Denmark' is already taken.")]);
  });

  it("PATCH is_archived false unarchives for administrators, with a stream create event", async () => {
    const { iago, hamlet } = server.users;
    const q = await registerQueue(server, hamlet, { event_types: ["stream"] });
    const denied = await server.api.patch(`/api/v1/streams/${denmark}`, {
      as: hamlet,
      params: { is_archived: false },
    });
    expect([denied.status, denied.body]).toEqual([
      400,
      { result: "error", msg: "Must be an organization administrator", code: "UNAUTHORIZED_PRINCIPAL" },
    ]);
    const res = await server.api.patch(`/api/v1/streams/${denmark}`, {
      as: iago,
      params: { is_archived: false },
    });
    expect(res.body).toEqual(ok);
    expect(await drainEvents(q)).toEqual([
      { id: 0, type: "stream", op: "create", streams: [{ ...DENMARK, is_archived: false }] },
    ]);
    expect(await streamNames(hamlet, {})).toEqual([
      ["Denmark", false],
      ["general", false],
    ]);
    // Subscriptions were removed by archiving; a new one can post again.
    const joined = await server.api.post("/api/v1/users/me/subscriptions", {
      as: hamlet,
      params: { subscriptions: [{ name: "Denmark" }] },
    });
    expect(joined.body).toEqual({
      ...ok,
      subscribed: { [hamlet.email]: ["Denmark"] },
      already_subscribed: {},
    });
    await send(server, hamlet, { type: "stream", to: "Denmark", topic: "castle", content: "after" });
    // Unarchiving a stream that is not archived changes nothing.
    expect(
      (await server.api.patch(`/api/v1/streams/${denmark}`, { as: iago, params: { is_archived: false } }))
        .body,
    ).toEqual(ok);
    expect(await drainEvents(q)).toEqual([]);
  });

  it("PATCH is_archived true archives as DELETE does", async () => {
    const { iago, hamlet } = server.users;
    await server.api.patch(`/api/v1/streams/${denmark}`, { as: iago, params: { is_archived: false } });
    const q = await registerQueue(server, hamlet, { event_types: ["stream"] });
    expect(
      (await server.api.patch(`/api/v1/streams/${denmark}`, { as: iago, params: { is_archived: true } }))
        .body,
    ).toEqual(ok);
    // Delete events carry whole stream objects here, where Zulip's schema (level 369) lists ids only.
    expect(await drainEvents(q, { skipSchemaCheck: true })).toEqual([
      { id: 0, type: "stream", op: "delete", streams: [{ ...DENMARK, is_archived: false }] },
    ]);
  });
});
