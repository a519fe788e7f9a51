import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { drainEvents, registerQueue } from "../helpers/events.js";
import type { ParamValue } from "../helpers/client.js";
import { createStream, startMessagingServer } from "./message-helpers.js";
import type { MessagingServer } from "./message-helpers.js";

/**
 * Group-based permission settings (Zulip's group-setting values): the realm's, the streams' and the
 * user groups', as clients read them and as they govern posting, subscribing, unsubscribing,
 * administering streams, creating streams and mentioning groups.
 *
 * Users: iago 1 (owner), hamlet 3, othello 4, cordelia 5 (members), polonius 6 (guest).
 * Streams: 1 general, 2 Denmark (hamlet, othello), 3 secret (private: othello).
 */
let server: MessagingServer;
let denmark: number;
let secret: number;

const ok = { result: "success", msg: "" };
const NOBODY = { direct_members: [], direct_subgroups: [] };
const error = (msg: string) => ({ result: "error", msg, code: "BAD_REQUEST" });
const notAdmin = {
  result: "error",
  msg: "Must be an organization administrator",
  code: "UNAUTHORIZED_PRINCIPAL",
};
const SUBS = "/api/v1/users/me/subscriptions";

beforeEach(async () => {
  server = await startMessagingServer();
  const { hamlet, othello } = server.users;
  denmark = await createStream(server, "Denmark", [hamlet, othello]);
  secret = await createStream(server, "secret", [othello], { inviteOnly: true });
});
afterEach(async () => {
  await server.close();
});

function patchStream(as: MessagingServer["users"]["iago"], id: number, params: Record<string, ParamValue>) {
  return server.api.patch(`/api/v1/streams/${id}`, { as, params });
}

function sendTo(as: MessagingServer["users"]["iago"], stream: number, content = "hello") {
  return server.api.post("/api/v1/messages", {
    as,
    params: { type: "stream", to: stream, topic: "castle", content },
  });
}

async function streamObject(id: number): Promise<Record<string, unknown>> {
  const res = await server.api.get(`/api/v1/streams/${id}`, { as: server.users.iago });
  return res.body.stream as Record<string, unknown>;
}

describe("stream permission settings", () => {
  it("stream objects carry every setting with Zulip's defaults", async () => {
    const stream = await streamObject(denmark);
    expect({
      can_add_subscribers_group: stream["can_add_subscribers_group"],
      can_administer_channel_group: stream["can_administer_channel_group"],
      can_remove_subscribers_group: stream["can_remove_subscribers_group"],
      can_send_message_group: stream["can_send_message_group"],
      can_subscribe_group: stream["can_subscribe_group"],
    }).toEqual({
      can_add_subscribers_group: NOBODY,
      can_administer_channel_group: NOBODY,
      can_remove_subscribers_group: 2,
      can_send_message_group: 6,
      can_subscribe_group: NOBODY,
    });
  });

  it("can_send_message_group: set by an administrator, sent as a stream update event, enforced on sending", async () => {
    const { iago, hamlet, othello } = server.users;
    const q = await registerQueue(server, othello, { event_types: ["stream"] });
    const onlyHamlet = { direct_members: [hamlet.id], direct_subgroups: [] };
    const res = await patchStream(iago, denmark, { can_send_message_group: { new: onlyHamlet, old: 6 } });
    expect([res.status, res.body]).toEqual([200, ok]);
    expect(await drainEvents(q)).toEqual([
      {
        id: 0,
        type: "stream",
        op: "update",
        property: "can_send_message_group",
        value: onlyHamlet,
        stream_id: denmark,
        name: "Denmark",
      },
    ]);
    expect((await streamObject(denmark))["can_send_message_group"]).toEqual(onlyHamlet);
    const refused = await sendTo(othello, denmark);
    expect([refused.status, refused.body]).toEqual([
      400,
      error("You do not have permission to post in this stream."),
    ]);
    expect((await sendTo(hamlet, denmark)).status).toBe(200);
  });

  it("can_send_message_group of the administrators is the announcement-only flag, both ways", async () => {
    const { iago, hamlet, othello } = server.users;
    const q = await registerQueue(server, othello, { event_types: ["stream"] });
    expect((await patchStream(iago, denmark, { can_send_message_group: { new: 2 } })).body).toEqual(ok);
    const base = { type: "stream", op: "update", stream_id: denmark, name: "Denmark" };
    expect(await drainEvents(q)).toEqual([
      { id: 0, ...base, property: "stream_post_policy", value: 2 },
      { id: 1, ...base, property: "is_announcement_only", value: true },
      { id: 2, ...base, property: "can_send_message_group", value: 2 },
    ]);
    const refused = await sendTo(hamlet, denmark);
    expect([refused.status, refused.body]).toEqual([
      400,
      error("Only organization administrators can send to this stream."),
    ]);
    expect((await sendTo(iago, denmark)).status).toBe(200);
    // Clearing the legacy flag gives the stream back to everyone.
    expect((await patchStream(iago, denmark, { is_announcement_only: false })).body).toEqual(ok);
    const events = await drainEvents(q);
    expect(events.map((e) => [e["property"], e["value"]])).toEqual([
      ["stream_post_policy", 1],
      ["is_announcement_only", false],
      ["can_send_message_group", 6],
    ]);
    expect((await sendTo(hamlet, denmark)).status).toBe(200);
  });

  it("refuses an outdated old value, unknown groups and users, and groups the setting does not allow", async () => {
    const { iago } = server.users;
    const cases: [Record<string, ParamValue>, string][] = [
      [{ can_send_message_group: { new: 2, old: 5 } }, "'old' value does not match the expected value."],
      [{ can_send_message_group: { new: 99 } }, "Invalid user group ID: 99"],
      [
        { can_send_message_group: { new: { direct_members: [999], direct_subgroups: [] } } },
        "Invalid user ID: 999",
      ],
      [
        { can_send_message_group: { new: 7 } },
        "'can_send_message_group' setting cannot be set to 'role:internet' group.",
      ],
      [
        { can_add_subscribers_group: { new: 6 } },
        "'can_add_subscribers_group' setting cannot be set to 'role:everyone' group.",
      ],
      [{ can_send_message_group: 6 }, "can_send_message_group is not a valid group-setting value update"],
      [
        { can_send_message_group: { new: "everyone" } },
        "can_send_message_group.new is not a valid group-setting value",
      ],
    ];
    for (const [params, msg] of cases) {
      const res = await patchStream(iago, denmark, params);
      expect([res.status, res.body]).toEqual([400, error(msg)]);
    }
    const notJson = await server.api.patch(`/api/v1/streams/${denmark}`, {
      as: iago,
      params: { can_send_message_group: "{" },
    });
    expect([notJson.status, notJson.body]).toEqual([
      400,
      error('Argument "can_send_message_group" is not valid JSON.'),
    ]);
    // Nothing changed.
    expect((await streamObject(denmark))["can_send_message_group"]).toEqual(6);
  });

  it("can_administer_channel_group: its members may change the stream; others may not", async () => {
    const { iago, hamlet, othello } = server.users;
    const denied = await patchStream(hamlet, denmark, { description: "Elsinore" });
    expect([denied.status, denied.body]).toEqual([400, notAdmin]);
    const admins = { direct_members: [hamlet.id], direct_subgroups: [] };
    expect(
      (await patchStream(iago, denmark, { can_administer_channel_group: { new: admins } })).body,
    ).toEqual(ok);
    expect((await patchStream(hamlet, denmark, { description: "Elsinore" })).body).toEqual(ok);
    expect((await streamObject(denmark))["description"]).toBe("Elsinore");
    const stillDenied = await patchStream(othello, denmark, { description: "Other" });
    expect([stillDenied.status, stillDenied.body]).toEqual([400, notAdmin]);
    // A channel administrator of a private stream they cannot see learns nothing about it.
    await patchStream(iago, secret, { can_administer_channel_group: { new: admins } });
    const hidden = await patchStream(hamlet, secret, { description: "x" });
    expect([hidden.status, hidden.body]).toEqual([400, error("Invalid stream ID")]);
  });

  it("can_administer_channel_group of a new stream is its creator, who may then change it", async () => {
    const { hamlet, othello } = server.users;
    const q = await registerQueue(server, othello, { event_types: ["stream"] });
    const created = await server.api.post(SUBS, {
      as: hamlet,
      params: { subscriptions: [{ name: "Elsinore" }], principals: [hamlet.email, othello.email] },
    });
    expect(created.status).toBe(200);
    const creator = { direct_members: [hamlet.id], direct_subgroups: [] };
    const events = await drainEvents(q);
    expect(events.map((e) => [e["op"], e["streams"][0]["can_administer_channel_group"]])).toEqual([
      ["create", creator],
    ]);
    const id = events[0]!["streams"][0]["stream_id"] as number;
    expect((await streamObject(id))["can_administer_channel_group"]).toEqual(creator);
    expect((await patchStream(hamlet, id, { description: "Castle" })).body).toEqual(ok);
    const denied = await patchStream(othello, id, { description: "Other" });
    expect([denied.status, denied.body]).toEqual([400, notAdmin]);
  });

  it("can_remove_subscribers_group: its members may unsubscribe others", async () => {
    const { iago, hamlet, othello } = server.users;
    const remove = (as: typeof hamlet) =>
      server.api.delete(SUBS, { as, params: { subscriptions: ["Denmark"], principals: [othello.email] } });
    const denied = await remove(hamlet);
    expect([denied.status, denied.body]).toEqual([400, notAdmin]);
    const removers = { direct_members: [hamlet.id], direct_subgroups: [] };
    expect(
      (await patchStream(iago, denmark, { can_remove_subscribers_group: { new: removers, old: 2 } })).body,
    ).toEqual(ok);
    expect((await remove(hamlet)).body).toEqual({ ...ok, removed: ["Denmark"], not_removed: [] });
  });

  it("can_subscribe_group and can_add_subscribers_group let their members join a private stream", async () => {
    const { iago, cordelia, hamlet } = server.users;
    const join = (as: typeof hamlet) =>
      server.api.post(SUBS, { as, params: { subscriptions: [{ name: "secret" }] } });
    const denied = await join(cordelia);
    expect([denied.status, denied.body]).toEqual([400, error("Unable to access stream (secret).")]);
    const group = { direct_members: [cordelia.id], direct_subgroups: [] };
    expect((await patchStream(iago, secret, { can_subscribe_group: { new: group } })).body).toEqual(ok);
    expect((await join(cordelia)).body).toEqual({
      ...ok,
      subscribed: { [cordelia.email]: ["secret"] },
      already_subscribed: {},
    });
    expect((await join(hamlet)).status).toBe(400);
    await patchStream(iago, secret, {
      can_add_subscribers_group: { new: { direct_members: [hamlet.id], direct_subgroups: [] } },
    });
    expect((await join(hamlet)).body).toEqual({
      ...ok,
      subscribed: { [hamlet.email]: ["secret"] },
      already_subscribed: {},
    });
  });
});

describe("realm permission settings", () => {
  it("PATCH /realm changes them for administrators, with a realm update_dict event and register's values", async () => {
    const { iago, hamlet } = server.users;
    const q = await registerQueue(server, hamlet, { event_types: ["realm"] });
    const denied = await server.api.patch("/api/v1/realm", {
      as: hamlet,
      params: { can_create_public_channel_group: { new: 2 } },
    });
    expect([denied.status, denied.body]).toEqual([400, error("Must be an organization administrator")]);
    const res = await server.api.patch("/api/v1/realm", {
      as: iago,
      params: { can_create_public_channel_group: { new: 2, old: 5 }, can_add_subscribers_group: { new: 5 } },
    });
    expect(res.body).toEqual(ok);
    expect(await drainEvents(q)).toEqual([
      {
        id: 0,
        type: "realm",
        op: "update_dict",
        property: "default",
        data: { can_create_public_channel_group: 2 },
      },
    ]);
    const reg = await registerQueue(server, hamlet, { fetch_event_types: ["realm", "realm_user"] });
    expect({
      realm_can_add_subscribers_group: reg.register.realm_can_add_subscribers_group,
      realm_can_create_public_channel_group: reg.register.realm_can_create_public_channel_group,
      realm_can_create_private_channel_group: reg.register.realm_can_create_private_channel_group,
      can_create_public_streams: reg.register.can_create_public_streams,
      can_create_private_streams: reg.register.can_create_private_streams,
      can_create_streams: reg.register.can_create_streams,
    }).toEqual({
      realm_can_add_subscribers_group: 5,
      realm_can_create_public_channel_group: 2,
      realm_can_create_private_channel_group: 5,
      can_create_public_streams: false,
      can_create_private_streams: true,
      can_create_streams: true,
    });
    const mismatch = await server.api.patch("/api/v1/realm", {
      as: iago,
      params: { can_create_public_channel_group: { new: 5, old: 5 } },
    });
    expect([mismatch.status, mismatch.body]).toEqual([
      400,
      error("'old' value does not match the expected value."),
    ]);
  });

  it("can_create_public_channel_group and can_create_private_channel_group govern creating streams", async () => {
    const { iago, hamlet } = server.users;
    await server.api.patch("/api/v1/realm", {
      as: iago,
      params: { can_create_public_channel_group: { new: 2 } },
    });
    const create = (inviteOnly: boolean) =>
      server.api.post(SUBS, {
        as: hamlet,
        params: { subscriptions: [{ name: "Elsinore" }], invite_only: inviteOnly },
      });
    const denied = await create(false);
    expect([denied.status, denied.body]).toEqual([400, error("User cannot create streams.")]);
    expect((await create(true)).body).toEqual({
      ...ok,
      subscribed: { [hamlet.email]: ["Elsinore"] },
      already_subscribed: {},
    });
  });

  it("can_add_subscribers_group: without it, subscribing others needs the stream's own setting", async () => {
    const { iago, hamlet, cordelia } = server.users;
    await server.api.patch("/api/v1/realm", {
      as: iago,
      params: { can_add_subscribers_group: { new: NOBODY } },
    });
    const add = () =>
      server.api.post(SUBS, {
        as: hamlet,
        params: { subscriptions: [{ name: "Denmark" }], principals: [cordelia.email] },
      });
    const denied = await add();
    expect([denied.status, denied.body]).toEqual([400, error("Insufficient permission")]);
    await patchStream(iago, denmark, {
      can_add_subscribers_group: { new: { direct_members: [hamlet.id], direct_subgroups: [] } },
    });
    expect((await add()).body).toEqual({
      ...ok,
      subscribed: { [cordelia.email]: ["Denmark"] },
      already_subscribed: {},
    });
  });
});

describe("user group can_mention_group", () => {
  async function createGroup(params: Record<string, ParamValue>): Promise<number> {
    const res = await server.api.post("/api/v1/user_groups/create", {
      as: server.users.hamlet,
      params: { name: "Danes", description: "", members: [server.users.hamlet.id], ...params },
    });
    expect(res.status).toBe(200);
    return res.body.group_id as number;
  }

  it("is set when creating, enforced on sending (silent mentions aside) and changed with an event", async () => {
    const { hamlet, othello } = server.users;
    const id = await createGroup({
      can_mention_group: { direct_members: [hamlet.id], direct_subgroups: [] },
    });
    const groups = await server.api.get("/api/v1/user_groups", { as: othello });
    expect(groups.body.user_groups.find((g: { id: number }) => g.id === id)).toEqual({
      id,
      name: "Danes",
      description: "",
      members: [hamlet.id],
      direct_subgroup_ids: [],
      is_system_group: false,
      can_mention_group: { direct_members: [hamlet.id], direct_subgroups: [] },
    });
    const refused = await sendTo(othello, denmark, "hi @*Danes*");
    expect([refused.status, refused.body]).toEqual([
      400,
      error("You are not allowed to mention user group 'Danes'."),
    ]);
    expect((await sendTo(othello, denmark, "hi @_*Danes*")).status).toBe(200);
    expect((await sendTo(hamlet, denmark, "hi @*Danes*")).status).toBe(200);

    const q = await registerQueue(server, othello, { event_types: ["user_group"] });
    const res = await server.api.patch(`/api/v1/user_groups/${id}`, {
      as: hamlet,
      params: { can_mention_group: { new: 6, old: { direct_members: [hamlet.id], direct_subgroups: [] } } },
    });
    expect(res.body).toEqual(ok);
    expect(await drainEvents(q)).toEqual([
      { id: 0, type: "user_group", op: "update", group_id: id, data: { can_mention_group: 6 } },
    ]);
    expect((await sendTo(othello, denmark, "hi @*Danes*")).status).toBe(200);
  });

  it("refuses role:internet, an outdated old value and a malformed value", async () => {
    const { hamlet } = server.users;
    const id = await createGroup({});
    const cases: [Record<string, ParamValue>, string][] = [
      [
        { can_mention_group: { new: 7 } },
        "'can_mention_group' setting cannot be set to 'role:internet' group.",
      ],
      [{ can_mention_group: { new: 2, old: 2 } }, "'old' value does not match the expected value."],
      [{ can_mention_group: { new: [1] } }, "can_mention_group.new is not a valid group-setting value"],
    ];
    for (const [params, msg] of cases) {
      const res = await server.api.patch(`/api/v1/user_groups/${id}`, { as: hamlet, params });
      expect([res.status, res.body]).toEqual([400, error(msg)]);
    }
    const created = await server.api.post("/api/v1/user_groups/create", {
      as: hamlet,
      params: { name: "Court", description: "", members: [], can_mention_group: 7 },
    });
    expect([created.status, created.body]).toEqual([
      400,
      error("'can_mention_group' setting cannot be set to 'role:internet' group."),
    ]);
  });
});
