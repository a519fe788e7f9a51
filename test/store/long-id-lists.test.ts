/**
 * Statements over lists that grow with the data (a topic's messages, a bot's keys) bind the whole
 * list as one JSON parameter: one bound parameter per item broke past SQLite's 32,766 (PostgreSQL's
 * 65,535), and moving a topic of 40,000 messages to another stream answered 500. Runs on the stack
 * TEST_STACK names.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { AttachmentsRepo } from "../../src/store/attachments-repo.js";
import { MessagesRepo } from "../../src/store/messages-repo.js";
import { StreamsRepo } from "../../src/store/streams-repo.js";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer } from "../helpers/test-server.js";

const LONG = 70_000;

let t: TestServer;
let streamId: number;
let otherStreamId: number;
let messageId: number;

beforeAll(async () => {
  t = await startTestServer();
  const { api, users } = t;
  for (const name of ["here", "there"]) {
    await api.post("/api/v1/users/me/subscriptions", {
      as: users.iago,
      params: { subscriptions: [{ name }], principals: [users.iago.id, users.hamlet.id] },
    });
  }
  const idOf = async (stream: string) =>
    (await api.get("/api/v1/get_stream_id", { as: users.iago, params: { stream } })).body.stream_id as number;
  streamId = await idOf("here");
  otherStreamId = await idOf("there");
  const sent = await api.post("/api/v1/messages", {
    as: users.iago,
    params: { type: "stream", to: "here", topic: "t", content: "hello" },
  });
  messageId = sent.body.id as number;
});
afterAll(() => t.close());

/** `LONG` ids, `id` among them (the others name nothing). */
function longListWith(id: number): number[] {
  return [...Array.from({ length: LONG - 1 }, (_, i) => 1_000_000 + i), id];
}

describe(`lists of ${LONG.toLocaleString("en")} ids or keys`, () => {
  it("reads streams and their subscribers by a long list of ids", async () => {
    const repo = new StreamsRepo(t.running.db);
    expect((await repo.byIds(longListWith(streamId))).map((s) => s.name)).toEqual(["here"]);
    const subscribers = await repo.subscriberIdsOf(longListWith(streamId));
    expect(subscribers.get(streamId)).toEqual([t.users.iago.id, t.users.hamlet.id]);
  });

  it("reads attachments' messages by a long list of ids", async () => {
    expect((await new AttachmentsRepo(t.running.db).messagesOf(longListWith(1))).size).toBe(0);
  });

  it("moves messages and deletes users' rows by long lists of ids", async () => {
    const repo = new MessagesRepo(t.running.db);
    const recipientId = await repo.recipientId(2, String(otherStreamId));
    await repo.moveToStream(longListWith(messageId), otherStreamId, recipientId, "moved");
    expect(await repo.byId(messageId)).toMatchObject({ streamId: otherStreamId, topic: "moved" });

    // A direct message has a row for each participant.
    const direct = await t.api.post("/api/v1/messages", {
      as: t.users.iago,
      params: { type: "private", to: JSON.stringify([t.users.hamlet.id]), content: "psst" },
    });
    const directId = direct.body.id as number;
    const rows = () =>
      t.running.db.all<{ user_id: number }>(
        "SELECT user_id FROM user_messages WHERE message_id = ? ORDER BY user_id",
        [directId],
      );
    const before = (await rows()).map((r) => Number(r.user_id));
    expect(before).toContain(t.users.hamlet.id);
    await repo.deleteRows(longListWith(directId), longListWith(t.users.hamlet.id));
    expect((await rows()).map((r) => Number(r.user_id))).toEqual(
      before.filter((id) => id !== t.users.hamlet.id),
    );
  });

  it("stores and removes a bot's storage by a long list of keys over the API", async () => {
    const { users } = t.running.services;
    const created = await users.createBot((await users.byId(t.users.iago.id))!, {
      fullName: "Keeper",
      shortName: "keeper",
      botType: 1,
    });
    const bot = {
      id: created.bot.id,
      email: created.bot.email,
      apiKey: created.bot.apiKey,
      fullName: "Keeper",
    };
    const keys = Array.from({ length: LONG }, (_, i) => `k${i}`);
    const stored = await t.api.put("/api/v1/bot_storage", {
      as: bot,
      params: { storage: JSON.stringify(Object.fromEntries(keys.map((k) => [k, "v"]))) },
    });
    expect([stored.status, stored.body]).toEqual([200, { result: "success", msg: "" }]);
    const removed = await t.api.delete("/api/v1/bot_storage", { as: bot, params: { keys: keys.slice(1) } });
    expect([removed.status, removed.body]).toEqual([200, { result: "success", msg: "" }]);
    expect((await t.api.get("/api/v1/bot_storage", { as: bot })).body).toEqual({
      result: "success",
      msg: "",
      storage: { k0: "v" },
    });
  });
});
