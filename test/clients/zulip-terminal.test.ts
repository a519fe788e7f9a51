/**
 * zulip-terminal (`pip install zulip-term`) against a real server, following its source
 * (zulipterminal/model.py, core.py, helper.py): it talks through the Python client, so its requests
 * go out through python-client-wire.ts with zulip-terminal's client name. Each test makes the calls
 * zulip-terminal makes for one thing a user does (start, open a narrow, send, react, star, edit, list
 * topics, search, receive events) and reads the answers the way its code does: a key zulip-terminal
 * reads without checking is looked up with `need`, which fails as the Python KeyError would crash it.
 * Every answer is checked against Zulip's OpenAPI schema where one exists.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
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

/** The identifier zulip-terminal passes as `client=` (ZT version and `platform.platform()`). */
const ZT_CLIENT = "ZulipTerminal/0.7.0 Linux-6.1.0-x86_64-with-glibc2.36";

/** Model.initial_data_to_fetch, plus custom_profile_fields which later releases ask for. */
const FETCH_EVENT_TYPES = [
  "realm",
  "presence",
  "subscription",
  "message",
  "starred_messages",
  "update_message_flags",
  "muted_topics",
  "realm_user",
  "realm_user_groups",
  "update_global_notifications",
  "update_display_settings",
  "user_settings",
  "realm_emoji",
  "custom_profile_fields",
  "zulip_version",
];

/** Model.event_actions: the event types it registers for. */
const EVENT_TYPES = [
  "message",
  "update_message",
  "reaction",
  "subscription",
  "typing",
  "update_message_flags",
  "update_global_notifications",
  "update_display_settings",
  "user_settings",
  "realm_emoji",
];

/** `obj[key]` as Python reads a dict: a missing key is an error (zulip-terminal would crash). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a value of any JSON shape, as the Python code reads it
function need(obj: unknown, ...path: (string | number)[]): any {
  let cur: unknown = obj;
  for (const key of path) {
    if (cur === null || typeof cur !== "object" || !(String(key) in cur)) {
      throw new Error(`KeyError: ${JSON.stringify(key)} (reading ${path.join(".")})`);
    }
    cur = (cur as Record<string, unknown>)[String(key)];
  }
  return cur;
}

/** helper.canonicalize_color: '#xxxxxx' or '#xxx', anything else raises ValueError. */
function canonicalizeColor(color: string): string {
  if (/^#[0-9A-Fa-f]{6}$/.test(color)) return (color.slice(0, 2) + color[3] + color[5]).toLowerCase();
  if (/^#[0-9A-Fa-f]{3}$/.test(color)) return color.toLowerCase();
  throw new Error(`ValueError: Unknown format for color "${color}"`);
}

interface Terminal {
  client: ZulipClient;
  initial: PyResult;
  queueId: string;
  lastEventId: number;
  narrow: unknown[][];
}

/**
 * Controller + Model start-up: the client (GET server_settings), then get_messages for the home view
 * and register, then what the Model reads from them before drawing, then the first presence ping.
 */
async function startTerminal(user: TestUser): Promise<Terminal> {
  const client = await ZulipClient.connect({
    site: server.url,
    email: user.email,
    apiKey: user.apiKey,
    client: ZT_CLIENT,
  });
  const home = await getMessages(client, [], { numBefore: 30, numAfter: 10, anchor: null });
  const initial = await client.register(EVENT_TYPES, [], {
    fetch_event_types: FETCH_EVENT_TYPES,
    client_gravatar: true,
    apply_markdown: true,
    include_subscribers: true,
  });
  expect(initial).toMatchObject({ result: "success" });
  for (const m of home) modernizeAndIndex(m);

  // Model.__init__ and its helpers, in order.
  for (const key of ["user_id", "email", "full_name", "realm_name", "zulip_version", "max_message_id"])
    need(initial, key);
  const queueId = need(initial, "queue_id") as string;
  const lastEventId = need(initial, "last_event_id") as number;
  getAllUsers(initial);
  const subscriptions = need(initial, "subscriptions") as PyResult[];
  for (const s of subscriptions) {
    canonicalizeColor(need(s, "color"));
    for (const key of [
      "stream_id",
      "name",
      "description",
      "pin_to_top",
      "in_home_view",
      "desktop_notifications",
    ])
      need(s, key);
    need(s, "invite_only");
    need(s, "message_retention_days");
    expect(Array.isArray(need(s, "subscribers"))).toBe(true);
  }
  need(initial, "realm_message_retention_days");
  const muted = need(initial, "muted_topics") as unknown[][];
  expect(new Set(muted.map((t) => t.length)).size).toBeLessThanOrEqual(1);
  for (const g of need(initial, "realm_user_groups") as PyResult[]) {
    need(g, "id");
    need(g, "name");
  }
  classifyUnreadCounts(initial, new Set(subscriptions.map((s) => s["stream_id"] as number)));
  for (const [, emoji] of Object.entries(need(initial, "realm_emoji") as PyResult)) {
    need(emoji, "name");
    need(emoji, "deactivated");
  }
  need(initial, "user_settings", "send_private_typing_notifications");
  need(initial, "twenty_four_hour_time");
  need(initial, "pm_content_in_desktop_notifications");
  need(initial, "starred_messages");

  // _start_presence_updates: the first ping replaces the presence table.
  const ping = await client.update_presence({ status: "active", new_user_input: true });
  expect(ping).toMatchObject({ result: "success" });
  initial["presences"] = need(ping, "presences");
  getAllUsers(initial);
  return { client, initial, queueId, lastEventId, narrow: [] };
}

/** Model.get_all_users: realm_users, cross_realm_bots and the legacy per-client presence entries. */
function getAllUsers(initial: PyResult): void {
  const presences = need(initial, "presences") as PyResult;
  for (const user of need(initial, "realm_users") as PyResult[]) {
    for (const key of ["user_id", "full_name", "email"]) need(user, key);
    const presence = presences[need(user, "email") as string] as PyResult | undefined;
    if (presence === undefined) continue;
    for (const [clientName, info] of Object.entries(presence)) {
      if (clientName === "aggregated") continue;
      need(info, "status");
      need(info, "timestamp");
    }
    // get_user_info reads the aggregated timestamp of anyone with a presence.
    need(presence, "aggregated", "timestamp");
  }
  for (const bot of need(initial, "cross_realm_bots") as PyResult[]) {
    for (const key of ["email", "full_name", "user_id"]) need(bot, key);
  }
}

/** helper.classify_unread_counts. */
function classifyUnreadCounts(initial: PyResult, subscribed: Set<number>): void {
  const unread = need(initial, "unread_msgs");
  need(unread, "mentions");
  for (const pm of need(unread, "pms") as PyResult[]) {
    need(pm, "sender_id");
    need(pm, "unread_message_ids");
  }
  for (const s of need(unread, "streams") as PyResult[]) {
    need(s, "unread_message_ids");
    need(s, "topic");
    if (!subscribed.has(need(s, "stream_id") as number)) continue;
  }
  for (const h of need(unread, "huddles") as PyResult[]) {
    (need(h, "user_ids_string") as string).split(",").map(Number);
    need(h, "unread_message_ids");
  }
}

/** modernize_message_response + index_messages: the fields read of every message. */
function modernizeAndIndex(m: PyResult): void {
  for (const key of [
    "id",
    "flags",
    "type",
    "display_recipient",
    "sender_id",
    "reactions",
    "content",
    "timestamp",
  ])
    need(m, key);
  need(m, "sender_full_name");
  need(m, "sender_email");
  if (m["type"] === "stream") {
    need(m, "stream_id");
    need(m, "subject");
  } else {
    for (const r of need(m, "display_recipient") as PyResult[]) need(r, "id");
  }
}

/**
 * Model.get_messages: anchor None means "first unread" (anchor 0 with use_first_unread_anchor), the
 * narrow goes out already JSON-encoded by zulip-terminal itself.
 */
async function getMessages(
  client: ZulipClient,
  narrow: unknown[][],
  opts: { numBefore: number; numAfter: number; anchor: number | null },
): Promise<PyResult[]> {
  const res = await client.get_messages({
    anchor: opts.anchor ?? 0,
    num_before: opts.numBefore,
    num_after: opts.numAfter,
    apply_markdown: true,
    use_first_unread_anchor: opts.anchor === null,
    client_gravatar: true,
    narrow: JSON.stringify(narrow),
  });
  if (res["result"] !== "success")
    throw new Error(`get_messages ${JSON.stringify(narrow)}: ${JSON.stringify(res)}`);
  need(res, "anchor");
  need(res, "found_newest");
  const messages = need(res, "messages") as PyResult[];
  for (const m of messages) modernizeAndIndex(m);
  return messages;
}

/** Model.poll_for_events, one round: long-poll and dispatch the types zulip-terminal handles. */
async function pollEvents(t: Terminal): Promise<PyResult[]> {
  const res = await t.client.get_events({ queue_id: t.queueId, last_event_id: t.lastEventId });
  expect(res).toMatchObject({ result: "success" });
  const events = need(res, "events") as PyResult[];
  for (const e of events) {
    t.lastEventId = Math.max(t.lastEventId, Number(need(e, "id")));
    handleEvent(e);
  }
  return events.filter((e) => e["type"] !== "heartbeat");
}

/** The fields each of Model's _handle_*_event methods reads unchecked. */
function handleEvent(e: PyResult): void {
  switch (need(e, "type")) {
    case "message": {
      // _handle_message_event: flags come from the event (missing means none), then the message is indexed.
      const message = need(e, "message") as PyResult;
      message["flags"] = e["flags"] ?? [];
      modernizeAndIndex(message);
      break;
    }
    case "update_message":
      need(e, "message_id");
      if ("subject" in e) {
        need(e, "stream_id");
        need(e, "orig_subject");
        need(e, "message_ids");
      }
      break;
    case "reaction":
      need(e, "message_id");
      need(e, "op");
      need(e, "emoji_code");
      if (e["op"] === "add") {
        need(e, "user");
        need(e, "reaction_type");
        need(e, "emoji_name");
      }
      break;
    case "typing":
      need(e, "sender", "email");
      need(e, "sender", "user_id");
      need(e, "op");
      break;
    case "update_message_flags":
      need(e, "op");
      if (need(e, "all") !== true) {
        need(e, "flag");
        need(e, "messages");
      }
      break;
    case "subscription":
      if (e["op"] === "update") {
        need(e, "stream_id");
        need(e, "value");
      }
      break;
    case "realm_emoji":
      need(e, "realm_emoji");
      break;
    case "user_settings":
      need(e, "op");
      need(e, "property");
      need(e, "value");
      break;
    default:
      break;
  }
}

/** Polls until events of `type` arrive (other types are handled and kept too). */
async function eventsUntil(t: Terminal, type: string): Promise<PyResult[]> {
  const seen: PyResult[] = [];
  for (let i = 0; i < 10 && !seen.some((e) => e["type"] === type); i++) seen.push(...(await pollEvents(t)));
  return seen;
}

let counter = 0;
async function streamWith(users: TestUser[]): Promise<string> {
  const name = `zt stream ${++counter}`;
  const res = await server.api.post("/api/v1/users/me/subscriptions", {
    as: users[0]!,
    params: { subscriptions: [{ name }], principals: users.map((u) => u.email) },
  });
  expect(res.status).toBe(200);
  return name;
}

describe("zulip-terminal", () => {
  it("starts: server settings, the home view's messages, register with its fetch_event_types, presence", async () => {
    const { hamlet, othello } = server.users;
    const stream = await streamWith([hamlet, othello]);
    const o = await ZulipClient.connect({ site: server.url, email: othello.email, apiKey: othello.apiKey });
    await o.send_message({ type: "stream", to: stream, subject: "hello", content: "unread for hamlet" });
    await o.send_message({ type: "private", to: [hamlet.id], content: "a private one" });
    const t = await startTerminal(hamlet);
    expect(t.client.sent[0]!.headers["user-agent"]).toMatch(/^ZulipTerminal\/0\.7\.0 /);
    expect(t.initial).toMatchObject({ user_id: hamlet.id, email: hamlet.email, zulip_feature_level: 421 });
    expect((t.initial["subscriptions"] as PyResult[]).map((s) => s["name"])).toContain(stream);
    expect(t.initial["unread_msgs"]["count"]).toBe(2);
  });

  it("opens its narrows: a stream, a topic, private messages, one conversation, starred, mentions", async () => {
    const { hamlet, othello, cordelia } = server.users;
    const stream = await streamWith([hamlet, othello]);
    const h = await startTerminal(hamlet);
    const o = await ZulipClient.connect({ site: server.url, email: othello.email, apiKey: othello.apiKey });
    const inTopic = (
      await o.send_message({
        type: "stream",
        to: stream,
        subject: "castle",
        content: "@**King Hamlet** look",
      })
    )["id"];
    const other = (await o.send_message({ type: "stream", to: stream, subject: "moat", content: "water" }))[
      "id"
    ];
    const pm = (await o.send_message({ type: "private", to: [hamlet.id], content: "psst" }))["id"];
    const group = (
      await o.send_message({ type: "private", to: [hamlet.id, cordelia.id], content: "all of us" })
    )["id"];
    await h.client.update_message_flags({ flag: "starred", messages: [other], op: "add" });
    const ids = async (narrow: unknown[][]) =>
      (await getMessages(h.client, narrow, { numBefore: 30, numAfter: 10, anchor: 10000000000000000 })).map(
        (m) => m["id"],
      );
    expect(await ids([["stream", stream]])).toEqual([inTopic, other]);
    expect(
      await ids([
        ["stream", stream],
        ["topic", "castle"],
      ]),
    ).toEqual([inTopic]);
    expect(await ids([["is", "private"]])).toEqual(expect.arrayContaining([pm, group]));
    // Its pm_with narrow: emails joined with ", " (older releases say pm_with, newer pm-with).
    // (The server is shared by this file's tests: earlier ones left private messages too.)
    const withOthello = await ids([["pm_with", othello.email]]);
    expect(withOthello).toContain(pm);
    expect(withOthello).not.toContain(group);
    expect(await ids([["pm-with", `${othello.email}, ${cordelia.email}`]])).toEqual([group]);
    const starred = await ids([["is", "starred"]]);
    expect(starred).toContain(other);
    expect(starred).not.toContain(inTopic);
    const mentioned = await ids([["is", "mentioned"]]);
    expect(mentioned).toContain(inTopic);
    expect(mentioned).not.toContain(other);
  });

  it("searches within the current narrow", async () => {
    const { hamlet } = server.users;
    const stream = await streamWith([hamlet]);
    const h = await startTerminal(hamlet);
    const hit = (
      await h.client.send_message({ type: "stream", to: stream, subject: "s", content: "the rain in Spain" })
    )["id"];
    await h.client.send_message({ type: "stream", to: stream, subject: "s", content: "nothing here" });
    const found = await getMessages(
      h.client,
      [
        ["stream", stream],
        ["search", "spain"],
      ],
      {
        numBefore: 30,
        numAfter: 10,
        anchor: 10000000000000000,
      },
    );
    expect(found.map((m) => m["id"])).toEqual([hit]);
  });

  it("sends to a stream and privately, and shows others' messages live", async () => {
    const { hamlet, othello } = server.users;
    const stream = await streamWith([hamlet, othello]);
    const h = await startTerminal(hamlet);
    const o = await startTerminal(othello);
    // Model.send_stream_message and send_private_message.
    const sent = await h.client.send_message({
      type: "stream",
      to: stream,
      subject: "live",
      content: "hi **all**",
    });
    expect(sent).toMatchObject({ result: "success" });
    const pm = await h.client.send_message({ type: "private", to: [othello.id], content: "just you" });
    expect(pm).toMatchObject({ result: "success" });
    const messages: PyResult[] = [];
    for (let i = 0; i < 5 && messages.length < 2; i++) {
      const events = await pollEvents(o);
      messages.push(...events.filter((e) => e["type"] === "message").map((e) => e["message"] as PyResult));
    }
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          id: sent["id"],
          content: "<p>hi <strong>all</strong></p>",
          subject: "live",
        }),
        expect.objectContaining({ id: pm["id"], type: "private" }),
      ]),
    );
  });

  it("sends typing notifications and receives others'", async () => {
    const { hamlet, othello } = server.users;
    const h = await startTerminal(hamlet);
    const o = await startTerminal(othello);
    expect(await o.client.set_typing_status({ to: [hamlet.id], op: "start" })).toMatchObject({
      result: "success",
    });
    const events = await eventsUntil(h, "typing");
    expect(events).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          type: "typing",
          op: "start",
          sender: expect.objectContaining({ user_id: othello.id }),
        }),
      ]),
    );
  });

  it("reacts and un-reacts (toggle_message_reaction), with the events it reads", async () => {
    const { hamlet } = server.users;
    const stream = await streamWith([hamlet]);
    const h = await startTerminal(hamlet);
    const id = (await h.client.send_message({ type: "stream", to: stream, subject: "r", content: "react" }))[
      "id"
    ];
    const spec = {
      emoji_name: "thumbs_up",
      emoji_code: "1f44d",
      reaction_type: "unicode_emoji",
      message_id: String(id),
    };
    expect(await h.client.add_reaction(spec)).toMatchObject({ result: "success" });
    const added = await eventsUntil(h, "reaction");
    expect(added).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: "reaction", op: "add", emoji_code: "1f44d" })]),
    );
    expect(await h.client.remove_reaction(spec)).toMatchObject({ result: "success" });
    const removed = await eventsUntil(h, "reaction");
    expect(removed).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: "reaction", op: "remove" })]),
    );
  });

  it("stars and marks as read (update_message_flags), with the events it reads", async () => {
    const { hamlet, othello } = server.users;
    const stream = await streamWith([hamlet, othello]);
    const h = await startTerminal(hamlet);
    const o = await ZulipClient.connect({ site: server.url, email: othello.email, apiKey: othello.apiKey });
    const id = (await o.send_message({ type: "stream", to: stream, subject: "f", content: "star me" }))["id"];
    await eventsUntil(h, "message");
    expect(await h.client.update_message_flags({ flag: "starred", messages: [id], op: "add" })).toMatchObject(
      {
        result: "success",
      },
    );
    expect(await h.client.update_message_flags({ messages: [id], flag: "read", op: "add" })).toMatchObject({
      result: "success",
    });
    const events = (await eventsUntil(h, "update_message_flags")).filter(
      (e) => e["type"] === "update_message_flags",
    );
    const more = events.length < 2 ? await eventsUntil(h, "update_message_flags") : [];
    expect([...events, ...more]).toEqual([
      expect.objectContaining({ op: "add", flag: "starred", messages: [id], all: false }),
      expect.objectContaining({ op: "add", flag: "read", messages: [id], all: false }),
    ]);
  });

  it("edits a message's content and topic, and reads its raw content and edit history", async () => {
    const { hamlet } = server.users;
    const stream = await streamWith([hamlet]);
    const h = await startTerminal(hamlet);
    const id = (await h.client.send_message({ type: "stream", to: stream, subject: "old", content: "v1" }))[
      "id"
    ];
    // Model.update_stream_message: topic always, content when changed.
    const edited = await h.client.update_message({
      message_id: id,
      propagate_mode: "change_one",
      topic: "new",
      content: "v2",
    });
    expect(edited).toMatchObject({ result: "success" });
    const events = (await eventsUntil(h, "update_message")).filter((e) => e["type"] === "update_message");
    expect(events).toEqual([
      expect.objectContaining({
        message_id: id,
        subject: "new",
        orig_subject: "old",
        rendered_content: "<p>v2</p>",
      }),
    ]);
    // fetch_raw_message_content and fetch_message_history.
    expect(need(await h.client.get_raw_message(id), "raw_content")).toBe("v2");
    const history = need(await h.client.get_message_history(id), "message_history") as PyResult[];
    expect(history.map((e) => e["content"])).toEqual(["v1", "v2"]);
  });

  it("lists a stream's topics, newest first", async () => {
    const { hamlet } = server.users;
    const stream = await streamWith([hamlet]);
    const h = await startTerminal(hamlet);
    await h.client.send_message({ type: "stream", to: stream, subject: "first", content: "1" });
    await h.client.send_message({ type: "stream", to: stream, subject: "second", content: "2" });
    const streamId = (h.initial["subscriptions"] as PyResult[]).find((s) => s["name"] === stream)?.[
      "stream_id"
    ];
    const res = await h.client.get_stream_topics(streamId as number);
    expect((need(res, "topics") as PyResult[]).map((topic) => need(topic, "name"))).toEqual([
      "second",
      "first",
    ]);
  });

  it("mutes, pins and notifies a stream (update_subscription_settings), with the events it reads", async () => {
    const { hamlet } = server.users;
    const stream = await streamWith([hamlet]);
    const h = await startTerminal(hamlet);
    const streamId = (h.initial["subscriptions"] as PyResult[]).find((s) => s["name"] === stream)?.[
      "stream_id"
    ];
    for (const [property, value] of [
      ["is_muted", true],
      ["pin_to_top", true],
      ["desktop_notifications", true],
    ] as const) {
      const res = await h.client.update_subscription_settings([
        { stream_id: streamId as number, property, value },
      ]);
      expect(res).toMatchObject({ result: "success" });
    }
    const events: PyResult[] = [];
    for (let i = 0; i < 5 && events.filter((e) => e["type"] === "subscription").length < 4; i++)
      events.push(...(await pollEvents(h)));
    // Muting answers the legacy in_home_view property too, which is what zulip-terminal handles.
    expect(
      events.filter((e) => e["type"] === "subscription").map((e) => [e["property"], e["value"]]),
    ).toEqual(
      expect.arrayContaining([
        ["in_home_view", false],
        ["pin_to_top", true],
        ["desktop_notifications", true],
      ]),
    );
  });
});
