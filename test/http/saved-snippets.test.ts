import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { drainEvents, registerQueue } from "../helpers/events.js";
import { T0, startMessagingServer } from "./message-helpers.js";
import type { MessagingServer } from "./message-helpers.js";

// Seeded users: iago (1, owner), hamlet (3), othello (4), cordelia (5), polonius (6, guest).
let server: MessagingServer;
beforeEach(async () => {
  server = await startMessagingServer();
});
afterEach(async () => {
  await server.close();
});

const ok = { result: "success", msg: "" };
const error = (msg: string) => ({ result: "error", msg, code: "BAD_REQUEST" });

describe("saved snippets (Zulip feature levels 297, 368)", () => {
  it("creates, lists, edits and deletes snippets, with events to the owner only and register", async () => {
    const { api, users, clock } = server;
    const q = await registerQueue(server, users.hamlet, { event_types: ["saved_snippets"] });
    const other = await registerQueue(server, users.othello, { event_types: ["saved_snippets"] });

    const first = await api.post("/api/v1/saved_snippets", {
      as: users.hamlet,
      params: { title: "  Welcome ", content: "\nWelcome to the organization.\n" },
    });
    expect(first.body).toEqual({ ...ok, saved_snippet_id: 1 });
    clock.advance(60_000);
    const second = await api.post("/api/v1/saved_snippets", {
      as: users.hamlet,
      params: { title: "Bye", content: "See you **soon**" },
    });
    expect(second.body).toEqual({ ...ok, saved_snippet_id: 2 });
    // Title and content are stored stripped, as Zulip does.
    const s1 = { id: 1, title: "Welcome", content: "Welcome to the organization.", date_created: T0 };
    const s2 = { id: 2, title: "Bye", content: "See you **soon**", date_created: T0 + 60 };
    expect(await drainEvents(q)).toEqual([
      { id: 0, type: "saved_snippets", op: "add", saved_snippet: s1 },
      { id: 1, type: "saved_snippets", op: "add", saved_snippet: s2 },
    ]);
    expect((await api.get("/api/v1/saved_snippets", { as: users.hamlet })).body).toEqual({
      ...ok,
      saved_snippets: [s1, s2],
    });
    expect((await api.get("/api/v1/saved_snippets", { as: users.othello })).body).toEqual({
      ...ok,
      saved_snippets: [],
    });

    // PATCH changes what it is given; with neither field it answers success and sends no event.
    const edit = (id: number, params: Record<string, string>) =>
      api.patch(`/api/v1/saved_snippets/${id}`, { as: users.hamlet, params });
    expect((await edit(1, { title: " Hello " })).body).toEqual(ok);
    expect((await edit(2, { content: "Later" })).body).toEqual(ok);
    expect((await edit(2, {})).body).toEqual(ok);
    expect((await api.delete("/api/v1/saved_snippets/1", { as: users.hamlet })).body).toEqual(ok);
    expect(await drainEvents(q)).toEqual([
      { id: 2, type: "saved_snippets", op: "update", saved_snippet: { ...s1, title: "Hello" } },
      { id: 3, type: "saved_snippets", op: "update", saved_snippet: { ...s2, content: "Later" } },
      { id: 4, type: "saved_snippets", op: "remove", saved_snippet_id: 1 },
    ]);
    expect(await drainEvents(other)).toEqual([]);

    const reg = await registerQueue(server, users.hamlet, { fetch_event_types: ["saved_snippets"] });
    expect(reg.register.saved_snippets).toEqual([{ ...s2, content: "Later" }]);
    const none = await registerQueue(server, users.othello, { fetch_event_types: ["saved_snippets"] });
    expect(none.register.saved_snippets).toEqual([]);
  });

  it("answers Zulip's errors: blank or too long values, missing arguments, another user's snippet", async () => {
    const { api, users } = server;
    const create = (params: Record<string, string>) =>
      api.post("/api/v1/saved_snippets", { as: users.hamlet, params });
    const cases: [Record<string, string>, string][] = [
      [{ title: "   ", content: "x" }, "title cannot be blank"],
      [{ title: "t", content: "" }, "content cannot be blank"],
      [{ title: "x".repeat(61), content: "x" }, "title is too long (limit: 60 characters)"],
      [{ title: "t", content: "x".repeat(10001) }, "content is too long (limit: 10000 characters)"],
    ];
    for (const [params, msg] of cases) {
      const res = await create(params);
      expect([params, res.status, res.body]).toEqual([params, 400, error(msg)]);
    }
    // 60 characters (one of them outside the BMP) is the limit, not more.
    expect((await create({ title: "🙂" + "x".repeat(59), content: "x" })).body).toEqual({
      ...ok,
      saved_snippet_id: 1,
    });
    for (const missing of ["title", "content"]) {
      const res = await create(missing === "title" ? { content: "x" } : { title: "t" });
      expect([res.status, res.body]).toEqual([
        400,
        {
          result: "error",
          msg: `Missing '${missing}' argument`,
          code: "REQUEST_VARIABLE_MISSING",
          var_name: missing,
        },
      ]);
    }
    const blankEdit = await api.patch("/api/v1/saved_snippets/1", {
      as: users.hamlet,
      params: { content: " " },
    });
    expect([blankEdit.status, blankEdit.body]).toEqual([400, error("content cannot be blank")]);
    // A snippet is its owner's only: others get "Saved snippet does not exist." (404).
    const patch = await api.patch("/api/v1/saved_snippets/1", { as: users.othello, params: { title: "x" } });
    expect([patch.status, patch.body]).toEqual([404, error("Saved snippet does not exist.")]);
    const del = await api.delete("/api/v1/saved_snippets/1", { as: users.othello });
    expect([del.status, del.body]).toEqual([404, error("Saved snippet does not exist.")]);
    const gone = await api.delete("/api/v1/saved_snippets/99", { as: users.hamlet });
    expect([gone.status, gone.body]).toEqual([404, error("Saved snippet does not exist.")]);
    expect((await api.get("/api/v1/saved_snippets", { as: users.hamlet })).body).toEqual({
      ...ok,
      saved_snippets: [{ id: 1, title: "🙂" + "x".repeat(59), content: "x", date_created: T0 }],
    });
  });
});
