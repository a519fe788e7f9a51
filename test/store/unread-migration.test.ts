/**
 * Migration 022 (issue 16): a database with a user_messages row per recipient (what every message
 * had before migration 021) is converted to sparse rows + subscription intervals + watermarks, and
 * every API answer about flags and unread stays the same. Runs on PostgreSQL too
 * (TEST_STACK=postgres-redis).
 *
 * The old-style database is built from a scenario run through the API, then rewritten the way
 * migration 021 found old data: every stream message given a row per recipient (densify), every
 * subscription at 021's defaults (active_from 0, read_upto 0) and no closed interval.
 */
import { afterEach, beforeEach, expect, it } from "@jest/globals";
import { createStream, send, startMessagingServer, subscribe, unsubscribe } from "../http/message-helpers.js";
import type { MessagingServer } from "../http/message-helpers.js";
import type { TestUser } from "../helpers/test-server.js";
import { sparseUnreadData } from "../../src/store/migrations/022-sparse-unread-data.js";
import { ddlFor } from "../../src/store/migrations/types.js";
import { repoStore } from "../../src/store/repos.js";

let server: MessagingServer;

beforeEach(async () => {
  server = await startMessagingServer();
});
afterEach(async () => {
  await server.close();
});

async function answers(as: TestUser): Promise<unknown> {
  const get = async (narrow: unknown[]) =>
    (
      await server.api.get("/api/v1/messages", {
        as,
        params: { anchor: "oldest", num_before: 0, num_after: 100, narrow },
      })
    ).body;
  const register = (
    await server.api.post("/api/v1/register", {
      as,
      params: {
        fetch_event_types: ["message", "update_message_flags", "starred_messages"],
        event_types: ["message"],
      },
    })
  ).body;
  return {
    all: await get([]),
    unread: await get([["is", "unread"]]),
    starred: await get([["is", "starred"]]),
    mentioned: await get([["is", "mentioned"]]),
    denmark: await get([["stream", "Denmark"]]),
    secret: await get([["stream", "secret"]]),
    unreadMsgs: register.unread_msgs,
    starredMessages: register.starred_messages,
    maxMessageId: register.max_message_id,
  };
}

const flag = (as: TestUser, messages: number[], op: string, name: string) =>
  server.api.post("/api/v1/messages/flags", { as, params: { messages, op, flag: name } });

async function countRows(): Promise<number> {
  const r = await server.running.db.get<{ n: number }>("SELECT COUNT(*) AS n FROM user_messages");
  return Number(r?.n);
}

it("converts row-per-recipient data without changing any answer", async () => {
  const { hamlet, othello, iago, cordelia } = server.users;
  const db = server.running.db;
  await createStream(server, "Denmark", [hamlet, othello, iago]);
  const secret = await createStream(server, "secret", [hamlet, othello], { inviteOnly: true });
  const stream = (to: string, topic: string, content: string, as = hamlet) =>
    send(server, as, { type: "stream", to, topic, content });
  const m1 = await stream("Denmark", "a", "one");
  const m2 = await stream("Denmark", "b", "@**all** two");
  const m3 = await stream("Denmark", "a", "@**Othello, the Moor of Venice** three");
  const s1 = await stream("secret", "s", "secret one");
  await unsubscribe(server, secret, othello);
  const s2 = await stream("secret", "s", "secret two");
  await subscribe(server, secret, othello);
  const s3 = await stream("secret", "s", "secret three");
  const m4 = await stream("Denmark", "c", "from outside", cordelia);
  const p1 = await send(server, hamlet, {
    type: "private",
    to: JSON.stringify([othello.email]),
    content: "pm",
  });
  await flag(othello, [m1], "add", "starred");
  await flag(othello, [m2, s3], "add", "read");
  await server.api.post("/api/v1/mark_all_as_read", { as: iago });
  await flag(iago, [m1], "remove", "read");
  await flag(cordelia, [m2], "add", "starred");

  const users = [hamlet, othello, iago, cordelia];
  const expected = await Promise.all(users.map(answers));

  // Back to a row per recipient, as before migration 021.
  const ids = (await db.all<{ id: number }>("SELECT id FROM messages WHERE stream_id IS NOT NULL")).map((r) =>
    Number(r.id),
  );
  await repoStore(db).transaction((repos) => repos.recipientRows.densify(ids));
  await db.run("UPDATE subscriptions SET active_from = 0, read_upto = 0");
  await db.run("DELETE FROM subscription_intervals");
  const oldRows = await countRows();
  // Every stream message has a row per recipient: Denmark 3 × (hamlet, othello, iago), cordelia's
  // historical star, secret 2 × 2 + s2 for hamlet, m4 for its four, the private message 2.
  expect(oldRows).toBe(9 + 1 + 5 + 4 + 2);
  expect(await Promise.all(users.map(answers))).toEqual(expected);

  await db.transaction(async (tx) => {
    for (const statement of sparseUnreadData.up(ddlFor(db.dialect)).split(/;\s*\n/)) {
      if (statement.trim() !== "") await tx.exec(statement);
    }
  });
  expect(await Promise.all(users.map(answers))).toEqual(expected);
  // s2 (othello left and came back around it) keeps its rows; most others went.
  const sparse = await db.all<{ id: number }>(
    "SELECT id FROM messages WHERE recipient_flags IS NOT NULL ORDER BY id",
  );
  expect(sparse.map((r) => Number(r.id))).toEqual([m1, m2, m3, s1, s3, m4]);
  // Left: cordelia's two (a historical star, a message she sent unsubscribed), othello's star,
  // read wildcard, mention and read s3, iago's read m2…m4 above his watermark (his first unread
  // is m1), s2 for hamlet and the private message's two.
  expect(await countRows()).toBe(2 + 4 + 3 + 1 + 2);

  // What othello sees, written out: unread m1 (starred), m3 (mentioned), s1, m4 and the private message.
  const othelloAnswers = expected[1] as { unread: { messages: { id: number; flags: string[] }[] } };
  expect(othelloAnswers.unread.messages.map((m) => [m.id, m.flags])).toEqual([
    [m1, ["starred"]],
    [m3, ["mentioned"]],
    [s1, []],
    [m4, []],
    [p1, []],
  ]);
  // And the next message follows the new model.
  const m5 = await stream("Denmark", "a", "after");
  const after = (await answers(othello)) as { unread: { messages: { id: number }[] } };
  expect(after.unread.messages.map((m) => m.id)).toEqual([m1, m3, s1, m4, p1, m5]);
  expect(s2).toBeGreaterThan(s1);
});
