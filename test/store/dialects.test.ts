import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { toPgPlaceholders } from "../../src/store/postgres.js";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer } from "../helpers/test-server.js";
import { freshPostgresSchema, postgresAvailable } from "../helpers/postgres.js";

describe("toPgPlaceholders", () => {
  it("numbers placeholders and leaves quoted question marks alone", () => {
    expect(toPgPlaceholders("SELECT * FROM t WHERE a = ? AND b = '?' AND c IN (?, ?)")).toBe(
      "SELECT * FROM t WHERE a = $1 AND b = '?' AND c IN ($2, $3)",
    );
  });
});

const pgUp = await postgresAvailable();
if (!pgUp) console.warn("PostgreSQL is not reachable: skipping the PostgreSQL dialect tests");

(pgUp ? describe : describe.skip)("the PostgreSQL dialect", () => {
  let t: TestServer;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const schema = await freshPostgresSchema();
    drop = schema.drop;
    t = await startTestServer({ config: { databaseUrl: schema.url } });
  });
  afterAll(async () => {
    await t.close();
    await drop();
  });

  it("runs the same migrations and serves users, bots and keys", async () => {
    const res = await t.api.get("/api/v1/users", { as: t.users.hamlet, params: { client_gravatar: true } });
    expect(res.status).toBe(200);
    expect((res.body.members as { email: string }[]).map((m) => m.email)).toEqual([
      "iago@zulip.com",
      "notification-bot@zulip.com",
      "hamlet@zulip.com",
      "othello@zulip.com",
      "cordelia@zulip.com",
      "polonius@zulip.com",
      "webhook-bot@zulip.com",
    ]);
    const bots = await t.api.get("/api/v1/bots", { as: t.users.iago });
    expect(bots.body.bots).toHaveLength(1);
    expect(bots.body.bots[0]).toMatchObject({
      username: "webhook-bot@zulip.com",
      bot_type: 2,
      owner_id: t.users.iago.id,
    });
  });
});
