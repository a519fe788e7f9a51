import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import { drainEvents, registerQueue } from "../helpers/events.js";
import type { TestUser } from "../helpers/test-server.js";
import { startMessagingServer } from "./message-helpers.js";
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
const patchRealm = (as: TestUser, params: Record<string, string>) =>
  server.api.patch("/api/v1/realm", { as, params });
const profile = async (as: TestUser) => {
  const { register } = await registerQueue(server, as, { fetch_event_types: ["realm"] });
  return [register.realm_name, register.realm_description];
};

describe("PATCH /realm name and description", () => {
  it("lets an administrator rename and describe the organization; every user is told", async () => {
    const { iago, hamlet } = server.users;
    const q = await registerQueue(server, hamlet, { event_types: ["realm"] });
    expect(
      (await patchRealm(iago, { name: "  Elsinore  ", description: "The **castle** chat" })).body,
    ).toEqual(ok);
    expect(await drainEvents(q)).toEqual([
      { id: 0, type: "realm", op: "update", property: "name", value: "Elsinore" },
      { id: 1, type: "realm", op: "update", property: "description", value: "The **castle** chat" },
    ]);
    expect(await profile(hamlet)).toEqual(["Elsinore", "The **castle** chat"]);
    // The same values again change nothing and tell no one; an empty description is allowed.
    expect((await patchRealm(iago, { name: "Elsinore" })).body).toEqual(ok);
    expect(await drainEvents(q)).toEqual([]);
    expect((await patchRealm(iago, { description: "" })).body).toEqual(ok);
    expect(await drainEvents(q)).toEqual([
      { id: 2, type: "realm", op: "update", property: "description", value: "" },
    ]);
  });

  it("answers each refusal with its error and changes nothing", async () => {
    const { iago, hamlet } = server.users;
    const before = await profile(hamlet);
    const check = async (as: TestUser, params: Record<string, string>, msg: string) => {
      const res = await patchRealm(as, params);
      expect([res.status, res.body]).toEqual([400, error(msg)]);
    };
    await check(hamlet, { name: "Mine" }, "Must be an organization administrator");
    await check(iago, { name: "   " }, "Organization name can't be empty");
    await check(iago, { name: "x".repeat(41) }, "name is too long (limit: 40 characters)");
    await check(iago, { description: "d".repeat(1001) }, "description is too long (limit: 1000 characters)");
    expect(await profile(hamlet)).toEqual(before);
    // 40 characters (of any script) is the limit itself.
    expect((await patchRealm(iago, { name: "é".repeat(40) })).body).toEqual(ok);
    expect((await profile(hamlet))[0]).toBe("é".repeat(40));
  });
});
