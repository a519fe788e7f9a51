import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { drainEvents, registerQueue } from "../helpers/events.js";
import type { TestUser } from "../helpers/test-server.js";
import { T0, createStream, startMessagingServer } from "./message-helpers.js";
import type { MessagingServer } from "./message-helpers.js";

// Seeded users: iago (1, owner), hamlet (3), othello (4), cordelia (5), polonius (6, guest).
let server: MessagingServer;
let denmark: number;
let secret: number;
beforeEach(async () => {
  server = await startMessagingServer();
  const { users } = server;
  denmark = await createStream(server, "Denmark", [users.hamlet, users.othello]);
  secret = await createStream(server, "secret", [users.othello], { inviteOnly: true });
});
afterEach(async () => {
  await server.close();
});

const ok = { result: "success", msg: "" };
const error = (msg: string) => ({ result: "error", msg, code: "BAD_REQUEST" });

const create = (as: TestUser, drafts: unknown) =>
  server.api.post("/api/v1/drafts", { as, params: { drafts: JSON.stringify(drafts) } });

describe("drafts", () => {
  it("creates, lists (most recently edited first), edits and deletes drafts, with events and register", async () => {
    const { api, users } = server;
    const q = await registerQueue(server, users.hamlet, { event_types: ["drafts"] });
    const other = await registerQueue(server, users.othello, { event_types: ["drafts"] });
    const created = await create(users.hamlet, [
      { type: "stream", to: [denmark], topic: "castle", content: "To be", timestamp: 1595479019 },
      {
        type: "private",
        to: [users.othello.id, users.hamlet.id, users.cordelia.id],
        topic: "x",
        content: "or not",
      },
      { type: "private", to: [users.hamlet.id], topic: "", content: "note to self", timestamp: 1595479020.7 },
      { type: "private", to: [], topic: "", content: "unaddressed", timestamp: 1595479000 },
    ]);
    expect(created.body).toEqual({ ...ok, ids: [1, 2, 3, 4] });
    const d1 = {
      id: 1,
      type: "stream",
      to: [denmark],
      topic: "castle",
      content: "To be",
      timestamp: 1595479019,
    };
    // A direct message's draft lists the other participants; the topic is dropped.
    const d2 = { id: 2, type: "private", to: [4, 5], topic: "", content: "or not", timestamp: T0 };
    const d3 = { id: 3, type: "private", to: [3], topic: "", content: "note to self", timestamp: 1595479020 };
    // Zulip stores no recipient for a direct message to nobody: it comes back unaddressed.
    const d4 = { id: 4, type: "", to: [], topic: "", content: "unaddressed", timestamp: 1595479000 };
    expect(await drainEvents(q)).toEqual([{ id: 0, type: "drafts", op: "add", drafts: [d1, d2, d3, d4] }]);
    expect(await drainEvents(other)).toEqual([]);

    expect((await api.get("/api/v1/drafts", { as: users.hamlet })).body).toEqual({
      ...ok,
      count: 4,
      drafts: [d2, d3, d1, d4],
    });
    expect((await api.get("/api/v1/drafts", { as: users.othello })).body).toEqual({
      ...ok,
      count: 0,
      drafts: [],
    });

    const edited = {
      type: "stream",
      to: [denmark],
      topic: "ramparts",
      content: "Edited",
      timestamp: 1600000000,
    };
    expect(
      (await api.patch("/api/v1/drafts/4", { as: users.hamlet, params: { draft: JSON.stringify(edited) } }))
        .body,
    ).toEqual(ok);
    expect((await api.delete("/api/v1/drafts/2", { as: users.hamlet })).body).toEqual(ok);
    expect(await drainEvents(q)).toEqual([
      { id: 1, type: "drafts", op: "update", draft: { id: 4, ...edited } },
      { id: 2, type: "drafts", op: "remove", draft_id: 2 },
    ]);
    const reg = await registerQueue(server, users.hamlet, { fetch_event_types: ["drafts"] });
    expect(reg.register.drafts).toEqual([{ id: 4, ...edited }, d3, d1]);
  });

  it("answers Zulip's errors for a bad draft, a stream or user it may not name, and another's draft", async () => {
    const { api, users } = server;
    const draft = { type: "stream", to: [denmark], topic: "castle", content: "hi" };
    const cases: [unknown, string][] = [
      [[{ ...draft, to: [denmark, secret] }], "Must specify exactly 1 stream ID for stream messages"],
      [[{ ...draft, to: [] }], "Must specify exactly 1 stream ID for stream messages"],
      [[{ ...draft, to: [secret] }], "Invalid stream ID"],
      [[{ ...draft, to: [999] }], "Invalid stream ID"],
      [[{ ...draft, topic: "a\u0000b" }], "Topic must not contain null bytes"],
      [[{ type: "private", to: [999], topic: "", content: "hi" }], "Invalid user ID 999"],
      [[{ ...draft, timestamp: -1 }], "Timestamp must not be negative."],
      [[{ ...draft, content: "  " }], 'drafts[0]["content"] cannot be blank.'],
      [[draft, { ...draft, type: "huddle" }], 'Invalid drafts[1]["type"]'],
      [[{ type: "stream", to: [denmark], content: "hi" }], "topic key is missing from drafts[0]"],
      [[{ ...draft, to: denmark }], 'drafts[0]["to"] is not a list'],
      [[{ ...draft, to: ["x"] }], 'drafts[0]["to"][0] is not an integer'],
      [[{ ...draft, timestamp: "now" }], 'drafts[0]["timestamp"] is not an allowed_type'],
      [[{ ...draft, id: 5 }], "Unexpected arguments: id"],
      [draft, "drafts is not a list"],
    ];
    for (const [drafts, msg] of cases) {
      expect([drafts, (await create(users.hamlet, drafts)).body]).toEqual([drafts, error(msg)]);
    }
    expect((await api.post("/api/v1/drafts", { as: users.hamlet })).body).toEqual({
      result: "error",
      msg: "Missing 'drafts' argument",
      code: "REQUEST_VARIABLE_MISSING",
      var_name: "drafts",
    });
    // One bad draft stores none of them.
    expect((await api.get("/api/v1/drafts", { as: users.hamlet })).body).toEqual({
      ...ok,
      count: 0,
      drafts: [],
    });

    // A draft is its author's only: others get "Draft does not exist" (404).
    await create(users.othello, [{ ...draft, to: [secret] }]);
    const patch = await api.patch("/api/v1/drafts/1", {
      as: users.hamlet,
      params: { draft: JSON.stringify(draft) },
    });
    expect([patch.status, patch.body]).toEqual([404, error("Draft does not exist")]);
    const del = await api.delete("/api/v1/drafts/1", { as: users.hamlet });
    expect([del.status, del.body]).toEqual([404, error("Draft does not exist")]);
    expect((await api.patch("/api/v1/drafts/1", { as: users.othello })).body).toEqual({
      result: "error",
      msg: "Missing 'draft' argument",
      code: "REQUEST_VARIABLE_MISSING",
      var_name: "draft",
    });
    expect((await api.get("/api/v1/drafts", { as: users.othello })).body).toEqual({
      ...ok,
      count: 1,
      drafts: [{ id: 1, type: "stream", to: [secret], topic: "castle", content: "hi", timestamp: T0 }],
    });
  });
});
