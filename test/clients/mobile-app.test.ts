/**
 * The official Zulip mobile app (zulip-flutter) against a real server, following its source: the
 * requests of `lib/api/route/*.dart` with the parameters it sends to a server at feature level 371 or
 * more (register's parameters and client capabilities, `channel`/`direct` types, its narrows with
 * `channel`, `dm` and `with`, flag updates by narrow), and every answer and event it parses checked
 * against what its deserialisers require (zulip-flutter-models.ts, written from its `.g.dart` files).
 * Dart is not installed here, so the app itself does not run; this test is the evidence.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import type { ApiResponse, ParamValue } from "../helpers/client.js";
import { startTestServer, OWNER_PASSWORD } from "../helpers/test-server.js";
import type { TestServer, TestUser } from "../helpers/test-server.js";
import * as M from "./zulip-flutter-models.js";
import type { Shape } from "./zulip-flutter-models.js";

type Json = Record<string, unknown>;

let server: TestServer;
let hamlet: TestUser;
let othello: TestUser;
let iago: TestUser;
let streamId: number;

/** The app's registerQueue parameters (lib/api/route/events.dart). */
const REGISTER_PARAMS: Record<string, ParamValue> = {
  apply_markdown: true,
  client_gravatar: false,
  slim_presence: true,
  client_capabilities: {
    notification_settings_null: true,
    bulk_message_deletion: true,
    user_avatar_url_field_optional: true,
    stream_typing_notifications: true,
    user_settings_object: true,
    include_deactivated_groups: true,
    empty_topic_name: true,
    individual_emoji_changes: true,
  },
};

function expectShape(value: unknown, shape: Shape): void {
  expect(M.shapeProblems(value, shape)).toEqual([]);
}

function ok(res: ApiResponse): Json {
  expect({ status: res.status, result: (res.body as Json | undefined)?.["result"] }).toEqual({
    status: 200,
    result: "success",
  });
  return res.body as Json;
}

/** An app session: its own credentials and event queue, with every event checked as it arrives. */
class AppSession {
  lastEventId = -1;
  readonly seen: Json[] = [];
  constructor(
    readonly user: TestUser,
    readonly queueId: string,
    readonly snapshot: Json,
  ) {}

  static async start(user: TestUser): Promise<AppSession> {
    const body = ok(await server.api.post("/api/v1/register", { as: user, params: REGISTER_PARAMS }));
    expectShape(body, M.InitialSnapshot);
    return new AppSession(user, body["queue_id"] as string, body);
  }

  post(path: string, params: Record<string, ParamValue | undefined> = {}): Promise<ApiResponse> {
    return server.api.post(`/api/v1/${path}`, { as: this.user, params });
  }
  get(path: string, params: Record<string, ParamValue | undefined> = {}): Promise<ApiResponse> {
    return server.api.get(`/api/v1/${path}`, { as: this.user, params });
  }

  /** Polls GET /events (as the app does, by queue id and last event id) until `match` holds. */
  async waitFor(match: (e: Json) => boolean): Promise<Json> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const found = this.seen.find(match);
      if (found !== undefined) return found;
      if (Date.now() > deadline) throw new Error(`no such event; saw ${JSON.stringify(this.seen)}`);
      await server.running.services.eventQueues.idle();
      const body = ok(
        await this.get("events", {
          queue_id: this.queueId,
          last_event_id: this.lastEventId,
          dont_block: true,
        }),
      );
      expectShape(body, M.GetEventsResult);
      for (const event of body["events"] as Json[]) {
        expect(M.eventProblems(event)).toEqual([]);
        this.seen.push(event);
        this.lastEventId = Math.max(this.lastEventId, event["id"] as number);
      }
    }
  }
}

beforeAll(async () => {
  server = await startTestServer();
  ({ hamlet, othello, iago } = server.users);
  for (const u of [hamlet, othello]) {
    ok(
      await server.api.post("/api/v1/users/me/subscriptions", {
        as: u,
        params: { subscriptions: [{ name: "Denmark" }] },
      }),
    );
  }
  const streams = ok(await server.api.get("/api/v1/streams", { as: hamlet }))["streams"] as Json[];
  streamId = streams.find((s) => s["name"] === "Denmark")!["stream_id"] as number;
});
afterAll(async () => {
  await server.close();
});

describe("the Zulip mobile app (zulip-flutter)", () => {
  it("accepts the server and logs in with a password", async () => {
    const settings = ok(await server.api.get("/api/v1/server_settings"));
    expectShape(settings, M.GetServerSettingsResult);
    // kMinSupportedZulipFeatureLevel (lib/api/core.dart) is 371; the server says Zulip 11.0.
    expect(settings).toMatchObject({
      zulip_feature_level: 421,
      zulip_version: "11.0",
      zulip_merge_base: "11.0",
      push_notifications_enabled: false,
    });
    const key = ok(
      await server.api.post("/api/v1/fetch_api_key", {
        params: { username: iago.email, password: OWNER_PASSWORD },
      }),
    );
    expectShape(key, M.FetchApiKeyResult);
    expect(key).toMatchObject({ api_key: iago.apiKey, email: iago.email, user_id: iago.id });
    const me = ok(await server.api.get("/api/v1/users/me", { as: iago }));
    expectShape(me, M.GetOwnUserResult);
  });

  it("registers its event queue with the app's parameters and reads the whole snapshot", async () => {
    const app = await AppSession.start(hamlet);
    const s = app.snapshot;
    expect(s).toMatchObject({
      zulip_feature_level: 421,
      realm_wildcard_mention_policy: expect.any(Number),
      realm_enable_read_receipts: true,
      max_file_upload_size_mib: 25,
      user_settings: expect.objectContaining({ presence_enabled: true }),
    });
    expect(s["realm_icon_url"]).toMatch(/^http/);
    // The emoji data the app downloads from server_emoji_data_url.
    const emoji = await fetch(s["server_emoji_data_url"] as string);
    expect(emoji.status).toBe(200);
    const data = (await emoji.json()) as Json;
    expectShape(data, M.ServerEmojiData);
    expect((data["code_to_names"] as Record<string, string[]>)["1f44d"]).toContain("thumbs_up");
    const sub = (s["subscriptions"] as Json[]).find((x) => x["stream_id"] === streamId);
    expect(sub).toMatchObject({ name: "Denmark", is_muted: false, pin_to_top: false });
  });

  it("sends to a channel and directly with type channel and direct, and both arrive as events", async () => {
    const app = await AppSession.start(hamlet);
    const other = await AppSession.start(othello);
    const sent = ok(
      await app.post("messages", {
        type: "channel",
        to: streamId,
        topic: "castle",
        content: "hello from the app",
        queue_id: app.queueId,
        local_id: "1.5",
        read_by_sender: true,
      }),
    );
    expectShape(sent, M.SendMessageResult);
    const own = await app.waitFor((e) => e["type"] === "message" && e["local_message_id"] === "1.5");
    expect(own).toMatchObject({
      flags: ["read"],
      message: { id: sent["id"], type: "stream", subject: "castle" },
    });
    await other.waitFor((e) => e["type"] === "message" && (e["message"] as Json)["id"] === sent["id"]);

    const dm = ok(await app.post("messages", { type: "direct", to: [othello.id], content: "psst" }));
    const got = await other.waitFor(
      (e) => e["type"] === "message" && (e["message"] as Json)["id"] === dm["id"],
    );
    expect(got).toMatchObject({ flags: [], message: { type: "private" } });
  });

  it("opens its narrows: channel, topic, topic with a message, dm, is, search, and a single message", async () => {
    const app = await AppSession.start(hamlet);
    const first = ok(
      await app.post("messages", { type: "channel", to: streamId, topic: "narrows", content: "one" }),
    );
    ok(await app.post("messages", { type: "channel", to: streamId, topic: "narrows", content: "two" }));
    ok(await app.post("messages", { type: "direct", to: [othello.id], content: "narrow dm" }));
    const narrows: [Json[], number][] = [
      [[{ operator: "channel", operand: streamId }], 2],
      [
        [
          { operator: "channel", operand: streamId },
          { operator: "topic", operand: "narrows" },
        ],
        2,
      ],
      [
        [
          { operator: "channel", operand: streamId },
          { operator: "topic", operand: "narrows" },
          { operator: "with", operand: first["id"] },
        ],
        2,
      ],
      [[{ operator: "dm", operand: [othello.id] }], 1],
      [[{ operator: "is", operand: "dm" }], 1],
      [[{ operator: "is", operand: "starred" }], 0],
      [[{ operator: "is", operand: "mentioned" }], 0],
      [[{ operator: "search", operand: "two" }], 1],
    ];
    for (const [narrow, atLeast] of narrows) {
      const body = ok(
        await app.get("messages", {
          narrow,
          anchor: "newest",
          num_before: 100,
          num_after: 0,
          client_gravatar: false,
          apply_markdown: true,
          allow_empty_topic_name: true,
        }),
      );
      expectShape(body, M.GetMessagesResult);
      const messages = body["messages"] as Json[];
      expect({ narrow, enough: messages.length >= atLeast }).toEqual({ narrow, enough: true });
      expect(messages.flatMap((m, i) => M.messageProblems(m, `messages[${i}]`))).toEqual([]);
    }
    const single = ok(await app.get(`messages/${String(first["id"])}`, { allow_empty_topic_name: true }));
    expect(M.messageProblems(single["message"])).toEqual([]);
    const anchored = ok(
      await app.get("messages", {
        narrow: [],
        anchor: "first_unread",
        num_before: 10,
        num_after: 10,
        allow_empty_topic_name: true,
      }),
    );
    expectShape(anchored, M.GetMessagesResult);
  });

  it("marks messages read by id and by narrow, marks unread from here, and reads receipts", async () => {
    const app = await AppSession.start(othello);
    const sent: number[] = [];
    for (const content of ["r1", "r2", "r3"]) {
      const body = ok(
        await server.api.post("/api/v1/messages", {
          as: hamlet,
          params: { type: "channel", to: streamId, topic: "reading", content },
        }),
      );
      sent.push(body["id"] as number);
    }
    const byId = ok(await app.post("messages/flags", { messages: [sent[0]!], op: "add", flag: "read" }));
    expectShape(byId, M.UpdateMessageFlagsResult);
    expect(byId["messages"]).toEqual([sent[0]]);
    await app.waitFor((e) => e["type"] === "update_message_flags" && e["op"] === "add");

    const topicNarrow = [
      { operator: "channel", operand: streamId },
      { operator: "topic", operand: "reading" },
    ];
    const read = ok(
      await app.post("messages/flags/narrow", {
        anchor: "oldest",
        include_anchor: true,
        num_before: 0,
        num_after: 1000,
        narrow: topicNarrow,
        op: "add",
        flag: "read",
      }),
    );
    expectShape(read, M.UpdateMessageFlagsForNarrowResult);
    expect(read).toMatchObject({
      processed_count: 3,
      updated_count: 2,
      first_processed_id: sent[0],
      last_processed_id: sent[2],
      found_oldest: true,
      found_newest: true,
    });
    const unread = ok(
      await app.post("messages/flags/narrow", {
        anchor: String(sent[1]),
        include_anchor: true,
        num_before: 0,
        num_after: 1000,
        narrow: topicNarrow,
        op: "remove",
        flag: "read",
      }),
    );
    expect(unread).toMatchObject({ processed_count: 2, updated_count: 2, first_processed_id: sent[1] });
    const removed = await app.waitFor((e) => e["type"] === "update_message_flags" && e["op"] === "remove");
    expect(removed).toMatchObject({ messages: [sent[1], sent[2]] });
    expect(Object.keys(removed["message_details"] as Json)).toEqual([String(sent[1]), String(sent[2])]);

    const receipts = ok(await app.get(`messages/${String(sent[0])}/read_receipts`));
    expectShape(receipts, M.GetReadReceiptsResult);
    expect(receipts["user_ids"]).toEqual(expect.arrayContaining([othello.id]));
  });

  it("shows typing in a topic and in a direct conversation", async () => {
    const app = await AppSession.start(othello);
    const typer = { as: hamlet };
    ok(
      await server.api.post("/api/v1/typing", {
        ...typer,
        params: { op: "start", type: "channel", stream_id: streamId, topic: "castle" },
      }),
    );
    const channelTyping = await app.waitFor((e) => e["type"] === "typing" && e["message_type"] === "stream");
    expect(channelTyping).toMatchObject({ op: "start", stream_id: streamId, topic: "castle" });
    ok(
      await server.api.post("/api/v1/typing", {
        ...typer,
        params: { op: "start", type: "direct", to: [othello.id] },
      }),
    );
    await app.waitFor((e) => e["type"] === "typing" && e["message_type"] !== "stream");
  });

  it("reacts, edits, and follows and mutes topics with POST /user_topics", async () => {
    const app = await AppSession.start(hamlet);
    const sent = ok(
      await app.post("messages", { type: "channel", to: streamId, topic: "edits", content: "x" }),
    );
    const id = sent["id"] as number;
    ok(
      await app.post(`messages/${String(id)}/reactions`, {
        emoji_name: "smile",
        emoji_code: "1f604",
        reaction_type: "unicode_emoji",
      }),
    );
    await app.waitFor((e) => e["type"] === "reaction" && e["op"] === "add");
    ok(await server.api.patch(`/api/v1/messages/${String(id)}`, { as: hamlet, params: { content: "y" } }));
    await app.waitFor((e) => e["type"] === "update_message" && e["message_id"] === id);

    for (const policy of [3, 1, 2, 0]) {
      ok(await app.post("user_topics", { stream_id: streamId, topic: "edits", visibility_policy: policy }));
      await app.waitFor((e) => e["type"] === "user_topic" && e["visibility_policy"] === policy);
    }
    const topics = ok(await app.get(`users/me/${String(streamId)}/topics`, { allow_empty_topic_name: true }));
    expectShape(topics, M.GetChannelTopicsResult);
  });

  it("changes subscription settings, presence, status and settings", async () => {
    const app = await AppSession.start(hamlet);
    ok(
      await app.post("users/me/subscriptions/properties", {
        subscription_data: [{ stream_id: streamId, property: "is_muted", value: true }],
      }),
    );
    await app.waitFor((e) => e["type"] === "subscription" && e["op"] === "update");
    const presence = ok(
      await app.post("users/me/presence", {
        last_update_id: -1,
        new_user_input: true,
        ping_only: false,
        status: "active",
        slim_presence: true,
      }),
    );
    expectShape(presence, M.UpdatePresenceResult);
    ok(
      await app.post("users/me/status", {
        status_text: "at sea",
        emoji_name: "",
        emoji_code: "",
        reaction_type: "",
      }),
    );
    await app.waitFor((e) => e["type"] === "user_status");
    ok(await server.api.patch("/api/v1/settings", { as: hamlet, params: { presence_enabled: false } }));
    await app.waitFor((e) => e["type"] === "user_settings" && e["property"] === "presence_enabled");
  });

  it("sees a new user arrive with avatar_version", async () => {
    const app = await AppSession.start(hamlet);
    ok(
      await server.api.post("/api/v1/users", {
        as: iago,
        params: { email: "newcomer@zulip.com", password: "pw-newcomer-1", full_name: "Newcomer" },
      }),
    );
    const added = await app.waitFor((e) => e["type"] === "realm_user" && e["op"] === "add");
    expect((added["person"] as Json)["avatar_version"]).toEqual(expect.any(Number));
  });

  it("stores push tokens, which this server cannot use", async () => {
    const app = await AppSession.start(hamlet);
    ok(await app.post("users/me/android_gcm_reg_id", { token: "fcm-token-1" }));
    ok(
      await server.api.delete("/api/v1/users/me/android_gcm_reg_id", {
        as: hamlet,
        params: { token: "fcm-token-1" },
      }),
    );
    ok(await app.post("users/me/apns_device_token", { token: "abcdef0123", appid: "org.zulip.Zulip" }));
    ok(
      await server.api.delete("/api/v1/users/me/apns_device_token", {
        as: hamlet,
        params: { token: "abcdef0123" },
      }),
    );
  });
});
