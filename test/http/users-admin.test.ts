import { afterEach, describe, expect, it } from "@jest/globals";
import { ManualClock } from "../../src/clock.js";
import { drainEvents, registerQueue } from "../helpers/events.js";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer } from "../helpers/test-server.js";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(): Promise<TestServer> {
  server = await startTestServer({ clock: new ManualClock() });
  return server;
}

const ok = { result: "success", msg: "" };
const error = (msg: string) => ({ result: "error", msg, code: "BAD_REQUEST" });

describe("PATCH /api/v1/users/{user_id}", () => {
  it("renames a user and changes a role, with realm_user events", async () => {
    const server = await start();
    const { api, users } = server;
    const q = await registerQueue(server, users.othello, { event_types: ["realm_user"] });
    const res = await api.patch(`/api/v1/users/${users.hamlet.id}`, {
      as: users.iago,
      params: { full_name: " Prince Hamlet ", role: 300 },
    });
    expect(res.body).toEqual(ok);
    expect(await drainEvents(q)).toEqual([
      { id: 0, type: "realm_user", op: "update", person: { user_id: users.hamlet.id, role: 300 } },
      {
        id: 1,
        type: "realm_user",
        op: "update",
        person: { user_id: users.hamlet.id, full_name: "Prince Hamlet" },
      },
    ]);
    const me = await api.get("/api/v1/users/me", { as: users.hamlet });
    expect([me.body.full_name, me.body.role]).toEqual(["Prince Hamlet", 300]);
  });

  it("answers Zulip's errors", async () => {
    const server = await start();
    const { api, users } = server;
    const patch = (as: typeof users.iago, id: number | string, params: Record<string, string | number>) =>
      api.patch(`/api/v1/users/${id}`, { as, params });
    expect((await patch(users.hamlet, users.othello.id, { full_name: "X" })).body).toEqual({
      result: "error",
      msg: "Must be an organization administrator",
      code: "UNAUTHORIZED_PRINCIPAL",
    });
    expect((await patch(users.iago, 999, { role: 400 })).body).toEqual(error("No such user"));
    expect((await patch(users.iago, users.hamlet.id, { role: 500 })).body).toEqual(error("Invalid role"));
    expect((await patch(users.iago, users.hamlet.id, { full_name: "a*b" })).body).toEqual(
      error("Invalid characters in name!"),
    );
    expect((await patch(users.iago, users.iago.id, { role: 200 })).body).toEqual(
      error("The owner permission cannot be removed from the only organization owner."),
    );
    await patch(users.iago, users.hamlet.id, { role: 200 });
    expect((await patch(users.hamlet, users.othello.id, { role: 100 })).body).toEqual(
      error("Must be an organization owner"),
    );
  });
});

describe("DELETE /api/v1/users/{user_id}", () => {
  it("deactivates a user and their bots: keys stop working, events tell the realm", async () => {
    const server = await start();
    const { api, users } = server;
    const bot = await api.post("/api/v1/bots", {
      as: users.hamlet,
      params: { full_name: "Yorick", short_name: "yorick", bot_type: 1 },
    });
    const botCreds = { email: bot.body.bot_email as string, apiKey: bot.body.api_key as string };
    const botId = bot.body.user_id as number;
    const q = await registerQueue(server, users.iago, { event_types: ["realm_user", "realm_bot"] });
    expect((await api.delete(`/api/v1/users/${users.hamlet.id}`, { as: users.iago })).body).toEqual(ok);
    expect(await drainEvents(q)).toEqual([
      {
        id: 0,
        type: "realm_user",
        op: "remove",
        person: { user_id: users.hamlet.id, full_name: "King Hamlet" },
      },
      { id: 1, type: "realm_user", op: "remove", person: { user_id: botId, full_name: "Yorick" } },
      { id: 2, type: "realm_bot", op: "remove", bot: { user_id: botId, full_name: "Yorick" } },
    ]);
    const hamlet = await api.get("/api/v1/users/me", { as: users.hamlet });
    expect(hamlet.status).toBe(401);
    const yorick = await api.get("/api/v1/users/me", { as: botCreds });
    expect(yorick.status).toBe(401);
    // Reactivation (POST /users/{id}/reactivate) brings the user back.
    expect((await api.post(`/api/v1/users/${users.hamlet.id}/reactivate`, { as: users.iago })).body).toEqual(
      ok,
    );
    expect((await api.get("/api/v1/users/me", { as: users.hamlet })).status).toBe(200);
  });

  it("lets a user deactivate themselves, but not the only owner", async () => {
    const server = await start();
    const { api, users } = server;
    expect((await api.delete("/api/v1/users/me", { as: users.othello })).body).toEqual(ok);
    expect((await api.delete("/api/v1/users/me", { as: users.iago })).body).toEqual(
      error("Cannot deactivate the only organization owner"),
    );
  });

  it("answers Zulip's errors", async () => {
    const server = await start();
    const { api, users } = server;
    expect((await api.delete(`/api/v1/users/${users.othello.id}`, { as: users.hamlet })).body).toEqual({
      result: "error",
      msg: "Must be an organization administrator",
      code: "UNAUTHORIZED_PRINCIPAL",
    });
    expect((await api.delete("/api/v1/users/999", { as: users.iago })).body).toEqual(error("No such user"));
    expect((await api.delete(`/api/v1/users/${users.webhookBot.id}`, { as: users.iago })).body).toEqual(
      error("No such user"),
    );
    expect((await api.delete(`/api/v1/users/${users.iago.id}`, { as: users.iago })).body).toEqual(
      error("Cannot deactivate the only organization owner"),
    );
  });
});
