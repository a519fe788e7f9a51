/**
 * Issue 23, finding 6 (bot ownership): a member cannot hand a bot to another user and keep its
 * key, and no user can own bots without bound. Real listening servers, both stacks.
 */
import { afterEach, describe, expect, it, jest } from "@jest/globals";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer, TestUser } from "../helpers/test-server.js";

jest.setTimeout(60_000);

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function server(maxBotsPerUser?: number): Promise<TestServer> {
  const t = await startTestServer(maxBotsPerUser === undefined ? {} : { config: { maxBotsPerUser } });
  cleanups.push(() => t.close());
  return t;
}

async function createBot(
  t: TestServer,
  as: TestUser,
  shortName: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await t.api.post("/api/v1/bots", {
    as,
    params: { full_name: `Bot ${shortName}`, short_name: shortName, bot_type: 1 },
  });
  return { status: res.status, body: res.body as Record<string, unknown> };
}

describe("finding 6: bot ownership", () => {
  it("lets only an administrator transfer a bot, and gives the transferred bot a new key", async () => {
    const t = await server();
    const { iago, hamlet, othello } = t.users;
    const created = await createBot(t, hamlet, "handy");
    expect(created.status).toBe(200);
    const botId = created.body["user_id"] as number;
    const bot = { email: created.body["email"] as string, apiKey: created.body["api_key"] as string };

    const byMember = await t.api.patch(`/api/v1/bots/${botId}`, {
      as: hamlet,
      params: { bot_owner_id: othello.id },
    });
    expect(byMember.body).toEqual({
      result: "error",
      msg: "Only organization administrators can transfer a bot to another user",
      code: "BAD_REQUEST",
    });
    expect((await t.api.get("/api/v1/users/me", { as: bot, skipSchemaCheck: true })).status).toBe(200);

    const byAdmin = await t.api.patch(`/api/v1/bots/${botId}`, {
      as: iago,
      params: { bot_owner_id: othello.id },
    });
    expect(byAdmin.status).toBe(200);
    // The key the previous owner knew no longer works; the new owner reads the new one.
    expect((await t.api.get("/api/v1/users/me", { as: bot, skipSchemaCheck: true })).status).toBe(401);
    const listed = await t.api.get("/api/v1/bots", { as: othello });
    const bots = listed.body.bots as { user_id: number; api_key: string }[];
    const newKey = bots.find((b) => b.user_id === botId)!.api_key;
    expect(newKey).not.toBe(bot.apiKey);
    expect(
      (
        await t.api.get("/api/v1/users/me", {
          as: { email: bot.email, apiKey: newKey },
          skipSchemaCheck: true,
        })
      ).status,
    ).toBe(200);
    const hamletsBots = await t.api.get("/api/v1/bots", { as: hamlet });
    expect(hamletsBots.body.bots).toEqual([]);
  });

  it("caps the active bots one user owns (--max-bots-per-user)", async () => {
    const t = await server(2);
    const { hamlet, othello } = t.users;
    expect((await createBot(t, hamlet, "one")).status).toBe(200);
    const second = await createBot(t, hamlet, "two");
    expect(second.status).toBe(200);
    expect(await createBot(t, hamlet, "three")).toEqual({
      status: 400,
      body: {
        result: "error",
        msg: "You already own 2 active bots, the most this server allows; deactivate one first.",
        code: "BAD_REQUEST",
      },
    });
    // Another user has a cap of their own; a deactivated bot frees a place.
    expect((await createBot(t, othello, "four")).status).toBe(200);
    const removed = await t.api.delete(`/api/v1/bots/${second.body["user_id"] as number}`, { as: hamlet });
    expect(removed.status).toBe(200);
    expect((await createBot(t, hamlet, "three")).status).toBe(200);
  });
});
