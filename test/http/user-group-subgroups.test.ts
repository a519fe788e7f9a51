import { afterEach, describe, expect, it } from "@jest/globals";
import { ManualClock } from "../../src/clock.js";
import { drainEvents, registerQueue } from "../helpers/events.js";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer, TestUser } from "../helpers/test-server.js";
import { createStream, send } from "./message-helpers.js";

// The seeded cast: iago (1) owner, hamlet (3), othello (4), cordelia (5) members, polonius (6)
// guest, a webhook bot (7). Groups created here: Danes (8: hamlet, othello), Players (9:
// cordelia), Ghosts (10: nobody).
let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const ok = { result: "success", msg: "" };
const error = (msg: string) => ({ result: "error", msg, code: "BAD_REQUEST" });

async function start(): Promise<TestServer> {
  server = await startTestServer({ clock: new ManualClock() });
  const { api, users } = server;
  for (const [name, members] of [
    ["Danes", [users.hamlet.id, users.othello.id]],
    ["Players", [users.cordelia.id]],
    ["Ghosts", []],
  ] as const) {
    const res = await api.post("/api/v1/user_groups/create", {
      as: users.hamlet,
      params: { name, description: "", members: [...members] },
    });
    expect(res.status).toBe(200);
  }
  return server;
}

function subgroups(s: TestServer, as: TestUser, id: number, params: Record<string, unknown>) {
  return s.api.post(`/api/v1/user_groups/${id}/subgroups`, { as, params: params as Record<string, string> });
}

describe("user group subgroups", () => {
  it("adds and removes subgroups with events; lists them directly or recursively; register shows them", async () => {
    const s = await start();
    const { api, users } = s;
    const q = await registerQueue(s, users.cordelia, { event_types: ["user_group"] });
    expect((await subgroups(s, users.hamlet, 8, { add: [9] })).body).toEqual(ok);
    // Cordelia edits Players, a group she belongs to.
    expect((await subgroups(s, users.cordelia, 9, { add: [10] })).body).toEqual(ok);
    expect(await drainEvents(q)).toEqual([
      { id: 0, type: "user_group", op: "add_subgroups", group_id: 8, direct_subgroup_ids: [9] },
      { id: 1, type: "user_group", op: "add_subgroups", group_id: 9, direct_subgroup_ids: [10] },
    ]);

    const get = (id: number, params: Record<string, unknown> = {}) =>
      api.get(`/api/v1/user_groups/${id}/subgroups`, {
        as: users.othello,
        params: params as Record<string, string>,
      });
    expect((await get(8)).body).toEqual({ ...ok, subgroups: [9, 10] });
    expect((await get(8, { direct_subgroup_only: true })).body).toEqual({ ...ok, subgroups: [9] });
    expect((await get(10)).body).toEqual({ ...ok, subgroups: [] });
    // System groups: role:members contains full members, moderators, administrators and owners.
    expect((await get(5)).body).toEqual({ ...ok, subgroups: [1, 2, 3, 4] });

    const reg = await registerQueue(s, users.othello, { fetch_event_types: ["realm_user_groups"] });
    const mine = (reg.register.realm_user_groups as { id: number }[]).filter((g) => g.id >= 8);
    expect(mine).toEqual([
      {
        id: 8,
        name: "Danes",
        description: "",
        members: [3, 4],
        direct_subgroup_ids: [9],
        is_system_group: false,
        can_mention_group: 6,
      },
      {
        id: 9,
        name: "Players",
        description: "",
        members: [5],
        direct_subgroup_ids: [10],
        is_system_group: false,
        can_mention_group: 6,
      },
      {
        id: 10,
        name: "Ghosts",
        description: "",
        members: [],
        direct_subgroup_ids: [],
        is_system_group: false,
        can_mention_group: 6,
      },
    ]);

    expect((await subgroups(s, users.hamlet, 8, { delete: [9], add: [10] })).body).toEqual(ok);
    expect(await drainEvents(q)).toEqual([
      { id: 2, type: "user_group", op: "add_subgroups", group_id: 8, direct_subgroup_ids: [10] },
      { id: 3, type: "user_group", op: "remove_subgroups", group_id: 8, direct_subgroup_ids: [9] },
    ]);
    expect((await get(8)).body).toEqual({ ...ok, subgroups: [10] });

    // Deleting a group takes it out of the groups it was a subgroup of.
    expect((await api.delete("/api/v1/user_groups/10", { as: users.iago })).body).toEqual(ok);
    expect((await get(8)).body).toEqual({ ...ok, subgroups: [] });
    expect((await get(9)).body).toEqual({ ...ok, subgroups: [] });
  });

  it("counts subgroups' members in GET /members and /members/{user_id} unless direct_member_only", async () => {
    const s = await start();
    const { api, users } = s;
    await subgroups(s, users.hamlet, 8, { add: [9, 2] });
    const members = (params: Record<string, unknown> = {}) =>
      api.get("/api/v1/user_groups/8/members", {
        as: users.othello,
        params: params as Record<string, string>,
      });
    // Iago is in role:administrators through role:owners.
    expect((await members()).body).toEqual({ ...ok, members: [1, 3, 4, 5] });
    expect((await members({ direct_member_only: true })).body).toEqual({ ...ok, members: [3, 4] });
    const isMember = (userId: number, params: Record<string, unknown> = {}) =>
      api.get(`/api/v1/user_groups/8/members/${userId}`, {
        as: users.othello,
        params: params as Record<string, string>,
      });
    expect((await isMember(5)).body).toEqual({ ...ok, is_user_group_member: true });
    expect((await isMember(5, { direct_member_only: true })).body).toEqual({
      ...ok,
      is_user_group_member: false,
    });
    expect((await isMember(1)).body).toEqual({ ...ok, is_user_group_member: true });
    expect((await isMember(6)).body).toEqual({ ...ok, is_user_group_member: false });
    expect((await isMember(999)).body).toEqual(error("No such user"));
    expect((await isMember(7)).body).toEqual(error("No such user"));
  });

  it("refuses cycles and answers Zulip's other errors", async () => {
    const s = await start();
    const { api, users } = s;
    await subgroups(s, users.hamlet, 8, { add: [9] });
    await subgroups(s, users.cordelia, 9, { add: [10] });
    const cases: [TestUser, number, Record<string, unknown>, string][] = [
      [users.iago, 10, { add: [8] }, "User group 10 is already a subgroup of one of the passed subgroups."],
      [users.cordelia, 9, { add: [9] }, "User group 9 is already a subgroup of one of the passed subgroups."],
      [users.hamlet, 8, { add: [9] }, "User group 9 is already a subgroup of this group."],
      [users.hamlet, 8, { delete: [10] }, "User group 10 is not a subgroup of this group."],
      [users.hamlet, 8, { add: [99] }, "Invalid user group ID: 99"],
      [users.hamlet, 99, { add: [9] }, "Invalid user group"],
      [users.hamlet, 8, {}, 'Nothing to do. Specify at least one of "add" or "delete".'],
      // System groups follow the roles; Cordelia is not in Danes; guests edit no group.
      [users.iago, 2, { add: [8] }, "Insufficient permission"],
      [users.cordelia, 8, { add: [10] }, "Insufficient permission"],
      [users.polonius, 8, { add: [10] }, "Insufficient permission"],
    ];
    for (const [as, id, params, msg] of cases) {
      const res = await subgroups(s, as, id, params);
      expect([id, params, res.status, res.body]).toEqual([id, params, 400, error(msg)]);
    }
    // Nothing changed.
    expect((await api.get("/api/v1/user_groups/8/subgroups", { as: users.hamlet })).body).toEqual({
      ...ok,
      subgroups: [9, 10],
    });
    // Guests may not read groups' subgroups or members; an unknown group is invalid.
    for (const path of [
      "/api/v1/user_groups/8/subgroups",
      "/api/v1/user_groups/8/members",
      "/api/v1/user_groups/8/members/3",
    ]) {
      expect((await api.get(path, { as: users.polonius })).body).toEqual(
        error("Not allowed for guest users"),
      );
    }
    expect((await api.get("/api/v1/user_groups/99/subgroups", { as: users.hamlet })).body).toEqual(
      error("Invalid user group"),
    );
    expect((await api.get("/api/v1/user_groups/99/members", { as: users.hamlet })).body).toEqual(
      error("Invalid user group"),
    );
  });

  it("@*group* mentions reach the members of its subgroups", async () => {
    const s = await start();
    const { api, users } = s;
    await subgroups(s, users.hamlet, 8, { add: [9] });
    const streamId = await createStream(s, "Denmark", [
      users.hamlet,
      users.othello,
      users.cordelia,
      users.iago,
    ]);
    const id = await send(s, users.hamlet, {
      type: "stream",
      to: streamId,
      topic: "castle",
      content: "Hark, @*Danes*!",
    });
    const flags = async (u: TestUser) =>
      (await api.get(`/api/v1/messages/${id}`, { as: u })).body.message.flags;
    expect(await flags(users.othello)).toEqual(["mentioned"]);
    expect(await flags(users.cordelia)).toEqual(["mentioned"]);
    expect(await flags(users.iago)).toEqual([]);
  });
});
