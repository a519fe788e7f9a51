import { afterEach, describe, expect, it } from "@jest/globals";
import { ManualClock } from "../../src/clock.js";
import { drainEvents, registerQueue } from "../helpers/events.js";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer } from "../helpers/test-server.js";
import { T0, createStream, send } from "./message-helpers.js";

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

describe("alert words", () => {
  it("adds, lists and removes alert words, with alert_words events and register state", async () => {
    const server = await start();
    const { api, users } = server;
    const q = await registerQueue(server, users.hamlet, { event_types: ["alert_words"] });
    const added = await api.post("/api/v1/users/me/alert_words", {
      as: users.hamlet,
      params: { alert_words: ["ghost", " Poison ", "GHOST", ""] },
    });
    expect(added.body).toEqual({ ...ok, alert_words: ["ghost", "Poison"] });
    expect((await api.get("/api/v1/users/me/alert_words", { as: users.hamlet })).body).toEqual({
      ...ok,
      alert_words: ["ghost", "Poison"],
    });
    const removed = await api.delete("/api/v1/users/me/alert_words", {
      as: users.hamlet,
      params: { alert_words: ["poison"] },
    });
    expect(removed.body).toEqual({ ...ok, alert_words: ["ghost"] });
    expect(await drainEvents(q)).toEqual([
      { id: 0, type: "alert_words", alert_words: ["ghost", "Poison"] },
      { id: 1, type: "alert_words", alert_words: ["ghost"] },
    ]);
    const reg = await registerQueue(server, users.hamlet, { fetch_event_types: ["alert_words"] });
    expect(reg.register.alert_words).toEqual(["ghost"]);
  });

  it("flags has_alert_word on the copies of recipients whose word appears, not inside other words", async () => {
    const server = await start();
    const { api, users } = server;
    await api.post("/api/v1/users/me/alert_words", { as: users.hamlet, params: { alert_words: ["ghost"] } });
    await api.post("/api/v1/users/me/alert_words", { as: users.othello, params: { alert_words: ["ghost"] } });
    const streamId = await createStream(server, "Denmark", [users.hamlet, users.othello, users.cordelia]);
    const hit = await send(server, users.othello, {
      type: "stream",
      to: streamId,
      topic: "t",
      content: "A Ghost!",
    });
    const miss = await send(server, users.othello, {
      type: "stream",
      to: streamId,
      topic: "t",
      content: "ghostly",
    });
    const flags = async (as: typeof users.hamlet, id: number) =>
      (await api.get(`/api/v1/messages/${id}`, { as })).body.message.flags as string[];
    expect(await flags(users.hamlet, hit)).toEqual(["has_alert_word"]);
    expect(await flags(users.othello, hit)).toEqual(["read"]);
    expect(await flags(users.cordelia, hit)).toEqual([]);
    expect(await flags(users.hamlet, miss)).toEqual([]);
  });

  it("recomputes has_alert_word when an edit adds or removes the word (Zulip's do_update_message)", async () => {
    const server = await start();
    const { api, users } = server;
    await api.post("/api/v1/users/me/alert_words", { as: users.hamlet, params: { alert_words: ["ghost"] } });
    const streamId = await createStream(server, "Denmark", [users.hamlet, users.othello, users.cordelia]);
    const id = await send(server, users.othello, {
      type: "stream",
      to: streamId,
      topic: "t",
      content: "quiet",
    });
    const flags = async (as: typeof users.hamlet) =>
      (await api.get(`/api/v1/messages/${id}`, { as })).body.message.flags as string[];
    expect(await flags(users.hamlet)).toEqual([]);
    const edit = (content: string) =>
      api.patch(`/api/v1/messages/${id}`, { as: users.othello, params: { content } });
    expect((await edit("a ghost appears")).body).toEqual(ok);
    expect(await flags(users.hamlet)).toEqual(["has_alert_word"]);
    expect(await flags(users.cordelia)).toEqual([]);
    expect(await flags(users.othello)).toEqual(["read"]);
    expect((await edit("gone again")).body).toEqual(ok);
    expect(await flags(users.hamlet)).toEqual([]);
  });

  it("rejects an alert word that is too long, naming its place in the list, and adds none of the others", async () => {
    const server = await start();
    const { api, users } = server;
    const res = await api.post("/api/v1/users/me/alert_words", {
      as: users.hamlet,
      params: { alert_words: ["ghost", "x".repeat(101)] },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error("alert_words[1] is too long (limit: 100 characters)"));
    expect((await api.get("/api/v1/users/me/alert_words", { as: users.hamlet })).body).toEqual({
      ...ok,
      alert_words: [],
    });
  });
});

describe("muted users", () => {
  it("mutes and unmutes a user, with muted_users events and register state", async () => {
    const server = await start();
    const { api, users } = server;
    const q = await registerQueue(server, users.hamlet, { event_types: ["muted_users"] });
    const path = `/api/v1/users/me/muted_users/${users.othello.id}`;
    expect((await api.post(path, { as: users.hamlet })).body).toEqual(ok);
    const reg = await registerQueue(server, users.hamlet, { fetch_event_types: ["muted_users"] });
    expect(reg.register.muted_users).toEqual([{ id: users.othello.id, timestamp: T0 }]);
    expect((await api.delete(path, { as: users.hamlet })).body).toEqual(ok);
    expect(await drainEvents(q)).toEqual([
      { id: 0, type: "muted_users", muted_users: [{ id: users.othello.id, timestamp: T0 }] },
      { id: 1, type: "muted_users", muted_users: [] },
    ]);
  });

  it("answers Zulip's errors", async () => {
    const server = await start();
    const { api, users } = server;
    const mute = (id: number) => api.post(`/api/v1/users/me/muted_users/${id}`, { as: users.hamlet });
    expect((await mute(users.hamlet.id)).body).toEqual(error("Cannot mute self"));
    expect((await mute(999)).body).toEqual(error("No such user"));
    await mute(users.othello.id);
    expect((await mute(users.othello.id)).body).toEqual(error("User already muted"));
    const unmute = await api.delete(`/api/v1/users/me/muted_users/${users.cordelia.id}`, {
      as: users.hamlet,
    });
    expect(unmute.body).toEqual(error("User is not muted"));
  });

  it("mutes once when asked from several clients at once; the others are told it is muted", async () => {
    // On PostgreSQL the requests run side by side: the second insert was a 500.
    const server = await start();
    const { api, users } = server;
    const answers = await Promise.all(
      [1, 2, 3, 4].map(() =>
        api.post(`/api/v1/users/me/muted_users/${users.othello.id}`, { as: users.hamlet }),
      ),
    );
    for (const a of answers) expect([ok, error("User already muted")]).toContainEqual(a.body);
    expect(answers.map((a) => a.body)).toContainEqual(ok);
    const reg = await registerQueue(server, users.hamlet, { fetch_event_types: ["muted_users"] });
    expect(reg.register.muted_users).toEqual([{ id: users.othello.id, timestamp: T0 }]);
  });
});
