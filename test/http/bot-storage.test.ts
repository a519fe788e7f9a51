import { afterAll, beforeAll, beforeEach, describe, expect, it } from "@jest/globals";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer, TestUser } from "../helpers/test-server.js";

let server: TestServer;
let bot: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  // A generic bot: incoming-webhook bots may not use the REST API at all.
  const { users } = server.running.services;
  const created = await users.createBot((await users.byId(server.users.iago.id))!, {
    fullName: "Storage Bot",
    shortName: "storage",
    botType: 1,
  });
  bot = { id: created.bot.id, email: created.bot.email, apiKey: created.bot.apiKey, fullName: "Storage Bot" };
});
afterAll(() => server.close());
beforeEach(async () => {
  await server.running.db.run("DELETE FROM bot_storage");
});

const put = (storage: unknown, as: TestUser = bot) =>
  server.api.put("/api/v1/bot_storage", {
    as,
    params: { storage: typeof storage === "string" ? storage : JSON.stringify(storage) },
  });
const get = (keys?: string[], as: TestUser = bot) =>
  server.api.get("/api/v1/bot_storage", { as, params: keys === undefined ? {} : { keys } });
const remove = (keys?: string[], as: TestUser = bot) =>
  server.api.delete("/api/v1/bot_storage", { as, params: keys === undefined ? {} : { keys } });

describe("PUT /api/v1/bot_storage", () => {
  it("stores and overwrites string values", async () => {
    const first = await put({ a: "1", b: "two" });
    expect([first.status, first.body]).toEqual([200, { result: "success", msg: "" }]);
    await put({ b: "2", c: '{"json": true}' });
    const res = await get();
    expect([res.status, res.body]).toEqual([
      200,
      { result: "success", msg: "", storage: { a: "1", b: "2", c: '{"json": true}' } },
    ]);
  });

  it("rejects a value that is not a string", async () => {
    const res = await put({ a: 1 });
    expect([res.status, res.body]).toEqual([
      400,
      { result: "error", msg: 'storage["a"] is not a string', code: "BAD_REQUEST" },
    ]);
  });

  it("rejects storage that is not JSON, or not an object", async () => {
    const notJson = await put("{nope");
    expect([notJson.status, notJson.body]).toEqual([
      400,
      { result: "error", msg: 'Argument "storage" is not valid JSON.', code: "BAD_REQUEST" },
    ]);
    const notDict = await put('["a"]');
    expect([notDict.status, notDict.body]).toEqual([
      400,
      { result: "error", msg: "storage is not a dict", code: "BAD_REQUEST" },
    ]);
  });

  it("requires storage", async () => {
    const res = await server.api.put("/api/v1/bot_storage", { as: bot, params: {} });
    expect([res.status, res.body]).toEqual([
      400,
      {
        result: "error",
        msg: "Missing 'storage' argument",
        code: "REQUEST_VARIABLE_MISSING",
        var_name: "storage",
      },
    ]);
  });

  it("enforces the 10,000,000-character limit over keys and values, counting the update", async () => {
    await put({ k: "x".repeat(1000) });
    // 3 + 9,998,996 + (1 + 1000 already stored) = 10,000,000: exactly at the limit.
    const ok = await put({ big: "y".repeat(9_998_996) });
    expect([ok.status, ok.body]).toEqual([200, { result: "success", msg: "" }]);
    // Replacing k's 1000 characters by 1002 goes 2 over.
    const over = await put({ k: "x".repeat(1002) });
    expect([over.status, over.body]).toEqual([
      400,
      {
        result: "error",
        msg: "Request exceeds storage limit by 2 characters. The limit is 10000000 characters.",
        code: "BAD_REQUEST",
      },
    ]);
    // Nothing of the rejected update was stored.
    const k = await get(["k"]);
    expect(k.body.storage.k).toHaveLength(1000);
  });

  it("counts characters, not UTF-16 units", async () => {
    await put({ e: "😀".repeat(10) });
    expect(await server.running.services.botStorage.get(bot.id)).toEqual({ e: "😀".repeat(10) });
    // "e" + 10 emoji = 11 characters (22 UTF-16 units).
    const size = await server.running.db.get<{ n: number }>(
      "SELECT SUM(LENGTH(key) + LENGTH(value)) AS n FROM bot_storage",
    );
    expect(Number(size?.n)).toBe(11);
  });
});

describe("GET /api/v1/bot_storage", () => {
  it("returns all entries, or the requested keys", async () => {
    await put({ a: "1", b: "2", c: "3" });
    const some = await get(["c", "a"]);
    expect([some.status, some.body]).toEqual([
      200,
      { result: "success", msg: "", storage: { c: "3", a: "1" } },
    ]);
    const empty = await get([]);
    expect(empty.body).toEqual({ result: "success", msg: "", storage: { a: "1", b: "2", c: "3" } });
  });

  it("returns an empty object when nothing is stored", async () => {
    const res = await get();
    expect([res.status, res.body]).toEqual([200, { result: "success", msg: "", storage: {} }]);
  });

  it("fails the whole request when a key does not exist", async () => {
    await put({ a: "1" });
    const res = await get(["a", "zzz"]);
    expect([res.status, res.body]).toEqual([
      400,
      { result: "error", msg: "Key does not exist.", code: "BAD_REQUEST" },
    ]);
  });

  it("rejects keys that are not a JSON list of strings", async () => {
    const res = await server.api.get("/api/v1/bot_storage", { as: bot, params: { keys: "[1]" } });
    expect([res.status, res.body]).toEqual([
      400,
      { result: "error", msg: "keys[0] is not a string", code: "BAD_REQUEST" },
    ]);
  });

  it("keeps each bot's storage separate", async () => {
    await put({ a: "webhook bot's" });
    const other = (
      await server.running.services.users.createBot(
        (await server.running.services.users.byId(server.users.iago.id))!,
        { fullName: "Other Bot", shortName: "other", botType: 1 },
      )
    ).bot;
    const res = await get(undefined, {
      id: other.id,
      email: other.email,
      apiKey: other.apiKey,
      fullName: "Other Bot",
    });
    expect(res.body).toEqual({ result: "success", msg: "", storage: {} });
  });
});

describe("DELETE /api/v1/bot_storage", () => {
  it("removes the given keys", async () => {
    await put({ a: "1", b: "2", c: "3" });
    const res = await remove(["a", "c"]);
    expect([res.status, res.body]).toEqual([200, { result: "success", msg: "" }]);
    expect((await get()).body.storage).toEqual({ b: "2" });
  });

  it("removes everything without keys", async () => {
    await put({ a: "1", b: "2" });
    const res = await remove();
    expect([res.status, res.body]).toEqual([200, { result: "success", msg: "" }]);
    expect((await get()).body.storage).toEqual({});
  });

  it("removes nothing when one of the keys does not exist", async () => {
    await put({ a: "1", b: "2" });
    const res = await remove(["a", "missing"]);
    expect([res.status, res.body]).toEqual([
      400,
      { result: "error", msg: "Key does not exist.", code: "BAD_REQUEST" },
    ]);
    expect((await get()).body.storage).toEqual({ a: "1", b: "2" });
  });
});

describe("bot storage for humans", () => {
  it("answers every method with Zulip's error for non-bot users", async () => {
    const error = { result: "error", msg: "Must be a bot user", code: "BAD_REQUEST" };
    const { hamlet } = server.users;
    const responses = [
      await put({ a: "1" }, hamlet),
      await get(undefined, hamlet),
      await remove(undefined, hamlet),
    ];
    expect(responses.map((r) => [r.status, r.body])).toEqual([
      [400, error],
      [400, error],
      [400, error],
    ]);
  });

  it("requires authentication", async () => {
    const res = await server.api.get("/api/v1/bot_storage");
    expect(res.status).toBe(401);
  });
});
