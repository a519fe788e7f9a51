import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { ManualClock } from "../../src/clock.js";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer } from "../helpers/test-server.js";

// ids: iago 1 (admin), hamlet 3, othello 4, polonius 6 (guest). Streams: general 1 (first start),
// then Denmark 2 (public, hamlet), secret 3 (private, othello), Verona 4 (public, nobody after setup).
// As in Zulip, a stream's creator administers it (can_administer_channel_group); general has none.
const T0 = Date.UTC(2026, 0, 1);
const NOW = 1767225600;
const SUBS = "/api/v1/users/me/subscriptions";
// Stream objects carry `can_remove_subscribers_group` (the administrators' system group), which
// Zulip's schema requires from FL142, so these responses are checked like every other.
const STREAMS_SCHEMA_GAP = { skipSchemaCheck: false };

let s: TestServer;
beforeEach(async () => {
  s = await startTestServer({ clock: new ManualClock(T0) });
  await s.api.post(SUBS, { as: s.users.hamlet, params: { subscriptions: [{ name: "Denmark" }] } });
  await s.api.post(SUBS, {
    as: s.users.othello,
    params: { subscriptions: [{ name: "secret" }], invite_only: true },
  });
  await s.api.post(SUBS, { as: s.users.othello, params: { subscriptions: [{ name: "Verona" }] } });
  await s.api.delete(SUBS, { as: s.users.othello, params: { subscriptions: ["Verona"] } });
});
afterEach(() => s.close());

const GENERAL = {
  stream_id: 1,
  name: "general",
  description: "Everyone is added to this stream by default. Welcome!",
  rendered_description: "<p>Everyone is added to this stream by default. Welcome!</p>",
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
  creator_id: null,
  is_recently_active: true,
  can_subscribe_group: { direct_members: [], direct_subgroups: [] },
  can_add_subscribers_group: { direct_members: [], direct_subgroups: [] },
  can_administer_channel_group: { direct_members: [], direct_subgroups: [] },
  can_send_message_group: 6,
  topics_policy: "inherit",
};
/** A stream `userId` created: its `creator_id`, and its creator administers it. */
const administeredBy = (userId: number) => ({
  creator_id: userId,
  can_administer_channel_group: { direct_members: [userId], direct_subgroups: [] },
});
const DENMARK = {
  ...GENERAL,
  stream_id: 2,
  name: "Denmark",
  description: "",
  rendered_description: "",
  ...administeredBy(3),
};
const SECRET = {
  ...GENERAL,
  stream_id: 3,
  name: "secret",
  description: "",
  rendered_description: "",
  invite_only: true,
  history_public_to_subscribers: false,
  ...administeredBy(4),
};
const VERONA = {
  ...GENERAL,
  stream_id: 4,
  name: "Verona",
  description: "",
  rendered_description: "",
  ...administeredBy(4),
};

async function streamNames(as: TestServer["users"]["iago"], params: Record<string, boolean> = {}) {
  const res = await s.api.get("/api/v1/streams", { as, params, ...STREAMS_SCHEMA_GAP });
  return res.body.streams?.map((x: { name: string }) => x.name) ?? res.body;
}

describe("GET /api/v1/streams", () => {
  it("lists public and subscribed streams by name", async () => {
    const res = await s.api.get("/api/v1/streams", { as: s.users.hamlet, ...STREAMS_SCHEMA_GAP });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: "success", msg: "", streams: [DENMARK, VERONA, GENERAL] });
  });

  it("includes a private stream for its subscriber", async () => {
    const res = await s.api.get("/api/v1/streams", { as: s.users.othello, ...STREAMS_SCHEMA_GAP });
    expect(res.body).toEqual({ result: "success", msg: "", streams: [DENMARK, VERONA, GENERAL, SECRET] });
  });

  it("lists only subscribed streams without include_public", async () => {
    expect(await streamNames(s.users.othello, { include_public: false })).toEqual(["secret"]);
    expect(await streamNames(s.users.hamlet, { include_public: false })).toEqual(["Denmark"]);
  });

  it("lists only public streams without include_subscribed", async () => {
    expect(await streamNames(s.users.othello, { include_subscribed: false })).toEqual([
      "Denmark",
      "Verona",
      "general",
    ]);
  });

  it("lists nothing when every set is excluded", async () => {
    const res = await s.api.get("/api/v1/streams", {
      as: s.users.hamlet,
      params: { include_public: false, include_subscribed: false },
    });
    expect(res.body).toEqual({ result: "success", msg: "", streams: [] });
  });

  it("lists every stream for an administrator with include_all_active", async () => {
    const res = await s.api.get("/api/v1/streams", {
      as: s.users.iago,
      params: { include_all_active: true },
      ...STREAMS_SCHEMA_GAP,
    });
    expect(res.body).toEqual({ result: "success", msg: "", streams: [DENMARK, VERONA, GENERAL, SECRET] });
  });

  it("refuses include_all_active to a member", async () => {
    const res = await s.api.get("/api/v1/streams", {
      as: s.users.hamlet,
      params: { include_all_active: true },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      result: "error",
      msg: "User not authorized for this query",
      code: "BAD_REQUEST",
    });
  });

  it("marks default streams with include_default", async () => {
    const res = await s.api.get("/api/v1/streams", {
      as: s.users.hamlet,
      params: { include_default: true },
      ...STREAMS_SCHEMA_GAP,
    });
    expect(res.body).toEqual({
      result: "success",
      msg: "",
      streams: [
        { ...DENMARK, is_default: false },
        { ...VERONA, is_default: false },
        { ...GENERAL, is_default: true },
      ],
    });
  });

  it("shows a guest only the streams they are subscribed to", async () => {
    expect(await streamNames(s.users.polonius)).toEqual([]);
    await s.api.post(SUBS, {
      as: s.users.iago,
      params: { subscriptions: [{ name: "Denmark" }], principals: ["polonius@zulip.com"] },
    });
    expect(await streamNames(s.users.polonius)).toEqual(["Denmark"]);
  });

  it("rejects a flag that is not a boolean", async () => {
    const res = await s.api.get("/api/v1/streams", { as: s.users.hamlet, params: { include_public: 1 } });
    expect(res.body).toEqual({
      result: "error",
      msg: "include_public is not a boolean",
      code: "BAD_REQUEST",
    });
  });
});

describe("GET /api/v1/streams/{stream_id}", () => {
  it("answers a public stream", async () => {
    const res = await s.api.get("/api/v1/streams/2", { as: s.users.othello, ...STREAMS_SCHEMA_GAP });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: "success", msg: "", stream: DENMARK });
  });

  it("gives first_message_id the stream's first message, which later messages leave as it is", async () => {
    const ids: number[] = [];
    for (const content of ["first", "second", "third"]) {
      const sent = await s.api.post("/api/v1/messages", {
        as: s.users.hamlet,
        params: { type: "stream", to: "Denmark", topic: "t", content },
      });
      ids.push(sent.body.id as number);
    }
    const res = await s.api.get("/api/v1/streams/2", { as: s.users.othello, ...STREAMS_SCHEMA_GAP });
    expect(res.body).toEqual({
      result: "success",
      msg: "",
      stream: { ...DENMARK, first_message_id: ids[0] },
    });
  });

  it("answers a private stream to its subscriber and to an administrator", async () => {
    for (const user of [s.users.othello, s.users.iago]) {
      const res = await s.api.get("/api/v1/streams/3", { as: user, ...STREAMS_SCHEMA_GAP });
      expect(res.body).toEqual({ result: "success", msg: "", stream: SECRET });
    }
  });

  it("rejects a private stream to others, exactly as a stream that does not exist", async () => {
    const res = await s.api.get("/api/v1/streams/3", { as: s.users.hamlet });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: "error", msg: "Invalid stream ID", code: "BAD_REQUEST" });
    const none = await s.api.get("/api/v1/streams/99", { as: s.users.hamlet });
    expect(none.body).toEqual({ result: "error", msg: "Invalid stream ID", code: "BAD_REQUEST" });
  });
});

describe("GET /api/v1/get_stream_id", () => {
  it("answers the id of a stream, case-insensitively", async () => {
    const res = await s.api.get("/api/v1/get_stream_id", {
      as: s.users.hamlet,
      params: { stream: "denmark" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: "success", msg: "", stream_id: 2 });
  });

  it("answers for a public stream the user is not in", async () => {
    const res = await s.api.get("/api/v1/get_stream_id", {
      as: s.users.hamlet,
      params: { stream: "Verona" },
    });
    expect(res.body).toEqual({ result: "success", msg: "", stream_id: 4 });
  });

  it("answers for a private stream to its subscriber", async () => {
    const res = await s.api.get("/api/v1/get_stream_id", {
      as: s.users.othello,
      params: { stream: "secret" },
    });
    expect(res.body).toEqual({ result: "success", msg: "", stream_id: 3 });
  });

  it("rejects a name that does not exist", async () => {
    const res = await s.api.get("/api/v1/get_stream_id", { as: s.users.hamlet, params: { stream: "nope" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: "error", msg: "Invalid stream name 'nope'", code: "BAD_REQUEST" });
  });

  it("requires stream", async () => {
    const res = await s.api.get("/api/v1/get_stream_id", { as: s.users.hamlet });
    expect(res.body).toEqual({
      result: "error",
      msg: "Missing 'stream' argument",
      code: "REQUEST_VARIABLE_MISSING",
      var_name: "stream",
    });
  });
});

describe("GET /api/v1/streams/{stream_id}/members", () => {
  it("lists the subscribers of a public stream", async () => {
    await s.api.post(SUBS, {
      as: s.users.hamlet,
      params: { subscriptions: [{ name: "Denmark" }], principals: ["cordelia@zulip.com"] },
    });
    const res = await s.api.get("/api/v1/streams/2/members", { as: s.users.othello });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: "success", msg: "", subscribers: [3, 5] });
  });

  it("lists no one for a stream everybody left", async () => {
    const res = await s.api.get("/api/v1/streams/4/members", { as: s.users.hamlet });
    expect(res.body).toEqual({ result: "success", msg: "", subscribers: [] });
  });

  it("lists the subscribers of a private stream to a subscriber and to an administrator", async () => {
    const mine = await s.api.get("/api/v1/streams/3/members", { as: s.users.othello });
    expect(mine.body).toEqual({ result: "success", msg: "", subscribers: [4] });
    const admin = await s.api.get("/api/v1/streams/3/members", { as: s.users.iago });
    expect(admin.body).toEqual({ result: "success", msg: "", subscribers: [4] });
  });

  it("rejects a stream that does not exist", async () => {
    const res = await s.api.get("/api/v1/streams/99/members", { as: s.users.hamlet });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: "error", msg: "Invalid stream ID", code: "BAD_REQUEST" });
  });

  it("is not found for an id that is not a number", async () => {
    const res = await s.api.get("/api/v1/streams/Denmark/members", { as: s.users.hamlet });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ result: "error", msg: "Not Found", code: "NOT_FOUND" });
  });
});

describe("the first start", () => {
  it("creates general as the realm's notifications stream, idempotently", async () => {
    await s.running.services.streams.ensureDefaultStreams();
    const all = await s.running.services.streams.allStreams();
    expect(all.map((x) => [x.id, x.name, x.isDefault])).toEqual([
      [1, "general", true],
      [2, "Denmark", false],
      [3, "secret", false],
      [4, "Verona", false],
    ]);
    expect((await s.running.services.users.realm()).notificationsStreamId).toBe(1);
    expect(await s.running.services.streams.subscriberIds(1)).toEqual([1]);
  });

  it("subscribes a new user to the default streams", async () => {
    const hamlet = (await s.running.services.users.byId(s.users.hamlet.id))!;
    await s.running.services.streams.subscribeToDefaultStreams(hamlet);
    expect(await s.running.services.streams.subscriberIds(1)).toEqual([1, 3]);
    expect(await s.running.services.streams.subscribedStreamIds(3)).toEqual([1, 2]);
  });
});
