import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { drainEvents, registerQueue } from "../helpers/events.js";
import type { TestUser } from "../helpers/test-server.js";
import { createStream, startMessagingServer } from "./message-helpers.js";
import type { MessagingServer } from "./message-helpers.js";

// Seeded users: iago (1, owner), hamlet (3), othello (4), cordelia (5), polonius (6, guest).
let server: MessagingServer;
beforeEach(async () => {
  server = await startMessagingServer();
  await createStream(server, "Denmark", [server.users.hamlet, server.users.othello]);
});
afterEach(async () => {
  await server.close();
});

const ok = { result: "success", msg: "" };
const error = (msg: string) => ({ result: "error", msg, code: "BAD_REQUEST" });

const sendTo = (as: TestUser, topic: string) =>
  server.api.post("/api/v1/messages", {
    as,
    params: { type: "stream", to: "Denmark", topic, content: "hello" },
  });
const setPolicy = (as: TestUser, value: string) =>
  server.api.patch("/api/v1/realm", { as, params: { topics_policy: value } });
const realmState = async (as: TestUser) => {
  const { register } = await registerQueue(server, as, { fetch_event_types: ["realm"] });
  return [
    register.realm_topics_policy,
    register.realm_mandatory_topics,
    register.realm_empty_topic_display_name,
  ];
};

describe("realm topics_policy (Zulip feature levels 334, 392)", () => {
  it("needs a topic by default; an admin allows empty topics, stored as the empty string", async () => {
    const { api, users } = server;
    const { iago, hamlet } = users;
    expect(await realmState(hamlet)).toEqual(["disable_empty_topic", true, "general chat"]);
    const refused = await sendTo(hamlet, "  ");
    expect([refused.status, refused.body]).toEqual([400, error("Topic can't be empty")]);

    const q = await registerQueue(server, hamlet, { event_types: ["realm"] });
    expect((await setPolicy(iago, "allow_empty_topic")).body).toEqual(ok);
    expect(await drainEvents(q)).toEqual([
      { id: 0, type: "realm", op: "update", property: "topics_policy", value: "allow_empty_topic" },
      { id: 1, type: "realm", op: "update", property: "mandatory_topics", value: false },
    ]);
    expect(await realmState(hamlet)).toEqual(["allow_empty_topic", false, "general chat"]);
    // Setting the same value again changes nothing and tells no one.
    expect((await setPolicy(iago, "allow_empty_topic")).body).toEqual(ok);
    expect(await drainEvents(q)).toEqual([]);

    const sent = await sendTo(hamlet, " ");
    expect(sent.status).toBe(200);
    const id = sent.body.id as number;
    // Stored as "", which clients that ask with allow_empty_topic_name see (test/http/empty-topic.test.ts).
    const fetched = await api.get(`/api/v1/messages/${id}`, {
      as: hamlet,
      params: { allow_empty_topic_name: true },
    });
    expect([fetched.body.message.subject, fetched.body.raw_content]).toEqual(["", "hello"]);

    expect((await setPolicy(iago, "disable_empty_topic")).body).toEqual(ok);
    const again = await sendTo(hamlet, "");
    expect([again.status, again.body]).toEqual([400, error("Topic can't be empty")]);
  });

  it("answers Zulip's errors for a non-admin and an unknown policy", async () => {
    const { users } = server;
    const notAdmin = await setPolicy(users.hamlet, "allow_empty_topic");
    expect([notAdmin.status, notAdmin.body]).toEqual([400, error("Must be an organization administrator")]);
    const unknown = await setPolicy(users.iago, "empty_topic_only");
    expect([unknown.status, unknown.body]).toEqual([400, error("Invalid topics_policy")]);
    expect(await realmState(users.hamlet)).toEqual(["disable_empty_topic", true, "general chat"]);
  });
});
