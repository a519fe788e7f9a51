import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import type { TestUser } from "../helpers/test-server.js";
import { T0, createStream, recordEvents, send, startMessagingServer } from "./message-helpers.js";
import type { MessagingServer } from "./message-helpers.js";

let server: MessagingServer;
let denmark: number;
let secret: number;

const ok = { result: "success", msg: "" };
const notAdmin = {
  result: "error",
  msg: "Must be an organization administrator",
  code: "UNAUTHORIZED_PRINCIPAL",
};
const invalidStream = { result: "error", msg: "Invalid stream ID", code: "BAD_REQUEST" };
// Stream objects leave out can_remove_subscribers_group (no user groups yet): see streams.test.ts.
const STREAMS_SCHEMA_GAP = { skipSchemaCheck: true };

/** Streams: 1 general (no subscribers here), 2 Denmark (hamlet, othello), 3 secret (private: hamlet). */
beforeEach(async () => {
  server = await startMessagingServer();
  const { hamlet, othello } = server.users;
  denmark = await createStream(server, "Denmark", [hamlet, othello]);
  secret = await createStream(server, "secret", [hamlet], { inviteOnly: true });
});
afterEach(async () => {
  await server.close();
});

describe("PATCH /api/v1/streams/{stream_id}", () => {
  it("renames a stream for an administrator, with events and the Notification Bot's notice", async () => {
    const { iago, hamlet } = server.users;
    const events = recordEvents(server);
    const res = await server.api.patch(`/api/v1/streams/${denmark}`, {
      as: iago,
      params: { new_name: "Elsinore", description: "The **castle**" },
    });
    expect(res.body).toEqual(ok);
    const streamEvents = events.filter((e) => e.event.type === "stream");
    expect(streamEvents.map((e) => e.event)).toEqual([
      {
        type: "stream",
        op: "update",
        property: "name",
        value: "Elsinore",
        stream_id: denmark,
        name: "Denmark",
      },
      {
        type: "stream",
        op: "update",
        property: "description",
        value: "The **castle**",
        rendered_description: "<p>The <strong>castle</strong></p>",
        stream_id: denmark,
        name: "Elsinore",
      },
    ]);
    const stream = await server.api.get(`/api/v1/streams/${denmark}`, { as: hamlet, ...STREAMS_SCHEMA_GAP });
    expect([stream.body.stream.name, stream.body.stream.description]).toEqual(["Elsinore", "The **castle**"]);
    const notices = await server.api.get("/api/v1/messages", {
      as: hamlet,
      params: {
        anchor: "oldest",
        num_before: 0,
        num_after: 10,
        narrow: [
          ["stream", "Elsinore"],
          ["topic", "stream events"],
        ],
        apply_markdown: false,
      },
    });
    expect(
      notices.body.messages.map((m: Record<string, unknown>) => [m["sender_email"], m["content"]]),
    ).toEqual([
      ["notification-bot@zulip.com", `@_**Iago|${iago.id}** renamed stream **Denmark** to **Elsinore**.`],
      [
        "notification-bot@zulip.com",
        `@_**Iago|${iago.id}** changed the description for this stream.\n\n* **Old description:**\n*No description.*\n* **New description:**\n\`\`\`\` quote\nThe **castle**\n\`\`\`\``,
      ],
    ]);
  });

  it("lets only administrators change a stream, and hides private streams from outsiders", async () => {
    const { hamlet, cordelia } = server.users;
    const member = await server.api.patch(`/api/v1/streams/${denmark}`, {
      as: hamlet,
      params: { new_name: "X" },
    });
    expect([member.status, member.body]).toEqual([400, notAdmin]);
    const outsider = await server.api.patch(`/api/v1/streams/${secret}`, {
      as: cordelia,
      params: { new_name: "X" },
    });
    expect([outsider.status, outsider.body]).toEqual([400, invalidStream]);
    const unknown = await server.api.patch("/api/v1/streams/99", {
      as: server.users.iago,
      params: { new_name: "X" },
    });
    expect(unknown.body).toEqual(invalidStream);
  });

  it("refuses a taken name, an empty name and public streams without shared history", async () => {
    const { iago } = server.users;
    const cases: [Record<string, string>, string][] = [
      [{ new_name: "SECRET" }, "Stream name 'SECRET' is already taken."],
      [{ new_name: "  " }, "Stream name can't be empty!"],
      [{ history_public_to_subscribers: "false" }, "Invalid parameters"],
      [{ stream_post_policy: "7" }, "Invalid stream_post_policy"],
    ];
    for (const [params, msg] of cases) {
      const res = await server.api.patch(`/api/v1/streams/${denmark}`, { as: iago, params });
      expect([res.status, res.body]).toEqual([400, { result: "error", msg, code: "BAD_REQUEST" }]);
    }
  });

  it("makes a stream private: its name disappears for non-subscribers", async () => {
    const { iago, cordelia, hamlet } = server.users;
    const events = recordEvents(server);
    const res = await server.api.patch(`/api/v1/streams/${denmark}`, {
      as: iago,
      params: { is_private: "true", stream_post_policy: "2" },
    });
    expect(res.body).toEqual(ok);
    const deleted = events.find((e) => e.event.type === "stream" && e.event["op"] === "delete");
    // Everyone who could see the public stream but is not subscribed (bots included) loses it.
    expect(deleted?.recipients).toContain(cordelia.id);
    expect(deleted?.recipients).not.toContain(hamlet.id);
    expect((await server.api.get(`/api/v1/streams/${denmark}`, { as: cordelia })).body).toEqual(
      invalidStream,
    );
    const stream = (await server.api.get(`/api/v1/streams/${denmark}`, { as: hamlet, ...STREAMS_SCHEMA_GAP }))
      .body.stream;
    expect([stream.invite_only, stream.history_public_to_subscribers, stream.stream_post_policy]).toEqual([
      true,
      false,
      2,
    ]);
    const post = await server.api.post("/api/v1/messages", {
      as: hamlet,
      params: { type: "stream", to: "Denmark", topic: "t", content: "hi" },
    });
    expect(post.body).toEqual({
      result: "error",
      msg: "Only organization administrators can send to this stream.",
      code: "BAD_REQUEST",
    });
  });
});

describe("DELETE /api/v1/streams/{stream_id}", () => {
  it("archives a stream: unsubscribed, unlisted, its name kept and taken", async () => {
    const { iago, hamlet, othello } = server.users;
    const events = recordEvents(server);
    const member = await server.api.delete(`/api/v1/streams/${denmark}`, { as: hamlet });
    expect(member.body).toEqual(notAdmin);
    const res = await server.api.delete(`/api/v1/streams/${denmark}`, { as: iago });
    expect(res.body).toEqual(ok);
    expect(events.map((e) => [e.event.type, e.event["op"], e.recipients])).toEqual([
      ["subscription", "remove", [hamlet.id]],
      ["subscription", "remove", [othello.id]],
      ["stream", "delete", expect.arrayContaining([iago.id, hamlet.id, othello.id])],
    ]);
    const archived = await server.api.get(`/api/v1/streams/${denmark}`, { as: iago });
    expect([archived.body.stream.name, archived.body.stream.is_archived]).toEqual(["Denmark", true]);
    const list = await server.api.get("/api/v1/streams", { as: hamlet, ...STREAMS_SCHEMA_GAP });
    expect(list.body.streams.map((s: { name: string }) => s.name)).toEqual(["general", "secret"]);
    const again = await server.api.delete(`/api/v1/streams/${denmark}`, { as: iago });
    expect(again.body).toEqual(invalidStream);
    const post = await server.api.post("/api/v1/users/me/subscriptions", {
      as: hamlet,
      params: { subscriptions: JSON.stringify([{ name: "Denmark" }]) },
    });
    expect([post.status, post.body]).toEqual([
      400,
      { result: "error", msg: "Stream 'Denmark' is archived.", code: "BAD_REQUEST" },
    ]);
  });
});

describe("GET /api/v1/users/me/{stream_id}/topics", () => {
  it("lists topics newest first with their latest message, as far as the user may read", async () => {
    const { hamlet, othello, cordelia } = server.users;
    await send(server, hamlet, { type: "stream", to: "Denmark", topic: "castle", content: "a" });
    await send(server, othello, { type: "stream", to: "Denmark", topic: "ghost", content: "b" });
    await send(server, hamlet, { type: "stream", to: "Denmark", topic: "Castle", content: "c" });
    await send(server, hamlet, { type: "stream", to: "secret", topic: "plans", content: "d" });
    const topics = await server.api.get(`/api/v1/users/me/${denmark}/topics`, { as: cordelia });
    expect(topics.body).toEqual({
      ...ok,
      topics: [
        { max_id: 3, name: "Castle" },
        { max_id: 2, name: "ghost" },
      ],
    });
    expect((await server.api.get(`/api/v1/users/me/${secret}/topics`, { as: hamlet })).body).toEqual({
      ...ok,
      topics: [{ max_id: 4, name: "plans" }],
    });
    expect((await server.api.get(`/api/v1/users/me/${secret}/topics`, { as: cordelia })).body).toEqual(
      invalidStream,
    );
  });
});

describe("POST /api/v1/streams/{stream_id}/delete_topic", () => {
  it("deletes a topic's messages for administrators only", async () => {
    const { iago, hamlet } = server.users;
    await send(server, hamlet, { type: "stream", to: "Denmark", topic: "ghost", content: "a" });
    await send(server, hamlet, { type: "stream", to: "Denmark", topic: "GHOST", content: "b" });
    await send(server, hamlet, { type: "stream", to: "Denmark", topic: "castle", content: "c" });
    const member = await server.api.post(`/api/v1/streams/${denmark}/delete_topic`, {
      as: hamlet,
      params: { topic_name: "ghost" },
    });
    expect(member.body).toEqual(notAdmin);
    const events = recordEvents(server);
    const res = await server.api.post(`/api/v1/streams/${denmark}/delete_topic`, {
      as: iago,
      params: { topic_name: "ghost" },
    });
    expect(res.body).toEqual(ok);
    expect(events.map((e) => e.event)).toEqual([
      {
        type: "delete_message",
        message_ids: [1],
        message_type: "stream",
        stream_id: denmark,
        topic: "ghost",
      },
      {
        type: "delete_message",
        message_ids: [2],
        message_type: "stream",
        stream_id: denmark,
        topic: "GHOST",
      },
    ]);
    expect((await server.api.get(`/api/v1/users/me/${denmark}/topics`, { as: hamlet })).body.topics).toEqual([
      { max_id: 3, name: "castle" },
    ]);
  });
});

describe("POST and DELETE /api/v1/default_streams", () => {
  it("lets administrators choose public default streams", async () => {
    const { iago, hamlet } = server.users;
    const events = recordEvents(server);
    expect(
      (await server.api.post("/api/v1/default_streams", { as: hamlet, params: { stream_id: denmark } })).body,
    ).toEqual(notAdmin);
    expect(
      (await server.api.post("/api/v1/default_streams", { as: iago, params: { stream_id: secret } })).body,
    ).toEqual({
      result: "error",
      msg: "Private streams cannot be made default.",
      code: "BAD_REQUEST",
    });
    expect(
      (await server.api.post("/api/v1/default_streams", { as: iago, params: { stream_id: denmark } })).body,
    ).toEqual(ok);
    const list = await server.api.get("/api/v1/streams", {
      as: iago,
      params: { include_default: "true" },
      ...STREAMS_SCHEMA_GAP,
    });
    expect(
      list.body.streams.map((s: { name: string; is_default: boolean }) => [s.name, s.is_default]),
    ).toEqual([
      ["Denmark", true],
      ["general", true],
    ]);
    expect(
      (await server.api.delete("/api/v1/default_streams", { as: iago, params: { stream_id: denmark } })).body,
    ).toEqual(ok);
    // Channel ids since Zulip 10.0 (feature level 330).
    expect(events.map((e) => e.event["default_streams"])).toEqual([[1, denmark], [1]]); // 1: "general"
  });
});

describe("POST /api/v1/user_topics", () => {
  it("follows, mutes and resets a topic, with user_topic and muted_topics events", async () => {
    const { hamlet } = server.users;
    const events = recordEvents(server);
    const set = (visibility_policy: number) =>
      server.api.post("/api/v1/user_topics", {
        as: hamlet,
        params: { stream_id: denmark, topic: "castle", visibility_policy },
      });
    expect((await set(3)).body).toEqual(ok);
    expect(await server.running.services.streams.userTopics(hamlet.id)).toEqual([
      { stream_id: denmark, topic_name: "castle", last_updated: T0, visibility_policy: 3 },
    ]);
    expect((await set(1)).body).toEqual(ok);
    expect(await server.running.services.streams.userTopics(hamlet.id)).toEqual([
      { stream_id: denmark, topic_name: "castle", last_updated: T0, visibility_policy: 1 },
    ]);
    expect((await set(0)).body).toEqual(ok);
    const topicEvent = (policy: number) => ({
      event: {
        type: "user_topic",
        stream_id: denmark,
        topic_name: "castle",
        last_updated: T0,
        visibility_policy: policy,
      },
      recipients: [hamlet.id],
    });
    expect(events).toEqual([
      topicEvent(3),
      topicEvent(1),
      { event: { type: "muted_topics", muted_topics: [["Denmark", "castle", T0]] }, recipients: [hamlet.id] },
      topicEvent(0),
      { event: { type: "muted_topics", muted_topics: [] }, recipients: [hamlet.id] },
    ]);
    const bad = await set(7);
    expect(bad.body).toEqual({ result: "error", msg: "Invalid visibility_policy", code: "BAD_REQUEST" });
    const hidden = await server.api.post("/api/v1/user_topics", {
      as: server.users.cordelia,
      params: { stream_id: secret, topic: "x", visibility_policy: 1 },
    });
    expect(hidden.body).toEqual(invalidStream);
  });

  it("takes changes of one topic from several clients at once, keeping one of them", async () => {
    // The row was deleted and inserted again: on PostgreSQL two at once made one a 500.
    const { hamlet } = server.users;
    const policies = [1, 3, 1, 3, 2, 3];
    const answers = await Promise.all(
      policies.map((visibility_policy) =>
        server.api.post("/api/v1/user_topics", {
          as: hamlet,
          params: { stream_id: denmark, topic: "castle", visibility_policy },
        }),
      ),
    );
    expect(answers.map((a) => a.body)).toEqual(policies.map(() => ok));
    const kept = await server.running.services.streams.userTopics(hamlet.id);
    expect(kept).toHaveLength(1);
    expect(policies).toContain(kept[0]?.visibility_policy);
  });
});

describe("GET /api/v1/users/{user_id}/subscriptions/{stream_id}", () => {
  it("answers whether a user is subscribed, for streams the requester can see", async () => {
    const { hamlet, othello, cordelia } = server.users;
    const status = (as: TestUser, user: TestUser, stream: number) =>
      server.api.get(`/api/v1/users/${user.id}/subscriptions/${stream}`, { as });
    expect((await status(cordelia, hamlet, denmark)).body).toEqual({ ...ok, is_subscribed: true });
    expect((await status(cordelia, cordelia, denmark)).body).toEqual({ ...ok, is_subscribed: false });
    expect((await status(othello, hamlet, secret)).body).toEqual(invalidStream);
    expect((await status(hamlet, hamlet, secret)).body).toEqual({ ...ok, is_subscribed: true });
    const unknown = await server.api.get(`/api/v1/users/999/subscriptions/${denmark}`, { as: hamlet });
    expect(unknown.body).toEqual({ result: "error", msg: "No such user", code: "BAD_REQUEST" });
  });
});
