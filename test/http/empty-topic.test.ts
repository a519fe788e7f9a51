import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { drainEvents, registerQueue } from "../helpers/events.js";
import type { TestUser } from "../helpers/test-server.js";
import { createStream, startMessagingServer } from "./message-helpers.js";
import type { MessagingServer } from "./message-helpers.js";

/**
 * The empty topic ("general chat", Zulip 10.0-11.0, feature levels 334, 370, 372, 392, 404): the
 * `empty_topic_name` client capability and `allow_empty_topic_name` decide whether clients see ""
 * or `realm_empty_topic_display_name`; a channel's own `topics_policy` overrides the realm's.
 *
 * Users: iago 1 (owner), hamlet 3, othello 4. Streams: 1 general, 2 Denmark (hamlet, othello).
 */
let server: MessagingServer;
let denmark: number;

const ok = { result: "success", msg: "" };
const error = (msg: string) => ({ result: "error", msg, code: "BAD_REQUEST" });

beforeEach(async () => {
  server = await startMessagingServer();
  denmark = await createStream(server, "Denmark", [server.users.hamlet, server.users.othello]);
});
afterEach(async () => {
  await server.close();
});

const sendTo = (as: TestUser, topic: string) =>
  server.api.post("/api/v1/messages", {
    as,
    params: { type: "stream", to: "Denmark", topic, content: "hello" },
  });
const setStreamPolicy = (as: TestUser, value: string) =>
  server.api.patch(`/api/v1/streams/${denmark}`, { as, params: { topics_policy: value } });

async function subjects(params: Record<string, boolean>): Promise<string[]> {
  const res = await server.api.get("/api/v1/messages", {
    as: server.users.othello,
    params: { anchor: "newest", num_before: 10, num_after: 0, ...params },
  });
  expect(res.status).toBe(200);
  return (res.body.messages as { subject: string }[]).map((m) => m.subject);
}

describe("empty topics", () => {
  it('reach clients as "" with empty_topic_name / allow_empty_topic_name, else as "general chat"', async () => {
    const { iago, hamlet, othello } = server.users;
    expect(
      (await server.api.patch("/api/v1/realm", { as: iago, params: { topics_policy: "allow_empty_topic" } }))
        .body,
    ).toEqual(ok);
    const modern = await registerQueue(server, othello, {
      event_types: ["message"],
      client_capabilities: { empty_topic_name: true },
    });
    const legacy = await registerQueue(server, othello, { event_types: ["message"] });
    const sent = await sendTo(hamlet, "");
    expect(sent.status).toBe(200);
    const id = sent.body.id as number;
    expect((await drainEvents(modern)).map((e) => e["message"].subject)).toEqual([""]);
    expect((await drainEvents(legacy)).map((e) => e["message"].subject)).toEqual(["general chat"]);

    expect(await subjects({})).toEqual(["general chat"]);
    expect(await subjects({ allow_empty_topic_name: true })).toEqual([""]);
    const single = (allow: boolean) =>
      server.api.get(`/api/v1/messages/${id}`, { as: othello, params: { allow_empty_topic_name: allow } });
    expect((await single(false)).body.message.subject).toBe("general chat");
    expect((await single(true)).body.message.subject).toBe("");

    const topics = (allow: boolean) =>
      server.api.get(`/api/v1/users/me/${denmark}/topics`, {
        as: othello,
        params: { allow_empty_topic_name: allow },
      });
    expect((await topics(false)).body).toEqual({ ...ok, topics: [{ max_id: id, name: "general chat" }] });
    expect((await topics(true)).body).toEqual({ ...ok, topics: [{ max_id: id, name: "" }] });
  });
});

describe('"(no topic)" and "general chat" sent as a topic (feature level 370)', () => {
  it("are read as the empty topic where it is allowed", async () => {
    const { iago, hamlet } = server.users;
    await server.api.patch("/api/v1/realm", { as: iago, params: { topics_policy: "allow_empty_topic" } });
    expect((await sendTo(hamlet, "(no topic)")).status).toBe(200);
    expect((await sendTo(hamlet, " general chat ")).status).toBe(200);
    expect((await sendTo(hamlet, "General chat")).status).toBe(200);
    expect(await subjects({ allow_empty_topic_name: true })).toEqual(["", "", "General chat"]);
  });

  it("are refused as empty where a topic is required, and taken where only the empty one is", async () => {
    const { iago, hamlet } = server.users;
    for (const topic of ["(no topic)", "general chat"]) {
      const refused = await sendTo(hamlet, topic);
      expect([topic, refused.status, refused.body]).toEqual([topic, 400, error("Topic can't be empty")]);
    }
    await setStreamPolicy(iago, "empty_topic_only");
    expect((await sendTo(hamlet, "(no topic)")).status).toBe(200);
    expect((await sendTo(hamlet, "general chat")).status).toBe(200);
    expect(await subjects({ allow_empty_topic_name: true })).toEqual(["", ""]);
  });
});

describe("a channel's topics_policy", () => {
  it("is set by administrators with a stream update event and shown in stream objects", async () => {
    const { iago, hamlet } = server.users;
    const q = await registerQueue(server, hamlet, { event_types: ["stream"] });
    const denied = await setStreamPolicy(hamlet, "allow_empty_topic");
    expect([denied.status, denied.body]).toEqual([
      400,
      { result: "error", msg: "Must be an organization administrator", code: "UNAUTHORIZED_PRINCIPAL" },
    ]);
    const invalid = await setStreamPolicy(iago, "sometimes");
    expect([invalid.status, invalid.body]).toEqual([400, error("Invalid topics_policy")]);
    expect((await setStreamPolicy(iago, "allow_empty_topic")).body).toEqual(ok);
    expect(await drainEvents(q)).toEqual([
      {
        id: 0,
        type: "stream",
        op: "update",
        property: "topics_policy",
        value: "allow_empty_topic",
        stream_id: denmark,
        name: "Denmark",
      },
    ]);
    const stream = await server.api.get(`/api/v1/streams/${denmark}`, { as: hamlet });
    expect(stream.body.stream.topics_policy).toBe("allow_empty_topic");
  });

  it("allow_empty_topic takes a blank topic although the realm does not", async () => {
    const { iago, hamlet } = server.users;
    const refused = await sendTo(hamlet, " ");
    expect([refused.status, refused.body]).toEqual([400, error("Topic can't be empty")]);
    await setStreamPolicy(iago, "allow_empty_topic");
    expect((await sendTo(hamlet, " ")).status).toBe(200);
    expect(await subjects({ allow_empty_topic_name: true })).toEqual([""]);
  });

  it("disable_empty_topic refuses a blank topic although the realm allows it", async () => {
    const { iago, hamlet } = server.users;
    await server.api.patch("/api/v1/realm", { as: iago, params: { topics_policy: "allow_empty_topic" } });
    await setStreamPolicy(iago, "disable_empty_topic");
    const refused = await sendTo(hamlet, "");
    expect([refused.status, refused.body]).toEqual([400, error("Topic can't be empty")]);
    expect((await sendTo(hamlet, "castle")).status).toBe(200);
  });

  it("empty_topic_only takes the empty topic only", async () => {
    const { iago, hamlet } = server.users;
    await setStreamPolicy(iago, "empty_topic_only");
    const refused = await sendTo(hamlet, "castle");
    expect([refused.status, refused.body]).toEqual([
      400,
      error("Only the general chat topic is allowed in this stream."),
    ]);
    expect((await sendTo(hamlet, "")).status).toBe(200);
    expect(await subjects({ allow_empty_topic_name: true })).toEqual([""]);
  });
});
