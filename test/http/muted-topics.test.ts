import { afterEach, beforeEach, describe, expect, it, jest } from "@jest/globals";
import { ManualClock } from "../../src/clock.js";
import type { ZulipEvent } from "../../src/domain/events/event-sink.js";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer } from "../helpers/test-server.js";

// hamlet is user 3; "general" is stream 1 (created on first start); Denmark becomes stream 2.
const T0 = Date.UTC(2026, 0, 1);
const NOW = 1767225600;
const MUTED = "/api/v1/users/me/subscriptions/muted_topics";

let s: TestServer;
let clock: ManualClock;
beforeEach(async () => {
  clock = new ManualClock(T0);
  s = await startTestServer({ clock });
  await s.api.post("/api/v1/users/me/subscriptions", {
    as: s.users.hamlet,
    params: { subscriptions: [{ name: "Denmark" }] },
  });
});
afterEach(() => s.close());

function recordEvents(): { event: ZulipEvent; to: number[] }[] {
  const recorded: { event: ZulipEvent; to: number[] }[] = [];
  jest.spyOn(s.running.services.events, "send").mockImplementation((event, recipients) => {
    recorded.push({ event, to: [...recipients].map((r) => (typeof r === "number" ? r : r.id)) });
  });
  return recorded;
}

const ok = { result: "success", msg: "" };

describe("PATCH /api/v1/users/me/subscriptions/muted_topics", () => {
  it("mutes a topic by stream name, even one without messages", async () => {
    const res = await s.api.patch(MUTED, {
      as: s.users.hamlet,
      params: { stream: "Denmark", topic: "Elsinore", op: "add" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(ok);
    expect(await s.running.services.streams.mutedTopics(s.users.hamlet.id)).toEqual([
      ["Denmark", "Elsinore", NOW],
    ]);
    expect(await s.running.services.streams.isTopicMuted(s.users.hamlet.id, 2, "elsinore")).toBe(true);
  });

  it("mutes a topic by stream id", async () => {
    const res = await s.api.patch(MUTED, {
      as: s.users.hamlet,
      params: { stream_id: 2, topic: "Elsinore", op: "add" },
    });
    expect(res.body).toEqual(ok);
    expect(await s.running.services.streams.mutedTopics(s.users.hamlet.id)).toEqual([
      ["Denmark", "Elsinore", NOW],
    ]);
  });

  it("mutes a topic of a public stream the user is not subscribed to", async () => {
    const res = await s.api.patch(MUTED, {
      as: s.users.hamlet,
      params: { stream: "general", topic: "lunch", op: "add" },
    });
    expect(res.body).toEqual(ok);
  });

  it("answers 'Topic already muted' when muting twice, whatever the case", async () => {
    await s.api.patch(MUTED, {
      as: s.users.hamlet,
      params: { stream: "Denmark", topic: "Elsinore", op: "add" },
    });
    const res = await s.api.patch(MUTED, {
      as: s.users.hamlet,
      params: { stream_id: 2, topic: "ELSINORE", op: "add" },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: "error", msg: "Topic already muted", code: "BAD_REQUEST" });
    expect(await s.running.services.streams.mutedTopics(s.users.hamlet.id)).toEqual([
      ["Denmark", "Elsinore", NOW],
    ]);
  });

  it("unmutes a muted topic", async () => {
    await s.api.patch(MUTED, {
      as: s.users.hamlet,
      params: { stream: "Denmark", topic: "Elsinore", op: "add" },
    });
    const res = await s.api.patch(MUTED, {
      as: s.users.hamlet,
      params: { stream: "denmark", topic: "elsinore", op: "remove" },
    });
    expect(res.body).toEqual(ok);
    expect(await s.running.services.streams.mutedTopics(s.users.hamlet.id)).toEqual([]);
    expect(await s.running.services.streams.isTopicMuted(s.users.hamlet.id, 2, "Elsinore")).toBe(false);
  });

  it("answers 'Topic is not muted' when unmuting a topic that is not muted", async () => {
    const res = await s.api.patch(MUTED, {
      as: s.users.hamlet,
      params: { stream_id: 2, topic: "Elsinore", op: "remove" },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: "error", msg: "Topic is not muted", code: "BAD_REQUEST" });
  });

  it("answers 'Topic is not muted' when unmuting in a stream that does not exist", async () => {
    const res = await s.api.patch(MUTED, {
      as: s.users.hamlet,
      params: { stream: "nope", topic: "x", op: "remove" },
    });
    expect(res.body).toEqual({ result: "error", msg: "Topic is not muted", code: "BAD_REQUEST" });
  });

  it("asks for a stream when neither stream nor stream_id is given", async () => {
    const res = await s.api.patch(MUTED, { as: s.users.hamlet, params: { topic: "Elsinore", op: "add" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: "error", msg: "Please supply 'stream'.", code: "BAD_REQUEST" });
  });

  it("asks to choose when both stream and stream_id are given", async () => {
    const res = await s.api.patch(MUTED, {
      as: s.users.hamlet,
      params: { stream: "Denmark", stream_id: 2, topic: "Elsinore", op: "add" },
    });
    expect(res.body).toEqual({
      result: "error",
      msg: "Please choose one: 'stream' or 'stream_id'.",
      code: "BAD_REQUEST",
    });
  });

  it("rejects a stream name that does not exist", async () => {
    const res = await s.api.patch(MUTED, {
      as: s.users.hamlet,
      params: { stream: "nope", topic: "x", op: "add" },
    });
    expect(res.body).toEqual({ result: "error", msg: "Invalid stream name 'nope'", code: "BAD_REQUEST" });
  });

  it("rejects a stream id that does not exist", async () => {
    const res = await s.api.patch(MUTED, {
      as: s.users.hamlet,
      params: { stream_id: 99, topic: "x", op: "add" },
    });
    expect(res.body).toEqual({ result: "error", msg: "Invalid stream ID", code: "BAD_REQUEST" });
  });

  it("rejects an unknown op", async () => {
    const res = await s.api.patch(MUTED, {
      as: s.users.hamlet,
      params: { stream_id: 2, topic: "x", op: "toggle" },
    });
    expect(res.body).toEqual({ result: "error", msg: "Invalid op: 'toggle'", code: "BAD_REQUEST" });
  });

  it("requires topic and op", async () => {
    const noTopic = await s.api.patch(MUTED, { as: s.users.hamlet, params: { stream_id: 2, op: "add" } });
    expect(noTopic.body).toEqual({
      result: "error",
      msg: "Missing 'topic' argument",
      code: "REQUEST_VARIABLE_MISSING",
      var_name: "topic",
    });
    const noOp = await s.api.patch(MUTED, { as: s.users.hamlet, params: { stream_id: 2, topic: "x" } });
    expect(noOp.body).toEqual({
      result: "error",
      msg: "Missing 'op' argument",
      code: "REQUEST_VARIABLE_MISSING",
      var_name: "op",
    });
  });

  it("keeps each user's muted topics apart", async () => {
    await s.api.patch(MUTED, {
      as: s.users.hamlet,
      params: { stream: "Denmark", topic: "Elsinore", op: "add" },
    });
    expect(await s.running.services.streams.mutedTopics(s.users.othello.id)).toEqual([]);
    const res = await s.api.patch(MUTED, {
      as: s.users.othello,
      params: { stream: "Denmark", topic: "Elsinore", op: "remove" },
    });
    expect(res.body).toEqual({ result: "error", msg: "Topic is not muted", code: "BAD_REQUEST" });
  });

  it("publishes the full muted_topics list to the user after each change", async () => {
    const events = recordEvents();
    await s.api.patch(MUTED, {
      as: s.users.hamlet,
      params: { stream: "Denmark", topic: "Elsinore", op: "add" },
    });
    clock.advance(5000);
    await s.api.patch(MUTED, {
      as: s.users.hamlet,
      params: { stream: "general", topic: "lunch", op: "add" },
    });
    await s.api.patch(MUTED, {
      as: s.users.hamlet,
      params: { stream_id: 2, topic: "Elsinore", op: "remove" },
    });
    await s.api.patch(MUTED, {
      as: s.users.hamlet,
      params: { stream_id: 2, topic: "Elsinore", op: "remove" },
    });
    expect(events).toEqual([
      { event: { type: "muted_topics", muted_topics: [["Denmark", "Elsinore", NOW]] }, to: [3] },
      {
        event: {
          type: "muted_topics",
          muted_topics: [
            ["Denmark", "Elsinore", NOW],
            ["general", "lunch", NOW + 5],
          ],
        },
        to: [3],
      },
      { event: { type: "muted_topics", muted_topics: [["general", "lunch", NOW + 5]] }, to: [3] },
    ]);
  });

  it("exposes the muted topics as keys for unread counts", async () => {
    await s.api.patch(MUTED, {
      as: s.users.hamlet,
      params: { stream: "Denmark", topic: "Elsinore", op: "add" },
    });
    expect(await s.running.services.streams.mutedTopicKeys(s.users.hamlet.id)).toEqual(
      new Set(["2:elsinore"]),
    );
  });
});

describe("muted_topics events through an event queue", () => {
  it("delivers the full list to the user's queue", async () => {
    const reg = await s.api.post("/api/v1/register", {
      as: s.users.hamlet,
      params: { event_types: ["muted_topics"], fetch_event_types: [] },
    });
    expect(reg.status).toBe(200);
    await s.api.patch(MUTED, {
      as: s.users.hamlet,
      params: { stream: "Denmark", topic: "Elsinore", op: "add" },
    });
    const res = await s.api.get("/api/v1/events", {
      as: s.users.hamlet,
      params: { queue_id: reg.body.queue_id, last_event_id: -1, dont_block: true },
    });
    expect(res.body).toEqual({
      result: "success",
      msg: "",
      events: [{ type: "muted_topics", muted_topics: [["Denmark", "Elsinore", NOW]], id: 0 }],
    });
  });
});
