/**
 * Unread and flags stored without a row per recipient (issue 16): the edge cases of subscription
 * intervals and read watermarks, seen through the API (and, where the point is the storage, the
 * number of user_messages rows). Runs on PostgreSQL too (TEST_STACK=postgres-redis).
 */
import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import {
  createStream,
  recordEvents,
  send,
  startMessagingServer,
  subscribe,
  unsubscribe,
} from "./message-helpers.js";
import type { MessagingServer } from "./message-helpers.js";
import type { ParamValue } from "../helpers/client.js";
import type { TestUser } from "../helpers/test-server.js";
import { UsersRepo } from "../../src/store/users-repo.js";
import { repoStore } from "../../src/store/repos.js";

let server: MessagingServer;

beforeEach(async () => {
  server = await startMessagingServer();
});
afterEach(async () => {
  await server.close();
});

const ok = { result: "success", msg: "" };

const flagsEvent = (op: string, flag: string, messages: number[], all = false) => ({
  type: "update_message_flags",
  op,
  operation: op,
  flag,
  messages,
  all,
});

async function fetchIds(as: TestUser, narrow: unknown[]): Promise<[number, string[]][]> {
  const res = await server.api.get("/api/v1/messages", {
    as,
    params: { anchor: "oldest", num_before: 0, num_after: 100, narrow },
  });
  expect(res.status).toBe(200);
  return res.body.messages.map((m: { id: number; flags: string[] }) => [m.id, m.flags]);
}

async function unreadIds(as: TestUser): Promise<number[]> {
  return (await fetchIds(as, [["is", "unread"]])).map(([id]) => id);
}

/** register's unread_msgs of the user. */
async function unreadMsgs(as: TestUser): Promise<Record<string, unknown>> {
  const res = await server.api.post("/api/v1/register", {
    as,
    params: { fetch_event_types: ["message", "update_message_flags"], event_types: ["message"] },
  });
  expect(res.status).toBe(200);
  return res.body.unread_msgs;
}

async function flags(as: TestUser, messages: number[], op: string, flag: string) {
  const res = await server.api.post("/api/v1/messages/flags", {
    as,
    params: { messages, op, flag },
  });
  expect(res.status).toBe(200);
  return res.body;
}

async function rowsOf(user: TestUser): Promise<number> {
  const r = await server.running.db.get<{ n: number }>(
    "SELECT COUNT(*) AS n FROM user_messages WHERE user_id = ?",
    [user.id],
  );
  return Number(r?.n);
}

const streamMsg = (as: TestUser, to: string, topic: string, content: string) =>
  send(server, as, { type: "stream", to, topic, content });

describe("subscribe, unsubscribe, resubscribe", () => {
  it("a protected-history private stream shows what the user received while subscribed, unread kept", async () => {
    const { hamlet, othello } = server.users;
    const secret = await createStream(server, "secret", [hamlet, othello], { inviteOnly: true });
    const m1 = await streamMsg(hamlet, "secret", "t", "1");
    const m2 = await streamMsg(hamlet, "secret", "t", "2");
    await unsubscribe(server, secret, othello);
    const m3 = await streamMsg(hamlet, "secret", "t", "3");
    await subscribe(server, secret, othello);
    const m4 = await streamMsg(hamlet, "secret", "u", "4");

    expect(await fetchIds(othello, [["stream", "secret"]])).toEqual([
      [m1, []],
      [m2, []],
      [m4, []],
    ]);
    const missed = await server.api.get(`/api/v1/messages/${m3}`, { as: othello });
    expect(missed.status).toBe(400);
    expect(missed.body).toEqual({ result: "error", msg: "Invalid message(s)", code: "BAD_REQUEST" });
    expect(await unreadIds(othello)).toEqual([m1, m2, m4]);
    expect(await unreadMsgs(othello)).toEqual({
      count: 3,
      pms: [],
      streams: [
        { stream_id: secret, topic: "t", unread_message_ids: [m1, m2] },
        { stream_id: secret, topic: "u", unread_message_ids: [m4] },
      ],
      huddles: [],
      mentions: [],
      old_unreads_missing: false,
    });
    // The sender's own messages are read for him.
    expect(await fetchIds(hamlet, [["stream", "secret"]])).toEqual([
      [m1, ["read"]],
      [m2, ["read"]],
      [m3, ["read"]],
      [m4, ["read"]],
    ]);
  });

  it("after unsubscribing, received messages stay the user's, later ones are history (read, historical)", async () => {
    const { hamlet, othello } = server.users;
    const denmark = await createStream(server, "Denmark", [hamlet, othello]);
    const m1 = await streamMsg(hamlet, "Denmark", "t", "1");
    await unsubscribe(server, denmark, othello);
    const m2 = await streamMsg(hamlet, "Denmark", "t", "2");
    expect(await unreadIds(othello)).toEqual([m1]);
    expect(await fetchIds(othello, [["stream", "Denmark"]])).toEqual([
      [m1, []],
      [m2, ["read", "historical"]],
    ]);
    // Marking the stream read reaches the message received before unsubscribing.
    const log = recordEvents(server);
    const res = await server.api.post("/api/v1/mark_stream_as_read", {
      as: othello,
      params: { stream_id: denmark },
    });
    expect(res.body).toEqual(ok);
    expect(log).toEqual([{ event: flagsEvent("add", "read", [m1]), recipients: [othello.id] }]);
    expect(await unreadIds(othello)).toEqual([]);
  });

  it("resubscribing with no message in between continues the interval", async () => {
    const { hamlet, othello } = server.users;
    const secret = await createStream(server, "secret", [hamlet, othello], { inviteOnly: true });
    const m1 = await streamMsg(hamlet, "secret", "t", "1");
    await unsubscribe(server, secret, othello);
    await subscribe(server, secret, othello);
    const m2 = await streamMsg(hamlet, "secret", "t", "2");
    expect(await unreadIds(othello)).toEqual([m1, m2]);
    const intervals = await server.running.db.all<{ from_id: number; to_id: number }>(
      "SELECT from_id, to_id FROM subscription_intervals WHERE user_id = ?",
      [othello.id],
    );
    expect(intervals).toEqual([]);
  });

  it("a user subscribed later does not receive earlier messages of a protected stream", async () => {
    const { hamlet, othello } = server.users;
    const secret = await createStream(server, "secret", [hamlet], { inviteOnly: true });
    await streamMsg(hamlet, "secret", "t", "before");
    await subscribe(server, secret, othello);
    const m2 = await streamMsg(hamlet, "secret", "t", "after");
    expect(await fetchIds(othello, [["stream", "secret"]])).toEqual([[m2, []]]);
    expect(await fetchIds(othello, [])).toEqual([[m2, []]]);
  });
});

describe("watermarks and exception rows", () => {
  it("mark as unread below the watermark, then read again: no row left", async () => {
    const { hamlet, othello, iago } = server.users;
    const denmark = await createStream(server, "Denmark", [hamlet, othello, iago]);
    const ids: number[] = [];
    for (let i = 0; i < 4; i++) ids.push(await streamMsg(hamlet, "Denmark", "t", `m${i}`));
    await server.api.post("/api/v1/mark_stream_as_read", { as: othello, params: { stream_id: denmark } });
    expect(await unreadIds(othello)).toEqual([]);
    expect(await rowsOf(othello)).toBe(0);

    const log = recordEvents(server);
    expect(await flags(othello, [ids[1]!], "remove", "read")).toEqual({ ...ok, messages: [ids[1]] });
    // Marking unread carries the message's conversation (Zulip's message_details, level 121).
    const details = { [String(ids[1])]: { type: "stream", stream_id: denmark, topic: "t" } };
    expect(log).toEqual([
      {
        event: { ...flagsEvent("remove", "read", [ids[1]!]), message_details: details },
        recipients: [othello.id],
      },
    ]);
    expect(await unreadIds(othello)).toEqual([ids[1]]);
    expect(await fetchIds(othello, [["stream", "Denmark"]])).toEqual([
      [ids[0], ["read"]],
      [ids[1], []],
      [ids[2], ["read"]],
      [ids[3], ["read"]],
    ]);
    expect((await unreadMsgs(othello))["count"]).toBe(1);
    // iago is untouched.
    expect(await unreadIds(iago)).toEqual(ids);

    expect(await flags(othello, [ids[1]!], "add", "read")).toEqual({ ...ok, messages: [ids[1]] });
    expect(await unreadIds(othello)).toEqual([]);
    expect(await rowsOf(othello)).toBe(0);
  });

  it("mark read by ids above the watermark; the watermark follows once the oldest are read", async () => {
    const { hamlet, othello } = server.users;
    await createStream(server, "Denmark", [hamlet, othello]);
    const ids: number[] = [];
    for (let i = 0; i < 5; i++)
      ids.push(await streamMsg(hamlet, "Denmark", i % 2 === 0 ? "a" : "b", `m${i}`));
    // Reading 2 and 4 (above the first unread): one row each.
    expect(await flags(othello, [ids[1]!, ids[3]!], "add", "read")).toEqual({
      ...ok,
      messages: [ids[1], ids[3]],
    });
    expect(await unreadIds(othello)).toEqual([ids[0], ids[2], ids[4]]);
    expect(await rowsOf(othello)).toBe(2);
    // Reading 1 and 3: the watermark moves past 1…4, the rows go.
    expect(await flags(othello, [ids[0]!, ids[2]!], "add", "read")).toEqual({
      ...ok,
      messages: [ids[0], ids[2]],
    });
    expect(await unreadIds(othello)).toEqual([ids[4]]);
    expect(await rowsOf(othello)).toBe(0);
    // Already read: nothing changes, no event (the answer echoes the ids asked for, as Zulip's).
    const log = recordEvents(server);
    expect(await flags(othello, [ids[0]!], "add", "read")).toEqual({ ...ok, messages: [ids[0]] });
    expect(log).toEqual([]);
  });

  it("mark topic as read writes only the topic; starring keeps a row through mark all as read", async () => {
    const { hamlet, othello } = server.users;
    await createStream(server, "Denmark", [hamlet, othello]);
    const a1 = await streamMsg(hamlet, "Denmark", "a", "1");
    const b1 = await streamMsg(hamlet, "Denmark", "b", "2");
    const a2 = await streamMsg(hamlet, "Denmark", "A", "3");
    const denmark = (await server.running.services.streams.byName("Denmark"))!.id;
    const log = recordEvents(server);
    await server.api.post("/api/v1/mark_topic_as_read", {
      as: othello,
      params: { stream_id: denmark, topic_name: "a" },
    });
    expect(log).toEqual([{ event: flagsEvent("add", "read", [a1, a2]), recipients: [othello.id] }]);
    expect(await unreadIds(othello)).toEqual([b1]);
    await flags(othello, [b1], "add", "starred");
    expect(await fetchIds(othello, [["is", "starred"]])).toEqual([[b1, ["starred"]]]);
    await server.api.post("/api/v1/mark_all_as_read", { as: othello });
    expect(await unreadIds(othello)).toEqual([]);
    expect(await fetchIds(othello, [])).toEqual([
      [a1, ["read"]],
      [b1, ["read", "starred"]],
      [a2, ["read"]],
    ]);
    expect(await rowsOf(othello)).toBe(1);
    // Unstarring leaves the derived flags: the row goes.
    await flags(othello, [b1], "remove", "starred");
    expect(await rowsOf(othello)).toBe(0);
  });

  it("mentions and wildcard mentions: flags, unread mentions, is:mentioned", async () => {
    const { hamlet, othello, iago } = server.users;
    await createStream(server, "Denmark", [hamlet, othello, iago]);
    const m1 = await streamMsg(hamlet, "Denmark", "t", "@**Othello, the Moor of Venice** hi");
    const m2 = await streamMsg(hamlet, "Denmark", "t", "@**all** hi");
    const m3 = await streamMsg(hamlet, "Denmark", "t", "plain");
    expect(await fetchIds(othello, [])).toEqual([
      [m1, ["mentioned"]],
      [m2, ["wildcard_mentioned"]],
      [m3, []],
    ]);
    expect(await fetchIds(iago, [["is", "mentioned"]])).toEqual([[m2, ["wildcard_mentioned"]]]);
    expect((await unreadMsgs(othello))["mentions"]).toEqual([m1, m2]);
    expect(await fetchIds(hamlet, [])).toEqual([
      [m1, ["read"]],
      [m2, ["read", "wildcard_mentioned"]],
      [m3, ["read"]],
    ]);
  });

  it("a sender not subscribed to the stream gets the message, read", async () => {
    const { iago, othello } = server.users;
    await createStream(server, "Denmark", [othello]);
    const m1 = await streamMsg(iago, "Denmark", "t", "from outside");
    expect(await fetchIds(iago, [["is", "unread"]])).toEqual([]);
    expect(await fetchIds(iago, [["sender", iago.email]])).toEqual([[m1, ["read"]]]);
    expect(await unreadIds(othello)).toEqual([m1]);
  });
});

describe("deactivated users and edits", () => {
  it("a deactivated subscriber does not receive what is sent meanwhile", async () => {
    const { hamlet, cordelia, iago } = server.users;
    await createStream(server, "Denmark", [hamlet, cordelia]);
    const m0 = await streamMsg(hamlet, "Denmark", "t", "before");
    const off = await server.api.delete(`/api/v1/users/${cordelia.id}`, { as: iago });
    expect(off.body).toEqual(ok);
    const m1 = await streamMsg(hamlet, "Denmark", "t", "while away");
    await new UsersRepo(server.running.db).setActive(cordelia.id, true);
    const m2 = await streamMsg(hamlet, "Denmark", "t", "back");
    expect(await fetchIds(cordelia, [])).toEqual([
      [m0, []],
      [m2, []],
    ]);
    expect(await unreadIds(cordelia)).toEqual([m0, m2]);
    // Public history still shows it, as a message she never received.
    const one = await server.api.get(`/api/v1/messages/${m1}`, { as: cordelia });
    expect(one.body.message.flags).toEqual(["read", "historical"]);
    // Starring it gives her a row of her own in place of the "not received" one.
    expect(await flags(cordelia, [m1], "add", "starred")).toEqual({ ...ok, messages: [m1] });
    const starred = await server.api.get(`/api/v1/messages/${m1}`, { as: cordelia });
    expect(starred.body.message.flags).toEqual(["read", "starred", "historical"]);
  });

  it("an edit adding a wildcard mention flags every recipient, without a row each", async () => {
    const { hamlet, othello, iago } = server.users;
    await createStream(server, "Denmark", [hamlet, othello, iago]);
    const m1 = await streamMsg(hamlet, "Denmark", "t", "plain");
    const res = await server.api.patch(`/api/v1/messages/${m1}`, {
      as: hamlet,
      params: { content: "now @**all**" },
    });
    expect(res.body).toEqual(ok);
    expect(await fetchIds(othello, [])).toEqual([[m1, ["wildcard_mentioned"]]]);
    expect(await fetchIds(iago, [])).toEqual([[m1, ["wildcard_mentioned"]]]);
    expect(await fetchIds(hamlet, [])).toEqual([[m1, ["read", "wildcard_mentioned"]]]);
    expect((await unreadMsgs(othello))["mentions"]).toEqual([m1]);
    expect(await rowsOf(othello)).toBe(0);
    const back = await server.api.patch(`/api/v1/messages/${m1}`, {
      as: hamlet,
      params: { content: "plain again" },
    });
    expect(back.body).toEqual(ok);
    expect(await fetchIds(othello, [])).toEqual([[m1, []]]);
  });
});

describe("a user who receives little of the traffic", () => {
  it("still gets their newest and first unread messages past 5,000 others'", async () => {
    const { hamlet, othello, iago } = server.users;
    await createStream(server, "quiet", [hamlet, othello]);
    const busy = await createStream(server, "busy", [iago]);
    const q1 = await streamMsg(hamlet, "quiet", "t", "1");
    const p1 = await send(server, hamlet, {
      type: "private",
      to: JSON.stringify([othello.email]),
      content: "pm",
    });
    const q2 = await streamMsg(hamlet, "quiet", "t", "2");
    await server.api.post("/api/v1/messages/flags", {
      as: othello,
      params: { messages: [q1], op: "add", flag: "read" },
    });
    await repoStore(server.running.db).transaction(async ({ messages }) => {
      const recipientId = await messages.recipientId(2, String(busy));
      for (let i = 0; i < 6_000; i++) {
        await messages.insertMessage({
          senderId: iago.id,
          recipientId,
          streamId: busy,
          topic: "noise",
          pmKey: null,
          content: "x",
          renderedContent: "<p>x</p>",
          client: "test",
          dateSent: 0,
          isMeMessage: false,
          has: { link: false, image: false, attachment: false },
          recipientFlags: 0,
        });
      }
    });
    const newest = await server.api.get("/api/v1/messages", {
      as: othello,
      params: { anchor: "newest", num_before: 10, num_after: 0, narrow: [] },
    });
    expect(newest.body.messages.map((m: { id: number; flags: string[] }) => [m.id, m.flags])).toEqual([
      [q1, ["read"]],
      [p1, []],
      [q2, []],
    ]);
    expect(newest.body.found_oldest).toBe(true);
    const first = await server.api.get("/api/v1/messages", {
      as: othello,
      params: { anchor: "first_unread", num_before: 0, num_after: 10, narrow: [] },
    });
    expect(first.body.anchor).toBe(p1);
    expect(first.body.messages.map((m: { id: number }) => m.id)).toEqual([p1, q2]);
  });
});

describe("moves and deletes", () => {
  it("moved messages keep their recipients and flags; the new stream's subscribers get them read", async () => {
    const { hamlet, othello, iago, cordelia } = server.users;
    const denmark = await createStream(server, "Denmark", [hamlet, othello, iago]);
    await createStream(server, "Verona", [iago, cordelia]);
    const m1 = await streamMsg(hamlet, "Denmark", "t", "1");
    const m2 = await streamMsg(hamlet, "Denmark", "t", "2");
    await flags(othello, [m2], "add", "starred");
    const verona = (await server.running.services.streams.byName("Verona"))!.id;
    const res = await server.api.patch(`/api/v1/messages/${m1}`, {
      as: iago,
      params: { stream_id: verona, propagate_mode: "change_all", send_notification_to_new_thread: false },
    });
    expect(res.body).toEqual(ok);
    // othello still has both, unread, in Verona now.
    expect(
      await fetchIds(othello, [
        ["stream", "Verona"],
        ["topic", "t"],
      ]),
    ).toEqual([
      [m1, []],
      [m2, ["starred"]],
    ]);
    expect((await unreadMsgs(othello))["streams"]).toEqual([
      { stream_id: verona, topic: "t", unread_message_ids: [m1, m2] },
    ]);
    // cordelia, subscribed to Verona only, gets them as read.
    expect(await fetchIds(cordelia, [["stream", "Verona"]])).toEqual([
      [m1, ["read"]],
      [m2, ["read"]],
    ]);
    expect(await unreadIds(cordelia)).toEqual([]);
    // othello leaves Denmark: the moved messages do not follow Denmark's intervals any more.
    await unsubscribe(server, denmark, othello);
    expect(await unreadIds(othello)).toEqual([m1, m2]);
  });

  it("deleting a message removes it from unread and starred, rows included", async () => {
    const { hamlet, othello, iago } = server.users;
    await createStream(server, "Denmark", [hamlet, othello]);
    const m1 = await streamMsg(hamlet, "Denmark", "t", "1");
    const m2 = await streamMsg(hamlet, "Denmark", "t", "2");
    await flags(othello, [m1], "add", "starred");
    expect(await rowsOf(othello)).toBe(1);
    const res = await server.api.delete(`/api/v1/messages/${m1}`, { as: iago });
    expect(res.body).toEqual(ok);
    expect(await unreadIds(othello)).toEqual([m2]);
    expect(await fetchIds(othello, [["is", "starred"]])).toEqual([]);
    expect(await rowsOf(othello)).toBe(0);
    expect((await unreadMsgs(othello))["count"]).toBe(1);
  });
});

describe("concurrent flag changes of one user", () => {
  // Each change writes the user's rows, moves the stream's watermark and drops redundant rows. Two
  // of them at once once took their row and subscription locks in opposite orders and PostgreSQL
  // aborted one as a deadlock (a 500 for the client).
  it("all succeed, and the result is what they asked for together", async () => {
    const { hamlet, othello } = server.users;
    const denmark = await createStream(server, "Denmark", [hamlet, othello]);
    const ids: number[] = [];
    for (let i = 0; i < 60; i++) ids.push(await streamMsg(hamlet, "Denmark", `t${i % 4}`, `m${i}`));
    // Read out of order: rows above the watermark, which each later change may make redundant.
    const odd = ids.filter((_, i) => i % 2 === 1);
    expect(await flags(othello, odd, "add", "read")).toEqual({ ...ok, messages: odd });

    const post = (url: string, params: Record<string, ParamValue>) =>
      server.api.post(url, { as: othello, params });
    const requests = ids.flatMap((id, i) => [
      post("/api/v1/messages/flags", { messages: [id], op: "add", flag: "read" }),
      post("/api/v1/messages/flags", { messages: [id], op: "add", flag: "starred" }),
      ...(i % 10 === 0
        ? [post("/api/v1/mark_topic_as_read", { stream_id: denmark, topic_name: `t${i % 4}` })]
        : []),
    ]);
    const answers = await Promise.all(requests);
    expect(answers.filter((a) => a.status !== 200).map((a) => a.body)).toEqual([]);
    expect(await unreadIds(othello)).toEqual([]);
    expect((await fetchIds(othello, [["is", "starred"]])).map(([id]) => id)).toEqual(ids);
  });
});

describe("an edit while a recipient changes flags", () => {
  // An edit rewrites each recipient's mention bits. Read and written back whole, it overwrote a
  // star that the recipient set in between; both now change only their own bits.
  it("keeps the recipient's stars and reads, and the edit's mentions", async () => {
    const { hamlet, othello } = server.users;
    await createStream(server, "Denmark", [hamlet, othello]);
    const ids: number[] = [];
    for (let i = 0; i < 12; i++)
      ids.push(await streamMsg(hamlet, "Denmark", "t", `m${i} @**Othello, the Moor of Venice**`));

    const edits = (async () => {
      for (let round = 0; round < 4; round++) {
        for (const id of ids) {
          const mention = round % 2 === 1; // the last round mentions him again
          const res = await server.api.patch(`/api/v1/messages/${id}`, {
            as: hamlet,
            params: { content: mention ? `e${round} @**Othello, the Moor of Venice**` : `e${round}` },
          });
          expect(res.status).toBe(200);
        }
      }
    })();
    // Meanwhile he stars and unstars them, round by round, ending starred; and reads them.
    const stars = (async () => {
      for (let round = 0; round < 4; round++) {
        for (const id of ids) {
          const op = round % 2 === 1 ? "add" : "remove";
          const res = await server.api.post("/api/v1/messages/flags", {
            as: othello,
            params: { messages: [id], op, flag: "starred" },
          });
          expect(res.status).toBe(200);
        }
      }
    })();
    const reads = ids.map((id) =>
      server.api.post("/api/v1/messages/flags", {
        as: othello,
        params: { messages: [id], op: "add", flag: "read" },
      }),
    );
    const answers = await Promise.all(reads);
    await Promise.all([edits, stars]);
    expect(answers.filter((a) => a.status !== 200).map((a) => a.body)).toEqual([]);
    expect(await fetchIds(othello, [["stream", "Denmark"]])).toEqual(
      ids.map((id) => [id, ["read", "starred", "mentioned"]]),
    );
  });
});

describe("a move while someone who gains the messages stars them", () => {
  // Moving a message into a stream gives its subscribers who had no row a row marked read. Written
  // as "insert, or on a conflict overwrite", that replaced a star the subscriber had set meanwhile
  // (starring a message of a public stream one did not receive writes a row too).
  it("keeps every star, and every move succeeds", async () => {
    const { iago, hamlet, othello } = server.users;
    await createStream(server, "Denmark", [hamlet]);
    const elsinore = await createStream(server, "Elsinore", [iago, othello]);
    const ids: number[] = [];
    for (let i = 0; i < 40; i++) ids.push(await streamMsg(hamlet, "Denmark", `t${i}`, `m${i}`));

    const answers = await Promise.all(
      ids.flatMap((id) => [
        server.api.patch(`/api/v1/messages/${id}`, {
          as: iago,
          params: { stream_id: elsinore, propagate_mode: "change_one" },
        }),
        server.api.post("/api/v1/messages/flags", {
          as: othello,
          params: { messages: [id], op: "add", flag: "starred" },
        }),
      ]),
    );
    expect(answers.filter((a) => a.status !== 200).map((a) => a.body)).toEqual([]);
    expect((await fetchIds(othello, [["is", "starred"]])).map(([id]) => id)).toEqual(ids);
  });
});
