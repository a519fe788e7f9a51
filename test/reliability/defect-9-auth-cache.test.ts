/**
 * Defect 9 (issue 11): a deactivated user's key kept working for up to 5 s (the auth cache).
 * Also: API keys are found by a non-secret lookup id (migration 007) and keep working for rows
 * written before it.
 */
import { afterEach, beforeEach, describe, expect, it, jest } from "@jest/globals";
import { apiKeyLookupId, UsersRepo } from "../../src/store/users-repo.js";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer } from "../helpers/test-server.js";
import { freshPostgresSchema, postgresAvailable } from "../helpers/postgres.js";

// Real servers and scrypt on a machine shared with other work: generous time limits.
jest.setTimeout(120_000);

let server: TestServer;
afterEach(() => server.close());

describe("defect 9: the auth cache forgets a user at once", () => {
  beforeEach(async () => {
    server = await startTestServer();
  });

  it("refuses a deactivated user's key on the very next request", async () => {
    const { hamlet } = server.users;
    expect((await server.api.get("/api/v1/users/me", { as: hamlet })).status).toBe(200);
    await new UsersRepo(server.running.db).setActive(hamlet.id, false);
    const res = await server.api.get("/api/v1/users/me", { as: hamlet });
    expect({ status: res.status, body: res.body }).toEqual({
      status: 401,
      body: { result: "error", msg: "Account is deactivated", code: "UNAUTHORIZED" },
    });
  });

  it("refuses an old key on the very next request after it changed", async () => {
    const { cordelia } = server.users;
    expect((await server.api.get("/api/v1/users/me", { as: cordelia })).status).toBe(200);
    await new UsersRepo(server.running.db).setApiKey(cordelia.id, "N".repeat(32));
    const res = await server.api.get("/api/v1/users/me", { as: cordelia });
    expect(res.body).toEqual({ result: "error", msg: "Invalid API key", code: "UNAUTHORIZED" });
  });

  it("offers invalidateCredentials to lifecycle code", async () => {
    const { othello } = server.users;
    expect((await server.api.get("/api/v1/users/me", { as: othello })).status).toBe(200);
    // A write that bypasses UsersRepo, then the hook.
    await server.running.db.run("UPDATE users SET is_active = 0 WHERE id = ?", [othello.id]);
    server.running.services.users.invalidateCredentials(othello.id);
    expect((await server.api.get("/api/v1/users/me", { as: othello })).status).toBe(401);
  });
});

async function webhookWith(key: string): Promise<number> {
  const res = await fetch(`${server.url}/api/v1/external/helloworld?api_key=${key}&stream=general`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ featured_title: "T", featured_url: "https://example.com/" }),
  });
  return res.status;
}

const pgUp = await postgresAvailable();
describe.each([
  ["SQLite", false],
  ["PostgreSQL", true],
])("API keys by lookup id (%s)", (_name, postgres) => {
  let drop: (() => Promise<void>) | undefined;
  beforeEach(async () => {
    if (postgres && pgUp) {
      const schema = await freshPostgresSchema();
      drop = schema.drop;
      server = await startTestServer({ config: { databaseUrl: schema.url } });
    } else {
      server = await startTestServer();
    }
  });
  afterEach(async () => {
    await drop?.();
    drop = undefined;
  });

  it("stores the SHA-256 of each key in api_key_hash", async () => {
    if (postgres && !pgUp) return;
    const row = await server.running.db.get<{ api_key_hash: string }>(
      "SELECT api_key_hash FROM users WHERE id = ?",
      [server.users.webhookBot.id],
    );
    expect(row?.api_key_hash).toBe(apiKeyLookupId(server.users.webhookBot.apiKey));
    expect(apiKeyLookupId("a".repeat(32))).toBe(
      "3ba3f5f43b92602683c19aee62a20342b084dd5971ddd33808d81a328879a547",
    );
  });

  it("keeps keys of rows written before migration 007 working", async () => {
    if (postgres && !pgUp) return;
    await server.running.db.run("UPDATE users SET api_key_hash = NULL");
    expect(await webhookWith(server.users.webhookBot.apiKey)).toBe(200);
    expect(await webhookWith("Z".repeat(32))).toBe(401);
  });
});
