import { afterEach, beforeEach, describe, expect, it, jest } from "@jest/globals";
import { ManualClock } from "../../src/clock.js";
import type { ZulipEvent } from "../../src/domain/events/event-sink.js";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer } from "../helpers/test-server.js";

// The cast's ids: iago 1 (owner), Notification Bot 2, hamlet 3, othello 4, cordelia 5,
// polonius 6 (guest), webhookBot 7. "general" (id 1) is created on first start, iago subscribed.
const T0 = Date.UTC(2026, 0, 1);
const NOW = 1767225600;

let s: TestServer;
beforeEach(async () => {
  s = await startTestServer({ clock: new ManualClock(T0) });
});
afterEach(() => s.close());

const SUBS = "/api/v1/users/me/subscriptions";

// Stream objects carry `can_remove_subscribers_group` (the administrators' system group), which
// Zulip's schema requires from FL142, so these responses are checked like every other.
const STREAMS_SCHEMA_GAP = { skipSchemaCheck: false };

/** Records the events published from now on, except `message` events (the messages service's). */
function recordEvents(): { event: ZulipEvent; to: number[] }[] {
  const recorded: { event: ZulipEvent; to: number[] }[] = [];
  jest.spyOn(s.running.services.events, "send").mockImplementation((event, recipients) => {
    if (event.type === "message") return;
    recorded.push({ event, to: [...recipients].map((r) => (typeof r === "number" ? r : r.id)) });
  });
  return recorded;
}

/** Records what is posted through the messages service: [sender id, message]. */
function recordMessages(): [number, unknown][] {
  const sent: [number, unknown][] = [];
  const messages = s.running.services.messages;
  const original = messages.send.bind(messages);
  jest.spyOn(messages, "send").mockImplementation((sender, message) => {
    sent.push([sender.id, message]);
    return original(sender, message);
  });
  return sent;
}

/** The BasicChannel fields of a stream with the defaults of a new public stream. */
function stream(fields: Record<string, unknown>): Record<string, unknown> {
  return {
    description: "",
    rendered_description: "",
    date_created: NOW,
    invite_only: false,
    is_web_public: false,
    stream_post_policy: 1,
    message_retention_days: null,
    history_public_to_subscribers: true,
    first_message_id: null,
    is_announcement_only: false,
    stream_weekly_traffic: null,
    can_remove_subscribers_group: 2,
    is_archived: false,
    // Who created it: hamlet, who creates the streams here ("general" has no creator).
    creator_id: 3,
    is_recently_active: true,
    can_subscribe_group: { direct_members: [], direct_subgroups: [] },
    can_add_subscribers_group: { direct_members: [], direct_subgroups: [] },
    // The creator (hamlet, who creates the streams here; "general" has none: nobody).
    can_administer_channel_group: { direct_members: [3], direct_subgroups: [] },
    can_send_message_group: 6,
    topics_policy: "inherit",
    ...fields,
  };
}

/** A Subscription object with a new subscription's defaults. */
function subscription(fields: Record<string, unknown>): Record<string, unknown> {
  return stream({
    color: "#76ce90",
    is_muted: false,
    in_home_view: true,
    pin_to_top: false,
    desktop_notifications: null,
    audible_notifications: null,
    push_notifications: null,
    email_notifications: null,
    wildcard_mentions_notify: null,
    ...fields,
  });
}

describe("the test cast", () => {
  it("has the ids the assertions below use", () => {
    const { iago, hamlet, othello, cordelia, polonius, webhookBot } = s.users;
    expect([iago.id, hamlet.id, othello.id, cordelia.id, polonius.id, webhookBot.id]).toEqual([
      1, 3, 4, 5, 6, 7,
    ]);
  });
});

describe("POST /api/v1/users/me/subscriptions", () => {
  it("creates a missing stream and subscribes the requester", async () => {
    const res = await s.api.post(SUBS, {
      as: s.users.hamlet,
      params: { subscriptions: [{ name: "Denmark", description: "Something is *rotten*" }] },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      result: "success",
      msg: "",
      subscribed: { "hamlet@zulip.com": ["Denmark"] },
      already_subscribed: {},
    });
    const list = await s.api.get(SUBS, { as: s.users.hamlet });
    expect(list.body).toEqual({
      result: "success",
      msg: "",
      subscriptions: [
        subscription({
          stream_id: 2,
          name: "Denmark",
          description: "Something is *rotten*",
          rendered_description: "<p>Something is <em>rotten</em></p>",
        }),
      ],
    });
  });

  it("creates one stream when several users subscribe at once to the stream their requests create", async () => {
    // Every request finds no stream and inserts it: the insert decides, the others join it.
    const cast = [s.users.hamlet, s.users.othello, s.users.cordelia];
    const answers = await Promise.all(
      cast.map((as) => s.api.post(SUBS, { as, params: { subscriptions: [{ name: "Launch" }] } })),
    );
    expect(answers.map((a) => [a.status, a.body])).toEqual(
      cast.map((u) => [
        200,
        { result: "success", msg: "", subscribed: { [u.email]: ["Launch"] }, already_subscribed: {} },
      ]),
    );
    const streams = (await s.api.get("/api/v1/streams", { as: s.users.iago })).body.streams as {
      stream_id: number;
      name: string;
    }[];
    const launch = streams.filter((st) => st.name === "Launch");
    expect(launch).toHaveLength(1);
    const members = await s.api.get(`/api/v1/streams/${launch[0]!.stream_id}/members`, { as: s.users.iago });
    expect([...(members.body.subscribers as number[])].sort((a, b) => a - b)).toEqual(cast.map((u) => u.id));
  });

  it("subscribes a user once when two of their clients subscribe them to a stream at once", async () => {
    await s.api.post(SUBS, { as: s.users.othello, params: { subscriptions: [{ name: "Denmark" }] } });
    const events = recordEvents();
    const answers = await Promise.all(
      [0, 1].map(() =>
        s.api.post(SUBS, { as: s.users.hamlet, params: { subscriptions: [{ name: "Denmark" }] } }),
      ),
    );
    // One request subscribes, the other finds the subscription made (in either order).
    expect(
      answers.map((a) => a.body).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
    ).toEqual([
      { result: "success", msg: "", subscribed: { "hamlet@zulip.com": ["Denmark"] }, already_subscribed: {} },
      { result: "success", msg: "", subscribed: {}, already_subscribed: { "hamlet@zulip.com": ["Denmark"] } },
    ]);
    const adds = events.filter((e) => e.event.type === "subscription" && e.event["op"] === "add");
    expect(adds.map((e) => e.to)).toEqual([[s.users.hamlet.id]]);
  });

  it("lists a stream the user already has under already_subscribed", async () => {
    await s.api.post(SUBS, { as: s.users.hamlet, params: { subscriptions: [{ name: "Denmark" }] } });
    const res = await s.api.post(SUBS, {
      as: s.users.hamlet,
      params: { subscriptions: [{ name: " denmark " }, { name: "Verona" }] },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      result: "success",
      msg: "",
      subscribed: { "hamlet@zulip.com": ["Verona"] },
      already_subscribed: { "hamlet@zulip.com": ["Denmark"] },
    });
  });

  it("subscribes to an existing public stream with the next palette colour", async () => {
    await s.api.post(SUBS, { as: s.users.hamlet, params: { subscriptions: [{ name: "Denmark" }] } });
    const res = await s.api.post(SUBS, {
      as: s.users.hamlet,
      params: { subscriptions: [{ name: "general" }] },
    });
    expect(res.body).toEqual({
      result: "success",
      msg: "",
      subscribed: { "hamlet@zulip.com": ["general"] },
      already_subscribed: {},
    });
    const list = await s.api.get(SUBS, { as: s.users.hamlet, params: { include_subscribers: true } });
    expect(list.body).toEqual({
      result: "success",
      msg: "",
      subscriptions: [
        subscription({ stream_id: 2, name: "Denmark", subscribers: [3] }),
        subscription({
          stream_id: 1,
          name: "general",
          can_administer_channel_group: { direct_members: [], direct_subgroups: [] },
          creator_id: null,
          description: "Everyone is added to this stream by default. Welcome!",
          rendered_description: "<p>Everyone is added to this stream by default. Welcome!</p>",
          color: "#fae589",
          subscribers: [1, 3],
        }),
      ],
    });
  });

  it("uses the colour given with the stream", async () => {
    await s.api.post(SUBS, {
      as: s.users.hamlet,
      params: { subscriptions: [{ name: "Denmark", color: "#aabbcc" }] },
    });
    const list = await s.api.get(SUBS, { as: s.users.hamlet });
    expect(list.body.subscriptions).toEqual([
      subscription({ stream_id: 2, name: "Denmark", color: "#aabbcc" }),
    ]);
  });

  it("creates a private stream with protected history by default", async () => {
    const res = await s.api.post(SUBS, {
      as: s.users.hamlet,
      params: { subscriptions: [{ name: "secret" }], invite_only: true },
    });
    expect(res.body).toEqual({
      result: "success",
      msg: "",
      subscribed: { "hamlet@zulip.com": ["secret"] },
      already_subscribed: {},
    });
    const list = await s.api.get(SUBS, { as: s.users.hamlet });
    expect(list.body.subscriptions).toEqual([
      subscription({ stream_id: 2, name: "secret", invite_only: true, history_public_to_subscribers: false }),
    ]);
  });

  it("creates a private stream with shared history when asked", async () => {
    await s.api.post(SUBS, {
      as: s.users.hamlet,
      params: { subscriptions: [{ name: "secret" }], invite_only: true, history_public_to_subscribers: true },
    });
    const list = await s.api.get(SUBS, { as: s.users.hamlet });
    expect(list.body.subscriptions).toEqual([
      subscription({ stream_id: 2, name: "secret", invite_only: true }),
    ]);
  });

  it("keeps history public on a public stream even when asked otherwise", async () => {
    await s.api.post(SUBS, {
      as: s.users.hamlet,
      params: { subscriptions: [{ name: "Denmark" }], history_public_to_subscribers: false },
    });
    const list = await s.api.get(SUBS, { as: s.users.hamlet });
    expect(list.body.subscriptions).toEqual([subscription({ stream_id: 2, name: "Denmark" })]);
  });

  it("creates an announcement-only stream", async () => {
    await s.api.post(SUBS, {
      as: s.users.iago,
      params: { subscriptions: [{ name: "announce" }], is_announcement_only: true },
    });
    const streams = await s.api.get("/api/v1/streams", { as: s.users.iago, ...STREAMS_SCHEMA_GAP });
    expect(streams.body.streams[0]).toEqual(
      stream({
        stream_id: 2,
        name: "announce",
        can_administer_channel_group: { direct_members: [1], direct_subgroups: [] },
        creator_id: 1,
        is_announcement_only: true,
        stream_post_policy: 2,
        can_send_message_group: 2,
      }),
    );
  });

  it("replaces newlines in a description with spaces", async () => {
    await s.api.post(SUBS, {
      as: s.users.hamlet,
      params: { subscriptions: [{ name: "Denmark", description: "line one\nline two" }] },
    });
    const list = await s.api.get(SUBS, { as: s.users.hamlet });
    expect(list.body.subscriptions).toEqual([
      subscription({
        stream_id: 2,
        name: "Denmark",
        description: "line one line two",
        rendered_description: "<p>line one line two</p>",
      }),
    ]);
  });

  it("subscribes other users named by email or id, keyed by email", async () => {
    const res = await s.api.post(SUBS, {
      as: s.users.hamlet,
      params: {
        subscriptions: [{ name: "Denmark" }],
        principals: ["othello@zulip.com", "cordelia@zulip.com"],
      },
    });
    expect(res.body).toEqual({
      result: "success",
      msg: "",
      subscribed: { "othello@zulip.com": ["Denmark"], "cordelia@zulip.com": ["Denmark"] },
      already_subscribed: {},
    });
    const byId = await s.api.post(SUBS, {
      as: s.users.hamlet,
      params: { subscriptions: [{ name: "Denmark" }], principals: [4, 3] },
    });
    expect(byId.body).toEqual({
      result: "success",
      msg: "",
      subscribed: { "hamlet@zulip.com": ["Denmark"] },
      already_subscribed: { "othello@zulip.com": ["Denmark"] },
    });
  });

  it("subscribes a principal named twice once, in the order first named", async () => {
    const res = await s.api.post(SUBS, {
      as: s.users.hamlet,
      params: { subscriptions: [{ name: "Denmark" }], principals: [5, 4, 5, 4] },
    });
    expect(res.body).toEqual({
      result: "success",
      msg: "",
      subscribed: { "cordelia@zulip.com": ["Denmark"], "othello@zulip.com": ["Denmark"] },
      already_subscribed: {},
    });
    expect(Object.keys(res.body.subscribed as object)).toEqual(["cordelia@zulip.com", "othello@zulip.com"]);
  });

  it("treats an empty principals list as the requester", async () => {
    const res = await s.api.post(SUBS, {
      as: s.users.hamlet,
      params: { subscriptions: [{ name: "Denmark" }], principals: [] },
    });
    expect(res.body).toEqual({
      result: "success",
      msg: "",
      subscribed: { "hamlet@zulip.com": ["Denmark"] },
      already_subscribed: {},
    });
  });

  it("rejects an unknown principal with 403 and creates nothing", async () => {
    const res = await s.api.post(SUBS, {
      as: s.users.hamlet,
      params: { subscriptions: [{ name: "Denmark" }], principals: ["nobody@zulip.com"] },
    });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      result: "error",
      msg: "User not authorized to execute queries on behalf of 'nobody@zulip.com'",
      code: "UNAUTHORIZED_PRINCIPAL",
      principal: "nobody@zulip.com",
    });
    const streams = await s.api.get("/api/v1/streams", {
      as: s.users.iago,
      params: { include_all_active: true },
      ...STREAMS_SCHEMA_GAP,
    });
    expect(streams.body.streams.map((x: { name: string }) => x.name)).toEqual(["general"]);
  });

  it("rejects an unknown principal id", async () => {
    const res = await s.api.post(SUBS, {
      as: s.users.hamlet,
      params: { subscriptions: [{ name: "Denmark" }], principals: [999] },
    });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      result: "error",
      msg: "User not authorized to execute queries on behalf of '999'",
      code: "UNAUTHORIZED_PRINCIPAL",
      principal: 999,
    });
  });

  it("rejects principals that are neither all emails nor all ids", async () => {
    const res = await s.api.post(SUBS, {
      as: s.users.hamlet,
      params: { subscriptions: [{ name: "Denmark" }], principals: ["othello@zulip.com", 5] },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      result: "error",
      msg: "principals is not an allowed_type",
      code: "BAD_REQUEST",
    });
  });

  it("refuses access to a private stream the requester is not in", async () => {
    await s.api.post(SUBS, {
      as: s.users.othello,
      params: { subscriptions: [{ name: "secret" }], invite_only: true },
    });
    const res = await s.api.post(SUBS, {
      as: s.users.hamlet,
      params: { subscriptions: [{ name: "secret" }] },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      result: "error",
      msg: "Unable to access stream (secret).",
      code: "BAD_REQUEST",
    });
  });

  it("lists inaccessible streams under unauthorized when authorization errors are not fatal", async () => {
    await s.api.post(SUBS, {
      as: s.users.othello,
      params: { subscriptions: [{ name: "secret" }], invite_only: true },
    });
    const res = await s.api.post(SUBS, {
      as: s.users.hamlet,
      params: { subscriptions: [{ name: "secret" }, { name: "general" }], authorization_errors_fatal: false },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      result: "success",
      msg: "",
      subscribed: { "hamlet@zulip.com": ["general"] },
      already_subscribed: {},
      unauthorized: ["secret"],
    });
  });

  it("leaves unauthorized out when every stream was accessible", async () => {
    const res = await s.api.post(SUBS, {
      as: s.users.hamlet,
      params: { subscriptions: [{ name: "general" }], authorization_errors_fatal: false },
    });
    expect(res.body).toEqual({
      result: "success",
      msg: "",
      subscribed: { "hamlet@zulip.com": ["general"] },
      already_subscribed: {},
    });
  });

  it("does not let an administrator into a private stream they are not in", async () => {
    await s.api.post(SUBS, {
      as: s.users.othello,
      params: { subscriptions: [{ name: "secret" }], invite_only: true },
    });
    const res = await s.api.post(SUBS, { as: s.users.iago, params: { subscriptions: [{ name: "secret" }] } });
    expect(res.body).toEqual({
      result: "error",
      msg: "Unable to access stream (secret).",
      code: "BAD_REQUEST",
    });
  });

  it("lets a subscriber add others to a private stream", async () => {
    await s.api.post(SUBS, {
      as: s.users.othello,
      params: { subscriptions: [{ name: "secret" }], invite_only: true },
    });
    const res = await s.api.post(SUBS, {
      as: s.users.othello,
      params: { subscriptions: [{ name: "secret" }], principals: ["hamlet@zulip.com"] },
    });
    expect(res.body).toEqual({
      result: "success",
      msg: "",
      subscribed: { "hamlet@zulip.com": ["secret"] },
      already_subscribed: {},
    });
  });

  describe("guests", () => {
    it("cannot create streams", async () => {
      const res = await s.api.post(SUBS, {
        as: s.users.polonius,
        params: { subscriptions: [{ name: "Denmark" }] },
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ result: "error", msg: "User cannot create streams.", code: "BAD_REQUEST" });
    });

    it("cannot subscribe to a public stream they are not in", async () => {
      const res = await s.api.post(SUBS, {
        as: s.users.polonius,
        params: { subscriptions: [{ name: "general" }] },
      });
      expect(res.body).toEqual({
        result: "error",
        msg: "Unable to access stream (general).",
        code: "BAD_REQUEST",
      });
    });

    it("cannot subscribe other users", async () => {
      await s.api.post(SUBS, {
        as: s.users.iago,
        params: { subscriptions: [{ name: "general" }], principals: ["polonius@zulip.com"] },
      });
      const res = await s.api.post(SUBS, {
        as: s.users.polonius,
        params: { subscriptions: [{ name: "general" }], principals: ["hamlet@zulip.com"] },
      });
      expect(res.body).toEqual({ result: "error", msg: "Not allowed for guest users", code: "BAD_REQUEST" });
    });

    it("can be subscribed by an administrator", async () => {
      const res = await s.api.post(SUBS, {
        as: s.users.iago,
        params: { subscriptions: [{ name: "general" }], principals: ["polonius@zulip.com"] },
      });
      expect(res.body).toEqual({
        result: "success",
        msg: "",
        subscribed: { "polonius@zulip.com": ["general"] },
        already_subscribed: {},
      });
    });
  });

  describe("stream names and arguments", () => {
    const cases: [string, unknown[], string][] = [
      ["an empty name", [{ name: "  " }], "Stream name can't be empty!"],
      [
        "a name over 60 characters",
        [{ name: "x".repeat(61) }],
        "Stream name too long (limit: 60 characters).",
      ],
      ["a control character", [{ name: "ab\u0001c" }], "Invalid character in stream name, at position 3!"],
      ["a missing name", [{ description: "x" }], "name key is missing from subscriptions[0]"],
      ["a name that is not a string", [{ name: 5 }], 'subscriptions[0]["name"] is not a string'],
      ["an unexpected key", [{ name: "a", colour: "red" }], "Unexpected arguments: colour"],
      [
        "a bad colour",
        [{ name: "a", color: "red" }],
        'subscriptions[0]["color"] is not a valid hex color code',
      ],
      [
        "a description over 1024 characters",
        [{ name: "a", description: "d".repeat(1025) }],
        'subscriptions[0]["description"] is too long (limit: 1024 characters)',
      ],
      ["an item that is not an object", ["Denmark"], "subscriptions[0] is not a dict"],
    ];
    it.each(cases)("rejects %s", async (_label, subscriptions, msg) => {
      const res = await s.api.post(SUBS, { as: s.users.hamlet, params: { subscriptions } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ result: "error", msg, code: "BAD_REQUEST" });
    });

    it("accepts a name of exactly 60 characters", async () => {
      const name = "y".repeat(60);
      const res = await s.api.post(SUBS, { as: s.users.hamlet, params: { subscriptions: [{ name }] } });
      expect(res.body).toEqual({
        result: "success",
        msg: "",
        subscribed: { "hamlet@zulip.com": [name] },
        already_subscribed: {},
      });
    });

    it("requires subscriptions", async () => {
      const res = await s.api.post(SUBS, { as: s.users.hamlet, params: {} });
      expect(res.body).toEqual({
        result: "error",
        msg: "Missing 'subscriptions' argument",
        code: "REQUEST_VARIABLE_MISSING",
        var_name: "subscriptions",
      });
    });

    it("rejects a non-boolean invite_only", async () => {
      const res = await s.api.post(SUBS, {
        as: s.users.hamlet,
        params: { subscriptions: [{ name: "a" }], invite_only: "yes" },
      });
      expect(res.body).toEqual({
        result: "error",
        msg: 'Argument "invite_only" is not valid JSON.',
        code: "BAD_REQUEST",
      });
    });
  });

  describe("events", () => {
    it("announces a new public stream to everyone, the subscription to the user and the peer to the others", async () => {
      const events = recordEvents();
      await s.api.post(SUBS, { as: s.users.hamlet, params: { subscriptions: [{ name: "Denmark" }] } });
      expect(events).toEqual([
        {
          event: { type: "stream", op: "create", streams: [stream({ stream_id: 2, name: "Denmark" })] },
          to: [1, 2, 3, 4, 5, 7],
        },
        {
          event: {
            type: "subscription",
            op: "add",
            subscriptions: [subscription({ stream_id: 2, name: "Denmark", subscribers: [3] })],
          },
          to: [3],
        },
        {
          event: { type: "subscription", op: "peer_add", stream_ids: [2], user_ids: [3] },
          to: [1, 2, 4, 5, 7],
        },
      ]);
    });

    it("announces a new private stream to its subscribers only, peers being subscribers and admins", async () => {
      const events = recordEvents();
      await s.api.post(SUBS, {
        as: s.users.hamlet,
        params: {
          subscriptions: [{ name: "secret" }],
          invite_only: true,
          principals: ["hamlet@zulip.com", "othello@zulip.com"],
        },
      });
      const created = stream({
        stream_id: 2,
        name: "secret",
        invite_only: true,
        history_public_to_subscribers: false,
      });
      expect(events).toEqual([
        { event: { type: "stream", op: "create", streams: [created] }, to: [3, 4] },
        {
          event: {
            type: "subscription",
            op: "add",
            subscriptions: [
              subscription({
                stream_id: 2,
                name: "secret",
                invite_only: true,
                history_public_to_subscribers: false,
                subscribers: [3, 4],
              }),
            ],
          },
          to: [3],
        },
        {
          event: {
            type: "subscription",
            op: "add",
            subscriptions: [
              subscription({
                stream_id: 2,
                name: "secret",
                invite_only: true,
                history_public_to_subscribers: false,
                subscribers: [3, 4],
              }),
            ],
          },
          to: [4],
        },
        { event: { type: "subscription", op: "peer_add", stream_ids: [2], user_ids: [3, 4] }, to: [1] },
      ]);
    });

    it("sends the stream to a user newly added to an existing private stream", async () => {
      await s.api.post(SUBS, {
        as: s.users.hamlet,
        params: { subscriptions: [{ name: "secret" }], invite_only: true },
      });
      const events = recordEvents();
      await s.api.post(SUBS, {
        as: s.users.hamlet,
        params: { subscriptions: [{ name: "secret" }], principals: ["cordelia@zulip.com"] },
      });
      const fields = {
        stream_id: 2,
        name: "secret",
        invite_only: true,
        history_public_to_subscribers: false,
      };
      expect(events).toEqual([
        { event: { type: "stream", op: "create", streams: [stream(fields)] }, to: [5] },
        {
          event: {
            type: "subscription",
            op: "add",
            subscriptions: [subscription({ ...fields, subscribers: [3, 5] })],
          },
          to: [5],
        },
        { event: { type: "subscription", op: "peer_add", stream_ids: [2], user_ids: [5] }, to: [1, 3] },
      ]);
    });

    it("sends nothing when everyone was already subscribed", async () => {
      await s.api.post(SUBS, { as: s.users.hamlet, params: { subscriptions: [{ name: "Denmark" }] } });
      const events = recordEvents();
      await s.api.post(SUBS, { as: s.users.hamlet, params: { subscriptions: [{ name: "Denmark" }] } });
      expect(events).toEqual([]);
    });

    it("sends nothing when the request fails", async () => {
      const events = recordEvents();
      await s.api.post(SUBS, {
        as: s.users.hamlet,
        params: { subscriptions: [{ name: "Denmark" }], principals: ["nobody@zulip.com"] },
      });
      expect(events).toEqual([]);
    });
  });
});

describe("notices posted by the Notification Bot (id 2)", () => {
  it("announces a new stream in the notifications stream when asked", async () => {
    const sent = recordMessages();
    await s.api.post(SUBS, {
      as: s.users.hamlet,
      params: { subscriptions: [{ name: "Denmark" }], announce: true },
    });
    expect(sent).toEqual([
      [
        2,
        {
          type: "stream",
          to: "general",
          topic: "new streams",
          content: "@_**King Hamlet|3** created a new stream #**Denmark**.",
        },
      ],
    ]);
  });

  it("announces several new streams in one message", async () => {
    const sent = recordMessages();
    await s.api.post(SUBS, {
      as: s.users.hamlet,
      params: {
        subscriptions: [{ name: "Denmark" }, { name: "general" }, { name: "Verona" }],
        announce: true,
      },
    });
    expect(sent).toEqual([
      [
        2,
        {
          type: "stream",
          to: "general",
          topic: "new streams",
          content: "@_**King Hamlet|3** created the following streams: #**Denmark**, #**Verona**.",
        },
      ],
    ]);
  });

  it("does not announce a private stream", async () => {
    const sent = recordMessages();
    await s.api.post(SUBS, {
      as: s.users.hamlet,
      params: { subscriptions: [{ name: "secret" }], invite_only: true, announce: true },
    });
    expect(sent).toEqual([]);
  });

  it("announces nothing without announce or when no stream was created", async () => {
    const sent = recordMessages();
    await s.api.post(SUBS, { as: s.users.hamlet, params: { subscriptions: [{ name: "Denmark" }] } });
    await s.api.post(SUBS, {
      as: s.users.othello,
      params: { subscriptions: [{ name: "Denmark" }], announce: true },
    });
    expect(sent).toEqual([]);
  });

  it("tells users subscribed by someone else to existing streams, one message each", async () => {
    await s.api.post(SUBS, { as: s.users.iago, params: { subscriptions: [{ name: "Denmark" }] } });
    const sent = recordMessages();
    // othello: two existing streams (Verona is new: no notice); iago: himself; the bot: a bot.
    await s.api.post(SUBS, {
      as: s.users.iago,
      params: {
        subscriptions: [{ name: "general" }, { name: "Denmark" }, { name: "Verona" }],
        principals: ["othello@zulip.com", "iago@zulip.com", "webhook-bot@zulip.com"],
      },
    });
    expect(sent).toEqual([
      [
        2,
        {
          type: "private",
          to: ["othello@zulip.com"],
          content: "@**Iago|1** subscribed you to the following streams:\n\n* #**general**\n* #**Denmark**\n",
        },
      ],
    ]);
    sent.length = 0;
    await s.api.post(SUBS, {
      as: s.users.othello,
      params: {
        subscriptions: [{ name: "Verona" }],
        principals: ["cordelia@zulip.com", "othello@zulip.com"],
      },
    });
    expect(sent).toEqual([
      [
        2,
        {
          type: "private",
          to: ["cordelia@zulip.com"],
          content: "@**Othello, the Moor of Venice|4** subscribed you to the stream #**Verona**.",
        },
      ],
    ]);
  });

  it("tells nobody when the subscriber was already subscribed", async () => {
    await s.api.post(SUBS, { as: s.users.hamlet, params: { subscriptions: [{ name: "Denmark" }] } });
    const sent = recordMessages();
    await s.api.post(SUBS, {
      as: s.users.iago,
      params: { subscriptions: [{ name: "Denmark" }], principals: ["hamlet@zulip.com"] },
    });
    expect(sent).toEqual([]);
  });
});

describe("DELETE /api/v1/users/me/subscriptions", () => {
  beforeEach(async () => {
    await s.api.post(SUBS, {
      as: s.users.iago,
      params: { subscriptions: [{ name: "Denmark" }], principals: ["hamlet@zulip.com", "othello@zulip.com"] },
    });
  });

  it("removes the requester's subscription and reports the others as not removed", async () => {
    const res = await s.api.delete(SUBS, {
      as: s.users.hamlet,
      params: { subscriptions: ["Denmark", "general"] },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: "success", msg: "", removed: ["Denmark"], not_removed: ["general"] });
    const again = await s.api.delete(SUBS, { as: s.users.hamlet, params: { subscriptions: ["denmark"] } });
    expect(again.body).toEqual({ result: "success", msg: "", removed: [], not_removed: ["Denmark"] });
    const list = await s.api.get(SUBS, { as: s.users.hamlet });
    expect(list.body).toEqual({ result: "success", msg: "", subscriptions: [] });
  });

  it("names a stream that does not exist", async () => {
    const res = await s.api.delete(SUBS, {
      as: s.users.hamlet,
      params: { subscriptions: ["Denmark", "nope"] },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      result: "error",
      msg: "Stream 'nope' does not exist",
      code: "STREAM_DOES_NOT_EXIST",
      stream: "nope",
    });
    const list = await s.api.get(SUBS, { as: s.users.hamlet });
    expect(list.body.subscriptions.map((x: { name: string }) => x.name)).toEqual(["Denmark"]);
  });

  it("requires an administrator to remove someone else", async () => {
    const res = await s.api.delete(SUBS, {
      as: s.users.hamlet,
      params: { subscriptions: ["Denmark"], principals: ["othello@zulip.com"] },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      result: "error",
      msg: "Must be an organization administrator",
      code: "UNAUTHORIZED_PRINCIPAL",
    });
  });

  it("lets a member name only themselves as principal", async () => {
    const res = await s.api.delete(SUBS, {
      as: s.users.hamlet,
      params: { subscriptions: ["Denmark"], principals: ["HAMLET@zulip.com"] },
    });
    expect(res.body).toEqual({ result: "success", msg: "", removed: ["Denmark"], not_removed: [] });
  });

  it("lets an administrator remove other users", async () => {
    const res = await s.api.delete(SUBS, {
      as: s.users.iago,
      params: { subscriptions: ["Denmark"], principals: [3, "cordelia@zulip.com"] },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      result: "error",
      msg: "principals is not an allowed_type",
      code: "BAD_REQUEST",
    });
    const ok = await s.api.delete(SUBS, {
      as: s.users.iago,
      params: { subscriptions: ["Denmark"], principals: ["hamlet@zulip.com", "cordelia@zulip.com"] },
    });
    expect(ok.body).toEqual({ result: "success", msg: "", removed: ["Denmark"], not_removed: ["Denmark"] });
  });

  it("rejects an unknown principal", async () => {
    const res = await s.api.delete(SUBS, {
      as: s.users.iago,
      params: { subscriptions: ["Denmark"], principals: ["nobody@zulip.com"] },
    });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      result: "error",
      msg: "User not authorized to execute queries on behalf of 'nobody@zulip.com'",
      code: "UNAUTHORIZED_PRINCIPAL",
      principal: "nobody@zulip.com",
    });
  });

  it("keeps the colour and settings for a later resubscription", async () => {
    await s.api.post(`${SUBS}/properties`, {
      as: s.users.hamlet,
      params: { subscription_data: [{ stream_id: 2, property: "pin_to_top", value: true }] },
    });
    await s.api.delete(SUBS, { as: s.users.hamlet, params: { subscriptions: ["Denmark"] } });
    await s.api.post(SUBS, { as: s.users.hamlet, params: { subscriptions: [{ name: "general" }] } });
    await s.api.post(SUBS, { as: s.users.hamlet, params: { subscriptions: [{ name: "Denmark" }] } });
    const list = await s.api.get(SUBS, { as: s.users.hamlet });
    expect(list.body.subscriptions).toEqual([
      subscription({
        stream_id: 2,
        name: "Denmark",
        pin_to_top: true,
        // Created by iago in this block's setup.
        can_administer_channel_group: { direct_members: [1], direct_subgroups: [] },
        creator_id: 1,
      }),
      subscription({
        stream_id: 1,
        name: "general",
        can_administer_channel_group: { direct_members: [], direct_subgroups: [] },
        creator_id: null,
        description: "Everyone is added to this stream by default. Welcome!",
        rendered_description: "<p>Everyone is added to this stream by default. Welcome!</p>",
        color: "#fae589",
      }),
    ]);
  });

  it("requires subscriptions to be a list of strings", async () => {
    const res = await s.api.delete(SUBS, {
      as: s.users.hamlet,
      params: { subscriptions: [{ name: "Denmark" }] },
    });
    expect(res.body).toEqual({
      result: "error",
      msg: "subscriptions[0] is not a string",
      code: "BAD_REQUEST",
    });
  });

  it("publishes remove to the user and peer_remove to the peers", async () => {
    const events = recordEvents();
    await s.api.delete(SUBS, { as: s.users.hamlet, params: { subscriptions: ["Denmark"] } });
    expect(events).toEqual([
      {
        event: { type: "subscription", op: "remove", subscriptions: [{ name: "Denmark", stream_id: 2 }] },
        to: [3],
      },
      {
        event: { type: "subscription", op: "peer_remove", stream_ids: [2], user_ids: [3] },
        to: [1, 2, 4, 5, 7],
      },
    ]);
  });

  it("publishes nothing when nothing was removed", async () => {
    const events = recordEvents();
    await s.api.delete(SUBS, { as: s.users.cordelia, params: { subscriptions: ["Denmark"] } });
    expect(events).toEqual([]);
  });
});

describe("GET /api/v1/users/me/subscriptions", () => {
  it("lists the owner's general subscription after first start", async () => {
    const res = await s.api.get(SUBS, { as: s.users.iago, params: { include_subscribers: true } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      result: "success",
      msg: "",
      subscriptions: [
        subscription({
          stream_id: 1,
          name: "general",
          can_administer_channel_group: { direct_members: [], direct_subgroups: [] },
          creator_id: null,
          description: "Everyone is added to this stream by default. Welcome!",
          rendered_description: "<p>Everyone is added to this stream by default. Welcome!</p>",
          subscribers: [1],
        }),
      ],
    });
  });

  it("sorts by name and leaves subscribers out unless asked", async () => {
    await s.api.post(SUBS, {
      as: s.users.hamlet,
      params: { subscriptions: [{ name: "b" }, { name: "a" }, { name: "C" }] },
    });
    const res = await s.api.get(SUBS, { as: s.users.hamlet });
    expect(res.body).toEqual({
      result: "success",
      msg: "",
      subscriptions: [
        subscription({ stream_id: 4, name: "C", color: "#a6c7e5" }),
        subscription({ stream_id: 3, name: "a", color: "#fae589" }),
        subscription({ stream_id: 2, name: "b" }),
      ],
    });
  });
});

describe("POST /api/v1/users/me/subscriptions/properties", () => {
  const PROPS = `${SUBS}/properties`;
  beforeEach(async () => {
    await s.api.post(SUBS, { as: s.users.hamlet, params: { subscriptions: [{ name: "Denmark" }] } });
  });

  it("changes every property and echoes subscription_data", async () => {
    const data = [
      { stream_id: 2, property: "color", value: "#aabbcc" },
      { stream_id: 2, property: "is_muted", value: true },
      { stream_id: 2, property: "pin_to_top", value: true },
      { stream_id: 2, property: "desktop_notifications", value: true },
      { stream_id: 2, property: "audible_notifications", value: false },
      { stream_id: 2, property: "push_notifications", value: true },
      { stream_id: 2, property: "email_notifications", value: false },
      { stream_id: 2, property: "wildcard_mentions_notify", value: true },
    ];
    const res = await s.api.post(PROPS, { as: s.users.hamlet, params: { subscription_data: data } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: "success", msg: "", subscription_data: data });
    const list = await s.api.get(SUBS, { as: s.users.hamlet });
    expect(list.body.subscriptions).toEqual([
      subscription({
        stream_id: 2,
        name: "Denmark",
        color: "#aabbcc",
        is_muted: true,
        in_home_view: false,
        pin_to_top: true,
        desktop_notifications: true,
        audible_notifications: false,
        push_notifications: true,
        email_notifications: false,
        wildcard_mentions_notify: true,
      }),
    ]);
  });

  it("accepts a colour without its #, echoing it as sent and storing it with #", async () => {
    const data = [{ stream_id: 2, property: "color", value: "f00" }];
    const res = await s.api.post(PROPS, { as: s.users.hamlet, params: { subscription_data: data } });
    expect(res.body).toEqual({ result: "success", msg: "", subscription_data: data });
    const list = await s.api.get(SUBS, { as: s.users.hamlet });
    expect(list.body.subscriptions).toEqual([subscription({ stream_id: 2, name: "Denmark", color: "#f00" })]);
  });

  it("treats in_home_view as the inverse of is_muted", async () => {
    await s.api.post(PROPS, {
      as: s.users.hamlet,
      params: { subscription_data: [{ stream_id: 2, property: "in_home_view", value: false }] },
    });
    let list = await s.api.get(SUBS, { as: s.users.hamlet });
    expect(list.body.subscriptions).toEqual([
      subscription({ stream_id: 2, name: "Denmark", is_muted: true, in_home_view: false }),
    ]);
    await s.api.post(PROPS, {
      as: s.users.hamlet,
      params: { subscription_data: [{ stream_id: 2, property: "in_home_view", value: true }] },
    });
    list = await s.api.get(SUBS, { as: s.users.hamlet });
    expect(list.body.subscriptions).toEqual([subscription({ stream_id: 2, name: "Denmark" })]);
  });

  const errors: [string, unknown[], string][] = [
    [
      "an unknown property",
      [{ stream_id: 2, property: "is_loud", value: true }],
      "Unknown subscription property: is_loud",
    ],
    [
      "a stream that does not exist",
      [{ stream_id: 99, property: "pin_to_top", value: true }],
      "Invalid stream ID",
    ],
    [
      "a stream the user is not in",
      [{ stream_id: 1, property: "pin_to_top", value: true }],
      "Not subscribed to stream id 1",
    ],
    [
      "a non-boolean flag",
      [{ stream_id: 2, property: "is_muted", value: "yes" }],
      "is_muted is not a boolean",
    ],
    [
      "a colour that is not hex",
      [{ stream_id: 2, property: "color", value: "#ggg" }],
      "color is not a valid hex color code",
    ],
    [
      "a colour that is not a string",
      [{ stream_id: 2, property: "color", value: true }],
      "color is not a string",
    ],
    [
      "a missing stream_id",
      [{ property: "color", value: "#fff" }],
      "stream_id key is missing from subscription_data[0]",
    ],
    [
      "a missing value",
      [{ stream_id: 2, property: "color" }],
      "value key is missing from subscription_data[0]",
    ],
    [
      "a value of another type",
      [{ stream_id: 2, property: "color", value: 5 }],
      'subscription_data[0]["value"] is not an allowed_type',
    ],
    [
      "a stream_id that is not an integer",
      [{ stream_id: "2", property: "color", value: "#fff" }],
      'subscription_data[0]["stream_id"] is not an integer',
    ],
  ];
  it.each(errors)("rejects %s", async (_label, subscription_data, msg) => {
    const res = await s.api.post(PROPS, { as: s.users.hamlet, params: { subscription_data } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: "error", msg, code: "BAD_REQUEST" });
  });

  it("applies nothing when a later change is invalid", async () => {
    const res = await s.api.post(PROPS, {
      as: s.users.hamlet,
      params: {
        subscription_data: [
          { stream_id: 2, property: "pin_to_top", value: true },
          { stream_id: 2, property: "volume", value: true },
        ],
      },
    });
    expect(res.body).toEqual({
      result: "error",
      msg: "Unknown subscription property: volume",
      code: "BAD_REQUEST",
    });
    const list = await s.api.get(SUBS, { as: s.users.hamlet });
    expect(list.body.subscriptions).toEqual([subscription({ stream_id: 2, name: "Denmark" })]);
  });

  it("requires subscription_data", async () => {
    const res = await s.api.post(PROPS, { as: s.users.hamlet, params: {} });
    expect(res.body).toEqual({
      result: "error",
      msg: "Missing 'subscription_data' argument",
      code: "REQUEST_VARIABLE_MISSING",
      var_name: "subscription_data",
    });
  });

  it("publishes one update per change, and both is_muted and in_home_view for muting", async () => {
    const events = recordEvents();
    await s.api.post(PROPS, {
      as: s.users.hamlet,
      params: {
        subscription_data: [
          { stream_id: 2, property: "color", value: "abcdef" },
          { stream_id: 2, property: "is_muted", value: true },
          { stream_id: 2, property: "in_home_view", value: true },
          { stream_id: 2, property: "push_notifications", value: false },
        ],
      },
    });
    const update = (property: string, value: unknown) => ({
      event: { type: "subscription", op: "update", property, value, stream_id: 2 },
      to: [3],
    });
    expect(events).toEqual([
      update("color", "#abcdef"),
      update("in_home_view", false),
      update("is_muted", true),
      update("in_home_view", true),
      update("is_muted", false),
      update("push_notifications", false),
    ]);
  });
});

describe("subscription events through event queues", () => {
  it("delivers peer_add to a peer and update to the user", async () => {
    await s.api.post(SUBS, { as: s.users.othello, params: { subscriptions: [{ name: "Denmark" }] } });
    const queue = async (as: TestServer["users"]["hamlet"]): Promise<string> =>
      (
        await s.api.post("/api/v1/register", {
          as,
          params: { event_types: ["subscription"], fetch_event_types: [] },
        })
      ).body.queue_id;
    const othelloQueue = await queue(s.users.othello);
    await s.api.post(SUBS, { as: s.users.hamlet, params: { subscriptions: [{ name: "Denmark" }] } });
    const hamletQueue = await queue(s.users.hamlet);
    await s.api.post(`${SUBS}/properties`, {
      as: s.users.hamlet,
      params: { subscription_data: [{ stream_id: 2, property: "pin_to_top", value: true }] },
    });
    const peers = await s.api.get("/api/v1/events", {
      as: s.users.othello,
      params: { queue_id: othelloQueue, last_event_id: -1, dont_block: true },
    });
    expect(peers.body).toEqual({
      result: "success",
      msg: "",
      events: [{ type: "subscription", op: "peer_add", stream_ids: [2], user_ids: [3], id: 0 }],
    });
    const mine = await s.api.get("/api/v1/events", {
      as: s.users.hamlet,
      params: { queue_id: hamletQueue, last_event_id: -1, dont_block: true },
    });
    expect(mine.body).toEqual({
      result: "success",
      msg: "",
      events: [
        { type: "subscription", op: "update", property: "pin_to_top", value: true, stream_id: 2, id: 0 },
      ],
    });
  });
});
