import { afterEach, beforeEach, describe, expect, it, jest } from "@jest/globals";
import type { ZulipEvent } from "../../src/domain/events/event-sink.js";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer, TestUser } from "../helpers/test-server.js";

// A private stream "secret" (id 2, description "the plan") of othello (4) and cordelia (5).
// Outsiders: hamlet (3, member), polonius (6, guest); iago (1) is an administrator, not subscribed.
const SUBS = "/api/v1/users/me/subscriptions";
const STREAMS_SCHEMA_GAP = { skipSchemaCheck: true }; // see streams.test.ts

let s: TestServer;
beforeEach(async () => {
  s = await startTestServer();
  await s.api.post(SUBS, {
    as: s.users.othello,
    params: {
      subscriptions: [{ name: "secret", description: "the plan" }],
      invite_only: true,
      principals: ["othello@zulip.com", "cordelia@zulip.com"],
    },
  });
  await s.api.post(SUBS, { as: s.users.hamlet, params: { subscriptions: [{ name: "Denmark" }] } });
});
afterEach(() => s.close());

function expectNoLeak(body: unknown): void {
  const text = JSON.stringify(body);
  expect(text).not.toContain("secret");
  expect(text).not.toContain("the plan");
}

const invalidName = (name: string) => ({
  result: "error",
  msg: `Invalid stream name '${name}'`,
  code: "BAD_REQUEST",
});
const INVALID_ID = { result: "error", msg: "Invalid stream ID", code: "BAD_REQUEST" };

describe.each([
  ["a member", "hamlet"],
  ["a guest", "polonius"],
  ["an administrator who is not subscribed", "iago"],
] as const)("a private stream seen by %s", (_label, who) => {
  let user: TestUser;
  beforeEach(() => {
    user = s.users[who];
  });

  it("is not listed by GET /streams with the default flags", async () => {
    const res = await s.api.get("/api/v1/streams", { as: user, ...STREAMS_SCHEMA_GAP });
    expect(res.status).toBe(200);
    expectNoLeak(res.body);
  });

  it("is not listed by GET /users/me/subscriptions", async () => {
    const res = await s.api.get(SUBS, { as: user, params: { include_subscribers: true } });
    expect(res.status).toBe(200);
    expectNoLeak(res.body);
  });

  it("has no id for GET /get_stream_id, exactly as a stream that does not exist", async () => {
    const res = await s.api.get("/api/v1/get_stream_id", { as: user, params: { stream: "secret" } });
    expect(res.body).toEqual(invalidName("secret"));
    const none = await s.api.get("/api/v1/get_stream_id", { as: user, params: { stream: "nosuch" } });
    expect(none.body).toEqual(invalidName("nosuch"));
  });

  it("cannot be unsubscribed from: it does not exist (an administrator may name it)", async () => {
    const res = await s.api.delete(SUBS, { as: user, params: { subscriptions: ["secret"] } });
    expect(res.body).toEqual(
      who === "iago"
        ? { result: "success", msg: "", removed: [], not_removed: ["secret"] }
        : {
            result: "error",
            msg: "Stream 'secret' does not exist",
            code: "STREAM_DOES_NOT_EXIST",
            stream: "secret",
          },
    );
  });

  it("has no subscription properties", async () => {
    const res = await s.api.post(`${SUBS}/properties`, {
      as: user,
      params: { subscription_data: [{ stream_id: 2, property: "pin_to_top", value: true }] },
    });
    expect(res.body).toEqual(INVALID_ID);
  });

  it("has no topics to mute, and unmuting says what it says for any stream", async () => {
    const byName = await s.api.patch(`${SUBS}/muted_topics`, {
      as: user,
      params: { stream: "secret", topic: "x", op: "add" },
    });
    expect(byName.body).toEqual(invalidName("secret"));
    const byId = await s.api.patch(`${SUBS}/muted_topics`, {
      as: user,
      params: { stream_id: 2, topic: "x", op: "add" },
    });
    expect(byId.body).toEqual(INVALID_ID);
    const remove = await s.api.patch(`${SUBS}/muted_topics`, {
      as: user,
      params: { stream_id: 2, topic: "x", op: "remove" },
    });
    expect(remove.body).toEqual({ result: "error", msg: "Topic is not muted", code: "BAD_REQUEST" });
  });

  it("cannot be joined, and the error names only what was asked", async () => {
    const res = await s.api.post(SUBS, { as: user, params: { subscriptions: [{ name: "SECRET" }] } });
    expect(res.body).toEqual({
      result: "error",
      msg: "Unable to access stream (SECRET).",
      code: "BAD_REQUEST",
    });
    const soft = await s.api.post(SUBS, {
      as: user,
      params: { subscriptions: [{ name: "SECRET" }], authorization_errors_fatal: false },
    });
    expect(soft.body).toEqual({
      result: "success",
      msg: "",
      subscribed: {},
      already_subscribed: {},
      unauthorized: ["SECRET"],
    });
  });
});

describe("a private stream's subscribers", () => {
  it("are hidden from a member and a guest, exactly as for a stream that does not exist", async () => {
    for (const user of [s.users.hamlet, s.users.polonius]) {
      const stream = await s.api.get("/api/v1/streams/2", { as: user });
      expect(stream.body).toEqual(INVALID_ID);
      const res = await s.api.get("/api/v1/streams/2/members", { as: user });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(INVALID_ID);
      const none = await s.api.get("/api/v1/streams/99/members", { as: user });
      expect(none.body).toEqual(INVALID_ID);
    }
  });

  it("are shown to an administrator (as in Zulip) and to subscribers", async () => {
    for (const user of [s.users.iago, s.users.cordelia]) {
      const res = await s.api.get("/api/v1/streams/2/members", { as: user });
      expect(res.body).toEqual({ result: "success", msg: "", subscribers: [4, 5] });
    }
  });
});

describe("public streams and guests", () => {
  it("a guest does not see a public stream they are not in", async () => {
    const list = await s.api.get("/api/v1/streams", { as: s.users.polonius, ...STREAMS_SCHEMA_GAP });
    expect(list.body).toEqual({ result: "success", msg: "", streams: [] });
    const id = await s.api.get("/api/v1/get_stream_id", {
      as: s.users.polonius,
      params: { stream: "Denmark" },
    });
    expect(id.body).toEqual(invalidName("Denmark"));
    const members = await s.api.get("/api/v1/streams/3/members", { as: s.users.polonius });
    expect(members.body).toEqual(INVALID_ID);
    const mute = await s.api.patch(`${SUBS}/muted_topics`, {
      as: s.users.polonius,
      params: { stream: "Denmark", topic: "x", op: "add" },
    });
    expect(mute.body).toEqual(invalidName("Denmark"));
    const leave = await s.api.delete(SUBS, { as: s.users.polonius, params: { subscriptions: ["Denmark"] } });
    expect(leave.body).toEqual({
      result: "error",
      msg: "Stream 'Denmark' does not exist",
      code: "STREAM_DOES_NOT_EXIST",
      stream: "Denmark",
    });
  });
});

describe("events about a private stream", () => {
  function recordEvents(): { event: ZulipEvent; to: number[] }[] {
    const recorded: { event: ZulipEvent; to: number[] }[] = [];
    jest.spyOn(s.running.services.events, "send").mockImplementation((event, recipients) => {
      recorded.push({ event, to: [...recipients].map((r) => (typeof r === "number" ? r : r.id)) });
    });
    return recorded;
  }

  it("reach only subscribers, plus administrators for subscriber changes (ids only)", async () => {
    const events = recordEvents();
    await s.api.post(SUBS, {
      as: s.users.othello,
      params: { subscriptions: [{ name: "cabal", description: "more plans" }], invite_only: true },
    });
    await s.api.post(SUBS, {
      as: s.users.othello,
      params: { subscriptions: [{ name: "secret" }], principals: ["webhook-bot@zulip.com"] },
    });
    await s.api.delete(SUBS, { as: s.users.cordelia, params: { subscriptions: ["secret"] } });
    await s.api.post(`${SUBS}/properties`, {
      as: s.users.othello,
      params: { subscription_data: [{ stream_id: 2, property: "is_muted", value: true }] },
    });
    const outsiders = [3, 6];
    for (const { event, to } of events) {
      for (const outsider of outsiders)
        expect({ event, to: to.includes(outsider) }).toEqual({ event, to: false });
      if (to.includes(1)) {
        expect(["peer_add", "peer_remove"]).toContain(event["op"]);
        expect(Object.keys(event).sort()).toEqual(["op", "stream_ids", "type", "user_ids"]);
      }
    }
    expect(events.map(({ event, to }) => [event.type, event["op"], to])).toEqual([
      ["stream", "create", [4]],
      ["subscription", "add", [4]],
      ["subscription", "peer_add", [1]],
      ["stream", "create", [7]],
      ["subscription", "add", [7]],
      ["subscription", "peer_add", [1, 4, 5]],
      ["subscription", "remove", [5]],
      ["subscription", "peer_remove", [1, 4, 7]],
      ["subscription", "update", [4]],
      ["subscription", "update", [4]],
    ]);
  });
});
