import { afterEach, describe, expect, it } from "@jest/globals";
import { ManualClock } from "../../src/clock.js";
import { drainEvents, registerQueue } from "../helpers/events.js";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer } from "../helpers/test-server.js";
import { createStream, send } from "./message-helpers.js";

/** Nobody may mention a system group (Zulip's default_for_system_groups, "role:nobody"). */
const NOBODY = { direct_members: [], direct_subgroups: [] };
let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(): Promise<TestServer> {
  server = await startTestServer({ clock: new ManualClock() });
  return server;
}

const error = (msg: string) => ({ result: "error", msg, code: "BAD_REQUEST" });

/** The seeded cast: iago (1) owner, hamlet (3), othello (4), cordelia (5) members, polonius (6) guest, webhook bot (7). */
const SYSTEM_GROUPS = [
  {
    id: 1,
    name: "role:owners",
    description: "Owners of this organization",
    members: [1],
    direct_subgroup_ids: [],
    is_system_group: true,
    can_mention_group: NOBODY,
  },
  {
    id: 2,
    name: "role:administrators",
    description: "Administrators of this organization, including owners",
    members: [],
    direct_subgroup_ids: [1],
    is_system_group: true,
    can_mention_group: NOBODY,
  },
  {
    id: 3,
    name: "role:moderators",
    description: "Moderators of this organization, including administrators",
    members: [],
    direct_subgroup_ids: [2],
    is_system_group: true,
    can_mention_group: NOBODY,
  },
  {
    id: 4,
    name: "role:fullmembers",
    description: "Members of this organization, not including new accounts and guests",
    members: [3, 4, 5, 7],
    direct_subgroup_ids: [3],
    is_system_group: true,
    can_mention_group: NOBODY,
  },
  {
    id: 5,
    name: "role:members",
    description: "Members of this organization, not including guests",
    members: [],
    direct_subgroup_ids: [4],
    is_system_group: true,
    can_mention_group: NOBODY,
  },
  {
    id: 6,
    name: "role:everyone",
    description: "Everyone in this organization, including guests",
    members: [6],
    direct_subgroup_ids: [5],
    is_system_group: true,
    can_mention_group: NOBODY,
  },
  {
    id: 7,
    name: "role:internet",
    description: "Everyone on the Internet",
    members: [],
    direct_subgroup_ids: [6],
    is_system_group: true,
    can_mention_group: NOBODY,
  },
];

describe("user groups", () => {
  it("lists the system groups, creates a group with an event, and shows it in register", async () => {
    const server = await start();
    const { api, users } = server;
    expect((await api.get("/api/v1/user_groups", { as: users.hamlet })).body).toEqual({
      result: "success",
      msg: "",
      user_groups: SYSTEM_GROUPS,
    });
    const q = await registerQueue(server, users.othello, { event_types: ["user_group"] });
    const created = await api.post("/api/v1/user_groups/create", {
      as: users.hamlet,
      params: { name: "Danes", description: "The court", members: [users.othello.id, users.hamlet.id] },
    });
    expect(created.body).toEqual({ result: "success", msg: "", group_id: 8 });
    const danes = {
      id: 8,
      name: "Danes",
      description: "The court",
      members: [3, 4],
      direct_subgroup_ids: [],
      is_system_group: false,
      can_mention_group: 6,
    };
    expect(await drainEvents(q)).toEqual([{ id: 0, type: "user_group", op: "add", group: danes }]);
    const reg = await registerQueue(server, users.othello, { fetch_event_types: ["realm_user_groups"] });
    expect(reg.register.realm_user_groups).toEqual([...SYSTEM_GROUPS, danes]);
  });

  it("renames, changes members and deletes a group, with events", async () => {
    const server = await start();
    const { api, users } = server;
    await api.post("/api/v1/user_groups/create", {
      as: users.hamlet,
      params: { name: "Danes", description: "", members: [users.hamlet.id] },
    });
    const q = await registerQueue(server, users.othello, { event_types: ["user_group"] });
    const ok = { result: "success", msg: "" };
    expect(
      (
        await api.patch("/api/v1/user_groups/8", {
          as: users.hamlet,
          params: { name: "Court", description: "Elsinore" },
        })
      ).body,
    ).toEqual(ok);
    expect(
      (
        await api.post("/api/v1/user_groups/8/members", {
          as: users.hamlet,
          params: { add: [4, 5], delete: [3] },
        })
      ).body,
    ).toEqual(ok);
    expect((await api.get("/api/v1/user_groups/8/members", { as: users.othello })).body).toEqual({
      ...ok,
      members: [4, 5],
    });
    expect((await api.get("/api/v1/user_groups/8/members/5", { as: users.othello })).body).toEqual({
      ...ok,
      is_user_group_member: true,
    });
    expect((await api.get("/api/v1/user_groups/4/members/1", { as: users.othello })).body).toEqual({
      ...ok,
      is_user_group_member: true,
    });
    expect(
      (
        await api.get("/api/v1/user_groups/4/members", {
          as: users.othello,
          params: { direct_member_only: true },
        })
      ).body,
    ).toEqual({ ...ok, members: [3, 4, 5, 7] });
    expect((await api.delete("/api/v1/user_groups/8", { as: users.othello })).body).toEqual(ok);
    expect(await drainEvents(q)).toEqual([
      {
        id: 0,
        type: "user_group",
        op: "update",
        group_id: 8,
        data: { name: "Court", description: "Elsinore" },
      },
      { id: 1, type: "user_group", op: "add_members", group_id: 8, user_ids: [4, 5] },
      { id: 2, type: "user_group", op: "remove_members", group_id: 8, user_ids: [3] },
      { id: 3, type: "user_group", op: "remove", group_id: 8 },
    ]);
  });

  it("answers Zulip's errors", async () => {
    const server = await start();
    const { api, users } = server;
    const create = (as: typeof users.hamlet, params: Record<string, unknown>) =>
      api.post("/api/v1/user_groups/create", { as, params: params as Record<string, string> });
    await create(users.hamlet, { name: "Danes", description: "", members: [3] });
    expect((await create(users.hamlet, { name: "danes", description: "", members: [] })).body).toEqual(
      error("User group 'danes' already exists."),
    );
    expect((await create(users.polonius, { name: "Spies", description: "", members: [] })).body).toEqual(
      error("Insufficient permission"),
    );
    expect((await create(users.hamlet, { name: "X", description: "", members: [999] })).body).toEqual(
      error("Invalid user ID: 999"),
    );
    expect((await create(users.hamlet, { name: "role:x", description: "", members: [] })).body).toEqual(
      error("User group name cannot start with 'role:'."),
    );
    expect(
      (await api.patch("/api/v1/user_groups/99", { as: users.hamlet, params: { name: "Y" } })).body,
    ).toEqual(error("Invalid user group"));
    expect((await api.patch("/api/v1/user_groups/8", { as: users.hamlet })).body).toEqual(
      error("No new data supplied"),
    );
    // Othello is not a member of Danes, nor an administrator.
    expect((await api.delete("/api/v1/user_groups/8", { as: users.othello })).body).toEqual(
      error("Insufficient permission"),
    );
    expect((await api.delete("/api/v1/user_groups/2", { as: users.iago })).body).toEqual(
      error("Insufficient permission"),
    );
    const members = (params: Record<string, unknown>) =>
      api.post("/api/v1/user_groups/8/members", {
        as: users.hamlet,
        params: params as Record<string, string>,
      });
    expect((await members({ add: [3] })).body).toEqual(error("User 3 is already a member of this group"));
    expect((await members({ delete: [4] })).body).toEqual(error("There is no member '4' in this user group"));
  });

  it("creates one group when two members create the same name at once; the other is refused", async () => {
    const { api, users } = await start();
    const answers = await Promise.all(
      [users.hamlet, users.othello].map((as) =>
        api.post("/api/v1/user_groups/create", {
          as,
          params: { name: "Pairs", description: "", members: [as.id] },
        }),
      ),
    );
    const created = answers.filter((a) => a.status === 200);
    expect(created).toHaveLength(1);
    expect(answers.filter((a) => a.status !== 200).map((a) => [a.status, a.body])).toEqual([
      [400, error("User group 'Pairs' already exists.")],
    ]);
    const groups = (await api.get("/api/v1/user_groups", { as: users.hamlet })).body.user_groups as {
      name: string;
      members: number[];
    }[];
    expect(groups.filter((g) => g.name === "Pairs")).toEqual([
      expect.objectContaining({ members: [created[0] === answers[0] ? users.hamlet.id : users.othello.id] }),
    ]);
  });

  it("mentions a group's members with @*group*, and its outgoing-webhook bots get the message", async () => {
    const server = await start();
    const { api, users } = server;
    const bot = await api.post("/api/v1/bots", {
      as: users.hamlet,
      params: {
        full_name: "Ghost",
        short_name: "ghost",
        bot_type: 3,
        payload_url: JSON.stringify("http://127.0.0.1:9/ghost"),
        interface_type: 1,
      },
    });
    expect(bot.status).toBe(200);
    const botId = bot.body.user_id as number;
    await api.post("/api/v1/user_groups/create", {
      as: users.hamlet,
      params: { name: "Spirits", description: "", members: [users.othello.id, botId] },
    });
    const streamId = await createStream(server, "Denmark", [users.hamlet, users.othello, users.cordelia]);
    const id = await send(server, users.hamlet, {
      type: "stream",
      to: streamId,
      topic: "castle",
      content: "Hark, @*Spirits*! and @_*spirits*",
    });
    const msg = await api.get(`/api/v1/messages/${id}`, { as: users.othello });
    expect(msg.body.message.content).toBe(
      '<p>Hark, <span class="user-group-mention" data-user-group-id="8">@Spirits</span>! and ' +
        '<span class="user-group-mention silent" data-user-group-id="8">Spirits</span></p>',
    );
    expect(msg.body.message.flags).toEqual(["mentioned"]);
    const cordelia = await api.get(`/api/v1/messages/${id}`, { as: users.cordelia });
    expect(cordelia.body.message.flags).toEqual([]);
    const jobs = await server.running.db.all<{ bot_id: number }>(
      "SELECT bot_id FROM outgoing_webhook_jobs WHERE message_id = ?",
      [id],
    );
    expect(jobs).toEqual([{ bot_id: botId }]);
  });
});
