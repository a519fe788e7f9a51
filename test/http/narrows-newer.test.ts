import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { send, startMessagingServer } from "./message-helpers.js";
import type { MessagingServer } from "./message-helpers.js";

// Narrow operators of Zulip 7.0 to 10.0: dm-including (177), has:reaction (249), channels (250),
// is:followed (265), with (271), is:muted (366), is:resolved.
let server: MessagingServer;
let denmark: number;
const ids: Record<string, number> = {};

beforeAll(async () => {
  server = await startMessagingServer();
  const { api, users } = server;
  await api.post("/api/v1/users/me/subscriptions", {
    as: users.hamlet,
    params: { subscriptions: [{ name: "Denmark" }], principals: [users.hamlet.email, users.othello.email] },
  });
  denmark = (await api.get("/api/v1/get_stream_id", { as: users.hamlet, params: { stream: "Denmark" } })).body
    .stream_id as number;
  const stream = (topic: string, content: string) =>
    send(server, users.othello, { type: "stream", to: "Denmark", topic, content });
  ids["a"] = await stream("alpha", "a");
  ids["b"] = await stream("beta", "b");
  ids["c"] = await stream("gamma", "c");
  ids["dm"] = await send(server, users.othello, { type: "direct", to: [users.hamlet.id], content: "dm" });
  ids["group"] = await send(server, users.othello, {
    type: "direct",
    to: [users.hamlet.id, users.cordelia.id],
    content: "group",
  });
  await api.post(`/api/v1/messages/${ids["b"]}/reactions`, {
    as: users.hamlet,
    params: { emoji_name: "wave" },
  });
  await api.post("/api/v1/user_topics", {
    as: users.hamlet,
    params: { stream_id: denmark, topic: "gamma", visibility_policy: 3 },
  });
  await api.post("/api/v1/user_topics", {
    as: users.hamlet,
    params: { stream_id: denmark, topic: "beta", visibility_policy: 1 },
  });
  // "alpha" is moved (and resolved) after the links to it were made.
  await api.patch(`/api/v1/messages/${ids["a"]}`, {
    as: users.othello,
    params: { topic: "✔ alpha", propagate_mode: "change_all" },
  });
  // Resolving it posted the Notification Bot's notice in it, as Zulip does.
  const newest = await api.get("/api/v1/messages", {
    as: users.hamlet,
    params: { anchor: "newest", num_before: 1, num_after: 0 },
  });
  const notice = (newest.body.messages as { id: number; sender_email: string; subject: string }[]).at(-1);
  expect([notice?.sender_email, notice?.subject]).toEqual(["notification-bot@zulip.com", "✔ alpha"]);
  ids["notice"] = notice!.id;
});
afterAll(async () => {
  await server.close();
});

async function idsOf(narrow: object[]): Promise<number[]> {
  const res = await server.api.get("/api/v1/messages", {
    as: server.users.hamlet,
    params: { narrow, anchor: "newest", num_before: 50, num_after: 0 },
  });
  expect(res.status).toBe(200);
  return (res.body.messages as { id: number }[]).map((m) => m.id);
}

describe("GET /api/v1/messages with newer narrow operators", () => {
  it("dm-including finds every direct message with that user", async () => {
    expect(await idsOf([{ operator: "dm-including", operand: server.users.cordelia.id }])).toEqual([
      ids["group"],
    ]);
    expect(await idsOf([{ operator: "dm-including", operand: server.users.othello.id }])).toEqual([
      ids["dm"],
      ids["group"],
    ]);
  });

  it("has:reaction, channels:public, is:followed, is:muted and is:resolved", async () => {
    expect(await idsOf([{ operator: "has", operand: "reaction" }])).toEqual([ids["b"]]);
    expect(await idsOf([{ operator: "channels", operand: "public" }])).toEqual([
      ids["a"],
      ids["b"],
      ids["c"],
      ids["notice"],
    ]);
    expect(await idsOf([{ operator: "is", operand: "muted" }])).toEqual([ids["b"]]);
    expect(await idsOf([{ operator: "is", operand: "resolved" }])).toEqual([ids["a"], ids["notice"]]);
    expect(await idsOf([{ operator: "is", operand: "followed" }])).toEqual([ids["c"]]);
  });

  it("with follows its message to where the conversation is now", async () => {
    const narrow = [
      { operator: "channel", operand: denmark },
      { operator: "topic", operand: "alpha" },
      { operator: "with", operand: ids["a"] },
    ];
    expect(await idsOf(narrow)).toEqual([ids["a"], ids["notice"]]);
    expect(await idsOf([{ operator: "with", operand: ids["dm"] }])).toEqual([ids["dm"]]);
  });

  it("ignores a with naming no readable message, and rejects an unknown channels operand", async () => {
    expect(
      await idsOf([
        { operator: "channel", operand: denmark },
        { operator: "with", operand: 99999 },
      ]),
    ).toEqual([ids["a"], ids["b"], ids["c"], ids["notice"]]);
    const res = await server.api.get("/api/v1/messages", {
      as: server.users.hamlet,
      params: {
        narrow: [{ operator: "channels", operand: "all" }],
        anchor: "newest",
        num_before: 5,
        num_after: 0,
      },
    });
    expect(res.body).toEqual({
      result: "error",
      msg: "Invalid narrow operator: Invalid 'channels' operand: all",
      code: "BAD_NARROW",
      desc: "Invalid 'channels' operand: all",
    });
  });
});
