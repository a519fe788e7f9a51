/**
 * Zulip's official Python client (`pip install zulip`) against a real server, one test per public
 * method of `zulip.Client`, named after it. PyPI is out of reach here, so the requests are sent by
 * python-client-wire.ts, which builds them exactly as that client does (method, path, argument names,
 * form/query/multipart encoding, Basic auth, User-Agent). Every answer is checked against Zulip's
 * OpenAPI schema of its endpoint where test/data/openapi-schemas.json has one, and each test checks
 * the fields the client's own code or its usual callers (bots, zulip-terminal) read.
 *
 * Methods that need a component this server deliberately doesn't run are listed at the end with the
 * reason, and checked to answer a clear JSON error.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import sharp from "sharp";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer, TestUser } from "../helpers/test-server.js";
import { ZulipClient } from "./python-client-wire.js";
import type { PyResult } from "./python-client-wire.js";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server.close();
});

function clientFor(user: TestUser, client?: string): Promise<ZulipClient> {
  return ZulipClient.connect({
    site: server.url,
    email: user.email,
    apiKey: user.apiKey,
    ...(client !== undefined ? { client } : {}),
  });
}

let streamCounter = 0;
/** A fresh public stream with `users` subscribed (created by the first), as a client would make it. */
async function freshStream(users: TestUser[], prefix = "py"): Promise<{ name: string; id: number }> {
  streamCounter += 1;
  const name = `${prefix} stream ${streamCounter}`;
  const [first] = users;
  const c = await clientFor(first!);
  const res = await c.add_subscriptions([{ name }], { principals: users.map((u) => u.email) });
  expect(res["result"]).toBe("success");
  const id = await c.get_stream_id(name);
  return { name, id: id["stream_id"] as number };
}

async function sendStream(c: ZulipClient, stream: string, topic: string, content: string): Promise<number> {
  const res = await c.send_message({ type: "stream", to: stream, topic, content });
  expect(res).toMatchObject({ result: "success", msg: "" });
  return res["id"] as number;
}

function ok(res: PyResult): void {
  expect(res).toMatchObject({ result: "success", msg: "" });
}

describe("zulip.Client: construction and the generic call", () => {
  it("Client() asks for the server settings with Basic auth and its User-Agent", async () => {
    const { hamlet } = server.users;
    const c = await clientFor(hamlet);
    expect(c.zulipVersion).toMatch(/^\d/);
    expect(c.featureLevel).toBe(421);
    const first = c.sent[0]!;
    expect(first.method).toBe("GET");
    expect(first.path).toBe("/api/v1/server_settings");
    expect(first.headers["authorization"]).toBe(
      "Basic " + Buffer.from(`${hamlet.email}:${hamlet.apiKey}`).toString("base64"),
    );
    expect(first.headers["user-agent"]).toMatch(/^ZulipPython\/\d+\.\d+\.\d+ \(/);
  });

  it("get_server_settings", async () => {
    const c = await clientFor(server.users.hamlet);
    const res = await c.get_server_settings();
    ok(res);
    expect(res).toMatchObject({ zulip_feature_level: 421, realm_name: "Zulip Dev" });
    expect(typeof res["zulip_version"]).toBe("string");
    expect(typeof res["realm_uri"]).toBe("string");
  });

  it("call_endpoint", async () => {
    const c = await clientFor(server.users.hamlet);
    const res = await c.call_endpoint("users/me", "GET");
    ok(res);
    expect(res["email"]).toBe(server.users.hamlet.email);
    const status = await c.call_endpoint("users/me/status", "POST", {
      status_text: "on vacation",
      away: false,
    });
    ok(status);
  });
});

describe("zulip.Client: messages", () => {
  it("send_message", async () => {
    const { hamlet, othello } = server.users;
    const stream = await freshStream([hamlet, othello]);
    const c = await clientFor(hamlet);
    const res = await c.send_message({ type: "stream", to: stream.name, topic: "castle", content: "Hi" });
    ok(res);
    expect(typeof res["id"]).toBe("number");
    // The older `subject` and a private message to a list of emails (JSON-encoded by the client).
    ok(await c.send_message({ type: "stream", to: stream.name, subject: "old style", content: "Hi" }));
    const pm = await c.send_message({ type: "private", to: [othello.email], content: "psst" });
    ok(pm);
    expect(c.lastSent().body?.toString()).toBe(
      "type=private&to=%5B%22othello%40zulip.com%22%5D&content=psst",
    );
  });

  it("get_messages", async () => {
    const { hamlet, othello } = server.users;
    const stream = await freshStream([hamlet, othello]);
    const h = await clientFor(hamlet);
    const id = await sendStream(h, stream.name, "gm", "from hamlet");
    const o = await clientFor(othello);
    const res = await o.get_messages({
      anchor: "newest",
      num_before: 100,
      num_after: 0,
      narrow: [
        { operator: "sender", operand: hamlet.email },
        { operator: "stream", operand: stream.name },
      ],
    });
    ok(res);
    expect(res["messages"]).toEqual([
      expect.objectContaining({
        id,
        sender_email: hamlet.email,
        subject: "gm",
        content: "<p>from hamlet</p>",
      }),
    ]);
    expect(res).toMatchObject({ found_newest: true, found_oldest: true });
  });

  it("check_messages_match_narrow", async () => {
    const { hamlet } = server.users;
    const stream = await freshStream([hamlet]);
    const c = await clientFor(hamlet);
    const linked = await sendStream(c, stream.name, "links", "see https://zulip.com");
    const plain = await sendStream(c, stream.name, "links", "no link here");
    const res = await c.check_messages_match_narrow({
      msg_ids: [linked, plain],
      narrow: [{ operator: "has", operand: "link" }],
    });
    ok(res);
    expect(Object.keys(res["messages"] as object)).toEqual([String(linked)]);
    expect(res["messages"][String(linked)]).toEqual({
      match_content: expect.stringContaining("https://zulip.com"),
      match_subject: "links",
    });
  });

  it("get_raw_message", async () => {
    const { hamlet } = server.users;
    const stream = await freshStream([hamlet]);
    const c = await clientFor(hamlet);
    const id = await sendStream(c, stream.name, "raw", "**bold**");
    const res = await c.get_raw_message(id);
    ok(res);
    // zulip-terminal reads raw_content; the message itself is there too.
    expect(res["raw_content"]).toBe("**bold**");
    expect(res["message"]).toMatchObject({ id, subject: "raw" });
  });

  it("upload_file", async () => {
    const { hamlet } = server.users;
    const c = await clientFor(hamlet);
    const content = Buffer.from("zulip upload from the Python client\n");
    const res = await c.upload_file({ name: "/tmp/py-client/zulip.txt", content });
    ok(res);
    expect(res["uri"]).toMatch(/^\/user_uploads\/.+\/zulip\.txt$/);
    // A bot posts the link; whoever may see the file downloads it with the same credentials.
    const file = await fetch(server.url + (res["uri"] as string), {
      headers: {
        authorization: "Basic " + Buffer.from(`${hamlet.email}:${hamlet.apiKey}`).toString("base64"),
      },
    });
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer())).toEqual(content);
  });

  it("get_attachments", async () => {
    const { cordelia } = server.users;
    const c = await clientFor(cordelia);
    const up = await c.upload_file({ name: "notes.md", content: Buffer.from("# notes\n") });
    ok(up);
    const res = await c.get_attachments();
    ok(res);
    expect(res["attachments"]).toEqual([
      expect.objectContaining({
        name: "notes.md",
        path_id: expect.stringContaining("notes.md"),
        messages: [],
      }),
    ]);
    expect(typeof res["upload_space_used"]).toBe("number");
  });

  it("update_message", async () => {
    const { hamlet } = server.users;
    const stream = await freshStream([hamlet]);
    const c = await clientFor(hamlet);
    const id = await sendStream(c, stream.name, "edit", "first");
    // The client sends message_id in the body as well as in the URL.
    ok(await c.update_message({ message_id: id, content: "second" }));
    expect(c.lastSent().body?.toString()).toBe(`message_id=${id}&content=second`);
    ok(await c.update_message({ message_id: id, topic: "edited", propagate_mode: "change_one" }));
    const raw = await c.get_raw_message(id);
    expect(raw["message"]).toMatchObject({ subject: "edited", content: "<p>second</p>" });
  });

  it("delete_message", async () => {
    const { iago } = server.users;
    const stream = await freshStream([iago]);
    const c = await clientFor(iago);
    const id = await sendStream(c, stream.name, "gone", "soon gone");
    ok(await c.delete_message(id));
    const after = await c.get_raw_message(id);
    expect(after).toMatchObject({ result: "error", code: "BAD_REQUEST", msg: "Invalid message(s)" });
  });

  it("update_message_flags", async () => {
    const { hamlet } = server.users;
    const stream = await freshStream([hamlet]);
    const c = await clientFor(hamlet);
    const id = await sendStream(c, stream.name, "flags", "star me");
    const res = await c.update_message_flags({ messages: [id], op: "add", flag: "starred" });
    ok(res);
    expect(res["messages"]).toEqual([id]);
    const fetched = await c.get_messages({ anchor: id, num_before: 0, num_after: 0 });
    expect(fetched["messages"][0]["flags"]).toContain("starred");
  });

  it("mark_all_as_read", async () => {
    const { hamlet, othello } = server.users;
    const stream = await freshStream([hamlet, othello]);
    await sendStream(await clientFor(othello), stream.name, "unread", "for hamlet");
    const c = await clientFor(hamlet);
    ok(await c.mark_all_as_read());
    const reg = await c.register(["message"], null, {
      fetch_event_types: ["message", "update_message_flags"],
    });
    expect(reg["unread_msgs"]["count"]).toBe(0);
  });

  it("mark_stream_as_read", async () => {
    const { hamlet, othello } = server.users;
    const stream = await freshStream([hamlet, othello]);
    const id = await sendStream(await clientFor(othello), stream.name, "unread", "for hamlet");
    const c = await clientFor(hamlet);
    ok(await c.mark_stream_as_read(stream.id));
    const fetched = await c.get_messages({ anchor: id, num_before: 0, num_after: 0 });
    expect(fetched["messages"][0]["flags"]).toContain("read");
  });

  it("mark_topic_as_read", async () => {
    const { hamlet, othello } = server.users;
    const stream = await freshStream([hamlet, othello]);
    const o = await clientFor(othello);
    const inTopic = await sendStream(o, stream.name, "read me", "one");
    const other = await sendStream(o, stream.name, "other", "two");
    const c = await clientFor(hamlet);
    ok(await c.mark_topic_as_read(stream.id, "read me"));
    const fetched = await c.get_messages({
      anchor: inTopic,
      num_before: 0,
      num_after: 1,
      narrow: [{ operator: "stream", operand: stream.name }],
    });
    const flags = new Map((fetched["messages"] as PyResult[]).map((m) => [m["id"], m["flags"]]));
    expect(flags.get(inTopic)).toContain("read");
    expect(flags.get(other)).not.toContain("read");
  });

  it("get_message_history", async () => {
    const { hamlet } = server.users;
    const stream = await freshStream([hamlet]);
    const c = await clientFor(hamlet);
    const id = await sendStream(c, stream.name, "history", "v1");
    ok(await c.update_message({ message_id: id, content: "v2" }));
    const res = await c.get_message_history(id);
    ok(res);
    expect((res["message_history"] as PyResult[]).map((h) => h["content"])).toEqual(["v1", "v2"]);
  });

  it("add_reaction", async () => {
    const { hamlet } = server.users;
    const stream = await freshStream([hamlet]);
    const c = await clientFor(hamlet);
    const id = await sendStream(c, stream.name, "react", "nice");
    // The docs' form (name only) and zulip-terminal's (name, code, type, message_id as a string).
    ok(await c.add_reaction({ message_id: id, emoji_name: "octopus" }));
    ok(
      await c.add_reaction({
        emoji_name: "tada",
        emoji_code: "1f389",
        reaction_type: "unicode_emoji",
        message_id: String(id),
      }),
    );
    const raw = await c.get_raw_message(id);
    expect(raw["message"]["reactions"]).toEqual([
      expect.objectContaining({ emoji_name: "octopus", emoji_code: "1f419", user_id: hamlet.id }),
      expect.objectContaining({ emoji_name: "tada", emoji_code: "1f389", user_id: hamlet.id }),
    ]);
  });

  it("remove_reaction", async () => {
    const { hamlet } = server.users;
    const stream = await freshStream([hamlet]);
    const c = await clientFor(hamlet);
    const id = await sendStream(c, stream.name, "react", "nice");
    ok(await c.add_reaction({ message_id: id, emoji_name: "octopus" }));
    ok(
      await c.remove_reaction({
        message_id: id,
        emoji_name: "octopus",
        emoji_code: "1f419",
        reaction_type: "unicode_emoji",
      }),
    );
    const raw = await c.get_raw_message(id);
    expect(raw["message"]["reactions"]).toEqual([]);
  });

  it("render_message", async () => {
    const c = await clientFor(server.users.hamlet);
    const res = await c.render_message({ content: "foo **bar**" });
    ok(res);
    expect(res["rendered"]).toBe("<p>foo <strong>bar</strong></p>");
  });

  it("move_topic", async () => {
    const { iago } = server.users;
    const from = await freshStream([iago], "from");
    const to = await freshStream([iago], "to");
    const c = await clientFor(iago);
    const first = await sendStream(c, from.name, "moving", "one");
    const second = await sendStream(c, from.name, "moving", "two");
    const res = await c.move_topic(from.name, to.name, "moving", { new_topic: "moved" });
    ok(res);
    const moved = await c.get_messages({
      anchor: "oldest",
      num_before: 0,
      num_after: 10,
      narrow: [
        { operator: "stream", operand: to.id },
        { operator: "topic", operand: "moved" },
      ],
    });
    expect((moved["messages"] as PyResult[]).map((m) => m["id"])).toEqual(
      expect.arrayContaining([first, second]),
    );
  });
});

describe("zulip.Client: streams and subscriptions", () => {
  it("get_streams", async () => {
    const { hamlet } = server.users;
    const stream = await freshStream([hamlet]);
    const c = await clientFor(hamlet);
    const res = await c.get_streams({ include_public: true, include_subscribed: true });
    ok(res);
    expect(res["streams"]).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: stream.name, stream_id: stream.id })]),
    );
  });

  it("get_stream_id", async () => {
    const { hamlet } = server.users;
    const stream = await freshStream([hamlet]);
    const c = await clientFor(hamlet);
    const res = await c.get_stream_id(stream.name);
    ok(res);
    expect(res["stream_id"]).toBe(stream.id);
    expect(c.lastSent().path).toBe(`/api/v1/get_stream_id?stream=${encodeURIComponent(stream.name)}`);
  });

  it("get_stream_topics", async () => {
    const { hamlet } = server.users;
    const stream = await freshStream([hamlet]);
    const c = await clientFor(hamlet);
    await sendStream(c, stream.name, "older", "1");
    const newest = await sendStream(c, stream.name, "newer", "2");
    const res = await c.get_stream_topics(stream.id);
    ok(res);
    expect(res["topics"]).toEqual([
      { name: "newer", max_id: newest },
      { name: "older", max_id: newest - 1 },
    ]);
  });

  it("update_stream", async () => {
    const { iago } = server.users;
    const stream = await freshStream([iago]);
    const c = await clientFor(iago);
    const res = await c.update_stream({
      stream_id: stream.id,
      new_name: `${stream.name} renamed`,
      description: "Biggest club in the world",
      is_private: false,
      stream_post_policy: 2,
    });
    ok(res);
    const after = await c.get_streams();
    expect(after["streams"]).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          stream_id: stream.id,
          name: `${stream.name} renamed`,
          description: "Biggest club in the world",
          invite_only: false,
          stream_post_policy: 2,
        }),
      ]),
    );
  });

  it("delete_stream", async () => {
    const { iago } = server.users;
    const stream = await freshStream([iago]);
    const c = await clientFor(iago);
    ok(await c.delete_stream(stream.id));
    const after = await c.get_stream_id(stream.name);
    expect(after).toMatchObject({ result: "error", code: "BAD_REQUEST" });
  });

  it("add_default_stream", async () => {
    const { iago } = server.users;
    const stream = await freshStream([iago]);
    const c = await clientFor(iago);
    ok(await c.add_default_stream(stream.id));
    const reg = await c.register(null, null, { fetch_event_types: ["default_streams"] });
    // Channel ids since feature level 330.
    expect(reg["realm_default_streams"]).toEqual(expect.arrayContaining([stream.id]));
  });

  it("get_subscribers", async () => {
    const { hamlet, othello } = server.users;
    const stream = await freshStream([hamlet, othello]);
    const c = await clientFor(hamlet);
    const res = await c.get_subscribers({ stream: stream.name });
    ok(res);
    expect([...(res["subscribers"] as number[])].sort((a, b) => a - b)).toEqual(
      [hamlet.id, othello.id].sort((a, b) => a - b),
    );
  });

  it("get_subscriptions", async () => {
    const { hamlet } = server.users;
    const stream = await freshStream([hamlet]);
    const c = await clientFor(hamlet);
    const res = await c.get_subscriptions({ include_subscribers: true });
    ok(res);
    expect(res["subscriptions"]).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: stream.name, stream_id: stream.id, subscribers: [hamlet.id] }),
      ]),
    );
  });

  it("list_subscriptions", async () => {
    const { hamlet } = server.users;
    const stream = await freshStream([hamlet]);
    const c = await clientFor(hamlet);
    const res = await c.list_subscriptions();
    ok(res);
    expect((res["subscriptions"] as PyResult[]).map((s) => s["name"])).toContain(stream.name);
  });

  it("add_subscriptions", async () => {
    const { hamlet, othello } = server.users;
    const c = await clientFor(hamlet);
    const res = await c.add_subscriptions(
      [{ name: "py new stream", description: "made by the Python client" }],
      {
        principals: [othello.email],
      },
    );
    ok(res);
    expect(res["subscribed"]).toEqual({ [othello.email]: ["py new stream"] });
    expect(res["already_subscribed"]).toEqual({});
    const mine = await c.add_subscriptions([{ name: "py new stream" }]);
    ok(mine);
    expect(mine["subscribed"]).toEqual({ [hamlet.email]: ["py new stream"] });
  });

  it("remove_subscriptions", async () => {
    const { hamlet, othello } = server.users;
    const stream = await freshStream([hamlet, othello]);
    const c = await clientFor(hamlet);
    const res = await c.remove_subscriptions([stream.name]);
    ok(res);
    expect(res).toMatchObject({ removed: [stream.name], not_removed: [] });
    // With principals (an administrator removing someone else).
    const admin = await clientFor(server.users.iago);
    const other = await admin.remove_subscriptions([stream.name], [othello.email]);
    ok(other);
    expect(other["removed"]).toEqual([stream.name]);
  });

  it("get_subscription_status", async () => {
    const { hamlet, cordelia } = server.users;
    const stream = await freshStream([hamlet]);
    const c = await clientFor(hamlet);
    const yes = await c.get_subscription_status(hamlet.id, stream.id);
    ok(yes);
    expect(yes["is_subscribed"]).toBe(true);
    const no = await c.get_subscription_status(cordelia.id, stream.id);
    expect(no["is_subscribed"]).toBe(false);
  });

  it("mute_topic", async () => {
    const { hamlet } = server.users;
    const stream = await freshStream([hamlet]);
    const c = await clientFor(hamlet);
    await sendStream(c, stream.name, "noisy", "x");
    ok(await c.mute_topic({ stream: stream.name, topic: "noisy", op: "add" }));
    const reg = await c.register(null, null, { fetch_event_types: ["muted_topics"] });
    expect(reg["muted_topics"]).toEqual([[stream.name, "noisy", expect.any(Number)]]);
    ok(await c.mute_topic({ stream: stream.name, topic: "noisy", op: "remove" }));
  });

  it("update_subscription_settings", async () => {
    const { hamlet } = server.users;
    const stream = await freshStream([hamlet]);
    const c = await clientFor(hamlet);
    const res = await c.update_subscription_settings([
      { stream_id: stream.id, property: "pin_to_top", value: true },
      { stream_id: stream.id, property: "color", value: "#f00f00" },
    ]);
    ok(res);
    const subs = await c.get_subscriptions();
    expect(subs["subscriptions"]).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ stream_id: stream.id, pin_to_top: true, color: "#f00f00" }),
      ]),
    );
  });
});

describe("zulip.Client: users, presence, typing, settings", () => {
  it("get_profile", async () => {
    const { hamlet } = server.users;
    const c = await clientFor(hamlet);
    const res = await c.get_profile();
    ok(res);
    expect(res).toMatchObject({
      user_id: hamlet.id,
      email: hamlet.email,
      full_name: hamlet.fullName,
      is_bot: false,
    });
  });

  it("get_users", async () => {
    const c = await clientFor(server.users.hamlet);
    const res = await c.get_users({ client_gravatar: true });
    ok(res);
    expect((res["members"] as PyResult[]).map((m) => m["email"])).toEqual(
      expect.arrayContaining(["iago@zulip.com", "hamlet@zulip.com", "othello@zulip.com"]),
    );
  });

  it("get_members", async () => {
    const c = await clientFor(server.users.hamlet);
    const res = await c.get_members();
    ok(res);
    expect((res["members"] as PyResult[]).map((m) => m["user_id"])).toContain(server.users.cordelia.id);
  });

  it("get_user_by_id", async () => {
    const { othello } = server.users;
    const c = await clientFor(server.users.hamlet);
    const res = await c.get_user_by_id(othello.id, { include_custom_profile_fields: true });
    ok(res);
    expect(res["user"]).toMatchObject({
      user_id: othello.id,
      email: othello.email,
      full_name: othello.fullName,
    });
  });

  it("create_user", async () => {
    const c = await clientFor(server.users.iago);
    const res = await c.create_user({
      email: "newbie@zulip.com",
      password: "temp-pass-42",
      full_name: "New User",
    });
    ok(res);
    expect(typeof res["user_id"]).toBe("number");
  });

  it("update_user_by_id", async () => {
    const admin = await clientFor(server.users.iago);
    const created = await admin.create_user({
      email: "rename-me@zulip.com",
      password: "pw-123456",
      full_name: "Old",
    });
    const id = created["user_id"] as number;
    ok(await admin.update_user_by_id(id, { full_name: "New Name", role: 400 }));
    // Above feature level 106 the client sends full_name as a plain string.
    expect(admin.lastSent().body?.toString()).toBe("full_name=New+Name&role=400");
    const user = await admin.get_user_by_id(id);
    expect(user["user"]).toMatchObject({ full_name: "New Name", role: 400 });
  });

  it("deactivate_user_by_id", async () => {
    const admin = await clientFor(server.users.iago);
    const created = await admin.create_user({
      email: "leaving@zulip.com",
      password: "pw-123456",
      full_name: "Leaving",
    });
    const id = created["user_id"] as number;
    ok(await admin.deactivate_user_by_id(id));
    const user = await admin.get_user_by_id(id);
    expect(user["user"]).toMatchObject({ user_id: id, is_active: false });
  });

  it("reactivate_user_by_id", async () => {
    const admin = await clientFor(server.users.iago);
    const created = await admin.create_user({
      email: "back@zulip.com",
      password: "pw-123456",
      full_name: "Back",
    });
    const id = created["user_id"] as number;
    ok(await admin.deactivate_user_by_id(id));
    ok(await admin.reactivate_user_by_id(id));
    const user = await admin.get_user_by_id(id);
    expect(user["user"]).toMatchObject({ user_id: id, is_active: true });
  });

  it("update_presence", async () => {
    const { cordelia } = server.users;
    const c = await clientFor(cordelia);
    const res = await c.update_presence({ status: "active", ping_only: false, new_user_input: false });
    ok(res);
    expect(typeof res["server_timestamp"]).toBe("number");
    // zulip-terminal replaces its presence table with this answer.
    expect(res["presences"][cordelia.email]).toMatchObject({
      aggregated: { status: "active", timestamp: expect.any(Number) },
    });
  });

  it("get_user_presence", async () => {
    const { othello } = server.users;
    ok(await (await clientFor(othello)).update_presence({ status: "idle", new_user_input: false }));
    const c = await clientFor(server.users.hamlet);
    const res = await c.get_user_presence(othello.email);
    ok(res);
    expect(res["presence"]).toMatchObject({ aggregated: { status: "idle", timestamp: expect.any(Number) } });
  });

  it("get_realm_presence", async () => {
    const { othello } = server.users;
    ok(await (await clientFor(othello)).update_presence({ status: "active", new_user_input: true }));
    const c = await clientFor(server.users.hamlet);
    const res = await c.get_realm_presence();
    ok(res);
    expect(typeof res["server_timestamp"]).toBe("number");
    expect(res["presences"][othello.email]).toMatchObject({ aggregated: { status: "active" } });
  });

  it("set_typing_status", async () => {
    const { hamlet, othello } = server.users;
    const c = await clientFor(hamlet);
    ok(await c.set_typing_status({ op: "start", to: [othello.id] }));
    ok(await c.set_typing_status({ op: "stop", to: [othello.id] }));
    const stream = await freshStream([hamlet]);
    ok(await c.set_typing_status({ type: "stream", op: "start", to: [stream.id], topic: "typing here" }));
  });

  it("get_alert_words", async () => {
    const c = await clientFor(server.users.polonius);
    const res = await c.get_alert_words();
    ok(res);
    expect(res["alert_words"]).toEqual([]);
  });

  it("add_alert_words", async () => {
    const c = await clientFor(server.users.cordelia);
    const res = await c.add_alert_words(["foo", "bar"]);
    ok(res);
    expect([...(res["alert_words"] as string[])].sort()).toEqual(["bar", "foo"]);
  });

  it("remove_alert_words", async () => {
    const c = await clientFor(server.users.othello);
    ok(await c.add_alert_words(["alpha", "beta"]));
    const res = await c.remove_alert_words(["alpha"]);
    ok(res);
    expect(res["alert_words"]).toEqual(["beta"]);
  });

  it("update_notification_settings", async () => {
    const c = await clientFor(server.users.hamlet);
    const res = await c.update_notification_settings({
      enable_stream_push_notifications: true,
      enable_offline_push_notifications: false,
    });
    ok(res);
    expect(res).toMatchObject({
      enable_stream_push_notifications: true,
      enable_offline_push_notifications: false,
    });
  });
});

describe("zulip.Client: user groups", () => {
  it("get_user_groups", async () => {
    const c = await clientFor(server.users.hamlet);
    const res = await c.get_user_groups();
    ok(res);
    expect(res["user_groups"]).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: "role:administrators", is_system_group: true }),
      ]),
    );
  });

  it("create_user_group", async () => {
    const { hamlet, othello } = server.users;
    const c = await clientFor(hamlet);
    const res = await c.create_user_group({
      name: "marketing",
      description: "The marketing team.",
      members: [hamlet.id, othello.id],
    });
    ok(res);
    const groups = await c.get_user_groups();
    expect(groups["user_groups"]).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          name: "marketing",
          description: "The marketing team.",
          members: [hamlet.id, othello.id],
        }),
      ]),
    );
  });

  async function groupNamed(c: ZulipClient, name: string, members: number[]): Promise<number> {
    ok(await c.create_user_group({ name, description: `The ${name} group.`, members }));
    const groups = await c.get_user_groups();
    const found = (groups["user_groups"] as PyResult[]).find((g) => g["name"] === name);
    return found!["id"] as number;
  }

  it("update_user_group", async () => {
    const { hamlet } = server.users;
    const c = await clientFor(hamlet);
    const id = await groupNamed(c, "to rename", [hamlet.id]);
    ok(await c.update_user_group({ group_id: id, name: "renamed", description: "Renamed group." }));
    const groups = await c.get_user_groups();
    expect(groups["user_groups"]).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id, name: "renamed", description: "Renamed group." }),
      ]),
    );
  });

  it("remove_user_group", async () => {
    const { hamlet } = server.users;
    const c = await clientFor(hamlet);
    const id = await groupNamed(c, "short-lived", [hamlet.id]);
    ok(await c.remove_user_group(id));
    const groups = await c.get_user_groups();
    expect((groups["user_groups"] as PyResult[]).map((g) => g["id"])).not.toContain(id);
  });

  it("update_user_group_members", async () => {
    const { hamlet, othello, cordelia } = server.users;
    const c = await clientFor(hamlet);
    const id = await groupNamed(c, "members change", [hamlet.id, othello.id]);
    ok(await c.update_user_group_members(id, { delete: [othello.id], add: [cordelia.id] }));
    const groups = await c.get_user_groups();
    const group = (groups["user_groups"] as PyResult[]).find((g) => g["id"] === id)!;
    expect([...(group["members"] as number[])].sort((a, b) => a - b)).toEqual(
      [hamlet.id, cordelia.id].sort((a, b) => a - b),
    );
  });
});

describe("zulip.Client: organization settings", () => {
  it("get_realm_emoji", async () => {
    const c = await clientFor(server.users.hamlet);
    const res = await c.get_realm_emoji();
    ok(res);
    expect(typeof res["emoji"]).toBe("object");
  });

  it("get_realm_linkifiers", async () => {
    const admin = await clientFor(server.users.iago);
    ok(await admin.add_realm_filter("#L(?P<id>[0-9]+)", "https://example.com/lists/%(id)s"));
    const c = await clientFor(server.users.hamlet);
    const res = await c.get_realm_linkifiers();
    ok(res);
    expect(res["linkifiers"]).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ pattern: "#L(?P<id>[0-9]+)", id: expect.any(Number) }),
      ]),
    );
  });

  it("add_realm_filter", async () => {
    const c = await clientFor(server.users.iago);
    // From feature level 176 the client sends an RFC 6570 url_template (url_format_string below it,
    // which the server still accepts: test/clients/server-fixes.test.ts).
    const res = await c.add_realm_filter("#(?P<id>[0-9]+)", "https://github.com/zulip/zulip/issues/{id}");
    ok(res);
    expect(typeof res["id"]).toBe("number");
    expect(c.lastSent().body?.toString()).toContain("url_template=");
    const stream = await freshStream([server.users.iago]);
    const id = await sendStream(c, stream.name, "linkifier", "see #42");
    const raw = await c.get_raw_message(id);
    expect(raw["message"]["content"]).toContain('href="https://github.com/zulip/zulip/issues/42"');
  });

  it("remove_realm_filter", async () => {
    const c = await clientFor(server.users.iago);
    const added = await c.add_realm_filter("T(?P<id>[0-9]+)", "https://example.com/t/{id}");
    ok(added);
    ok(await c.remove_realm_filter(added["id"] as number));
    const list = await c.get_realm_linkifiers();
    expect((list["linkifiers"] as PyResult[]).map((l) => l["id"])).not.toContain(added["id"]);
  });

  it("get_realm_profile_fields", async () => {
    const c = await clientFor(server.users.hamlet);
    const res = await c.get_realm_profile_fields();
    ok(res);
    expect(Array.isArray(res["custom_fields"])).toBe(true);
  });

  it("create_realm_profile_field", async () => {
    const c = await clientFor(server.users.iago);
    const res = await c.create_realm_profile_field({ name: "Phone", hint: "Contact no.", field_type: 1 });
    ok(res);
    expect(typeof res["id"]).toBe("number");
    const list = await c.get_realm_profile_fields();
    expect(list["custom_fields"]).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: res["id"], name: "Phone", hint: "Contact no.", type: 1 }),
      ]),
    );
  });

  it("remove_realm_profile_field", async () => {
    const c = await clientFor(server.users.iago);
    const created = await c.create_realm_profile_field({ name: "Pager", hint: "", field_type: 1 });
    ok(created);
    ok(await c.remove_realm_profile_field(created["id"] as number));
    const list = await c.get_realm_profile_fields();
    expect((list["custom_fields"] as PyResult[]).map((f) => f["id"])).not.toContain(created["id"]);
  });

  it("reorder_realm_profile_fields", async () => {
    const c = await clientFor(server.users.iago);
    const before = await c.get_realm_profile_fields();
    const ids = (before["custom_fields"] as PyResult[]).map((f) => f["id"] as number);
    const a = await c.create_realm_profile_field({ name: "Reorder A", hint: "", field_type: 1 });
    const b = await c.create_realm_profile_field({ name: "Reorder B", hint: "", field_type: 1 });
    const order = [b["id"] as number, a["id"] as number, ...ids];
    ok(await c.reorder_realm_profile_fields({ order }));
    const after = await c.get_realm_profile_fields();
    expect((after["custom_fields"] as PyResult[]).map((f) => f["id"])).toEqual(order);
  });

  it("update_realm_profile_field", async () => {
    const c = await clientFor(server.users.iago);
    const created = await c.create_realm_profile_field({ name: "Mail", hint: "", field_type: 1 });
    ok(await c.update_realm_profile_field(created["id"] as number, { name: "Email", hint: "Work address" }));
    const list = await c.get_realm_profile_fields();
    expect(list["custom_fields"]).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: created["id"], name: "Email", hint: "Work address" }),
      ]),
    );
  });
});

describe("zulip.Client: custom emoji", () => {
  /** A 32×32 PNG, as an emoji file on disk would be. */
  const png = (): Promise<Buffer> =>
    sharp({ create: { width: 32, height: 32, channels: 4, background: { r: 0, g: 160, b: 0, alpha: 1 } } })
      .png()
      .toBuffer();

  it("upload_custom_emoji", async () => {
    const c = await clientFor(server.users.iago);
    // The file part goes out named by its path and without a Content-Type, as python-requests sends it.
    const res = await c.upload_custom_emoji("green_tick", {
      name: "/tmp/emoji/green_tick.png",
      content: await png(),
    });
    ok(res);
    const list = await c.get_realm_emoji();
    expect(Object.values(list["emoji"] as object)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: "green_tick", deactivated: false, author_id: server.users.iago.id }),
      ]),
    );
  });

  it("delete_custom_emoji", async () => {
    const c = await clientFor(server.users.iago);
    ok(await c.upload_custom_emoji("short_lived", { name: "short_lived.png", content: await png() }));
    ok(await c.delete_custom_emoji("short_lived"));
    const list = await c.get_realm_emoji();
    expect(Object.values(list["emoji"] as object)).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: "short_lived", deactivated: true })]),
    );
  });
});

describe("zulip.Client: event queues", () => {
  it("register", async () => {
    const c = await clientFor(server.users.hamlet);
    const res = await c.register(["message"]);
    ok(res);
    expect(typeof res["queue_id"]).toBe("string");
    expect(res["last_event_id"]).toBe(-1);
    expect(typeof res["max_message_id"]).toBe("number");
    // Without event types the client sends only narrow=[].
    ok(await c.register());
    expect(c.lastSent().body?.toString()).toBe("narrow=%5B%5D");
  });

  it("get_events", async () => {
    const { hamlet, othello } = server.users;
    const c = await clientFor(hamlet);
    const reg = await c.register(["message"]);
    const id = await sendStream(
      await clientFor(othello),
      (await freshStream([hamlet, othello])).name,
      "ev",
      "hello",
    );
    const res = await c.get_events({ queue_id: reg["queue_id"], last_event_id: reg["last_event_id"] });
    ok(res);
    expect(res["events"]).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: "message", message: expect.objectContaining({ id }) }),
      ]),
    );
  });

  it("deregister", async () => {
    const c = await clientFor(server.users.hamlet);
    const reg = await c.register(["message"]);
    ok(await c.deregister(reg["queue_id"] as string));
    const gone = await c.get_events({ queue_id: reg["queue_id"], last_event_id: -1 });
    expect(gone).toMatchObject({ result: "error", code: "BAD_EVENT_QUEUE_ID" });
  });

  /** Resolves once the client's event loop polls its queue (so register has been answered). */
  async function queueReady(c: ZulipClient): Promise<void> {
    while (!c.sent.some((s) => s.path.startsWith("/api/v1/events?")))
      await new Promise((r) => setTimeout(r, 10));
  }

  it("call_on_each_event", async () => {
    const { hamlet, othello } = server.users;
    const stream = await freshStream([hamlet, othello]);
    const c = await clientFor(hamlet);
    const o = await clientFor(othello);
    const seen: PyResult[] = [];
    const loop = c.call_on_each_event(
      (e) => seen.push(e),
      ["message"],
      null,
      () => seen.length >= 1,
    );
    // Send once the loop's queue exists: its first get_events goes out only after register answered
    // (a send overtaking the register would be, rightly, not in the queue).
    await queueReady(c);
    const id = await sendStream(o, stream.name, "each event", "tick");
    await loop;
    expect(seen).toEqual([
      expect.objectContaining({ type: "message", message: expect.objectContaining({ id }) }),
    ]);
  });

  it("call_on_each_message", async () => {
    const { hamlet, othello } = server.users;
    const c = await clientFor(hamlet);
    const o = await clientFor(othello);
    const seen: PyResult[] = [];
    const loop = c.call_on_each_message(
      (m) => seen.push(m),
      () => seen.length >= 1,
    );
    await queueReady(c);
    const pm = await o.send_message({ type: "private", to: [hamlet.id], content: "each message" });
    ok(pm);
    await loop;
    // register without apply_markdown: the events carry the Markdown source, as in Zulip.
    expect(seen).toEqual([
      expect.objectContaining({ id: pm["id"], content: "each message", content_type: "text/x-markdown" }),
    ]);
  });
});

describe("zulip.Client: bot storage", () => {
  async function botClient(): Promise<ZulipClient> {
    const admin = await clientFor(server.users.iago);
    const bot = await server.api.post("/api/v1/bots", {
      as: server.users.iago,
      params: {
        full_name: `Storage Bot ${++streamCounter}`,
        short_name: `storage-${streamCounter}`,
        bot_type: 1,
      },
    });
    expect(admin.zulipVersion).not.toBe("");
    return ZulipClient.connect({ site: server.url, email: bot.body.email, apiKey: bot.body.api_key });
  }

  it("update_storage", async () => {
    const c = await botClient();
    const res = await c.update_storage({ storage: { "entry 1": "value 1", "entry 2": "value 2" } });
    ok(res);
    const all = await c.get_storage();
    expect(all["storage"]).toEqual({ "entry 1": "value 1", "entry 2": "value 2" });
  });

  it("get_storage", async () => {
    const c = await botClient();
    ok(await c.update_storage({ storage: { a: "1", b: "2", c: "3" } }));
    const res = await c.get_storage({ keys: ["a", "c"] });
    ok(res);
    expect(res["storage"]).toEqual({ a: "1", c: "3" });
  });
});

describe("zulip.Client: methods needing a component this server doesn't run", () => {
  it("get_stream_email_address (needs Zulip's incoming email gateway)", async () => {
    const { hamlet } = server.users;
    const stream = await freshStream([hamlet]);
    const c = await clientFor(hamlet);
    const res = await c.get_stream_email_address(stream.id);
    expect(res).toEqual({
      result: "error",
      code: "BAD_REQUEST",
      msg: "This server has no incoming email gateway, so streams have no email address",
    });
  });
});
