import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import type { TestUser } from "../helpers/test-server.js";
import { drainEvents, registerQueue } from "../helpers/events.js";
import { canInviteUsersGroup } from "../../src/store/migrations/113-can-invite-users-group.js";
import { ddlFor } from "../../src/store/migrations/types.js";
import { T0, createStream, startMessagingServer } from "./message-helpers.js";
import type { MessagingServer } from "./message-helpers.js";

// Seeded users: iago (owner), hamlet, othello, cordelia (members), polonius (guest).
let server: MessagingServer;
let lobby: number;
beforeEach(async () => {
  server = await startMessagingServer();
  lobby = await createStream(server, "lobby", []);
  await server.api.post("/api/v1/default_streams", { as: server.users.iago, params: { stream_id: lobby } });
});
afterEach(async () => {
  await server.close();
});

const ok = { result: "success", msg: "" };
const error = (msg: string) => ({ result: "error", msg, code: "BAD_REQUEST" });
const GONE = error("The invitation link has expired or has been deactivated.");

const invite = (as: TestUser, params: Record<string, string | number | boolean | null> = {}) =>
  server.api.post("/api/v1/invites/multiuse", { as, params });
const keyOf = (link: string): string => /\/join\/([^/]+)\/$/.exec(link)![1]!;
const join = (key: string, email: string, fullName = "New Person", password = "a good password") =>
  server.api.post(`/join/${key}`, { params: { email, full_name: fullName, password } });

describe("POST /api/v1/invites/multiuse", () => {
  it("makes a link, lists it, and lets several people join through it into the default streams", async () => {
    const { iago } = server.users;
    const made = await invite(iago);
    expect(made.status).toBe(200);
    expect(Object.keys(made.body).sort()).toEqual(["invite_link", "msg", "result"]);
    expect(made.body.invite_link).toMatch(new RegExp(`^${server.url}/join/[A-Za-z0-9_-]{32}/$`));
    const key = keyOf(made.body.invite_link);

    const listed = await server.api.get("/api/v1/invites", { as: iago });
    expect(listed.body).toEqual({
      ...ok,
      invites: [
        {
          id: 1,
          invited_by_user_id: iago.id,
          invited: T0,
          expiry_date: T0 + 10 * 24 * 3600,
          invite_as: 400,
          is_multiuse: true,
        },
      ],
    });

    const status = await server.api.get(`/join/${key}/status`);
    expect(status.body).toEqual({ ...ok, realm_name: "Zulip Dev" });

    for (const email of ["rosalind@example.com", "orlando@example.com"]) {
      const joined = await join(key, email);
      expect(joined.status).toBe(200);
      expect(joined.body).toEqual({ ...ok, user_id: expect.any(Number), email });
      const login = await server.api.post("/api/v1/fetch_api_key", {
        params: { username: email, password: "a good password" },
      });
      expect(login.status).toBe(200);
      const subs = await server.api.get("/api/v1/users/me/subscriptions", {
        as: { email, apiKey: login.body.api_key },
      });
      expect(subs.body.subscriptions.map((s: { name: string }) => s.name).sort()).toEqual([
        "general",
        "lobby",
      ]);
      const me = await server.api.get(`/api/v1/users/${joined.body.user_id}`, { as: iago });
      expect([me.body.user.full_name, me.body.user.role]).toEqual(["New Person", 400]);
    }
  });

  it("makes a single-use link that one person can use, and gives the role asked for", async () => {
    const made = await invite(server.users.iago, { single_use: true, invite_as: 600 });
    const key = keyOf(made.body.invite_link);
    const listed = await server.api.get("/api/v1/invites", { as: server.users.iago });
    expect(listed.body.invites[0].is_multiuse).toBe(false);
    const joined = await join(key, "guest@example.com");
    expect(joined.status).toBe(200);
    const user = await server.api.get(`/api/v1/users/${joined.body.user_id}`, { as: server.users.iago });
    expect(user.body.user.role).toBe(600);
    const again = await join(key, "second@example.com");
    expect([again.status, again.body]).toEqual([400, GONE]);
    const status = await server.api.get(`/join/${key}/status`);
    expect([status.status, status.body]).toEqual([400, GONE]);
    expect((await server.api.get("/api/v1/invites", { as: server.users.iago })).body.invites).toEqual([]);
  });

  it("gives a single-use link back when the account cannot be made", async () => {
    const key = keyOf((await invite(server.users.iago, { single_use: true })).body.invite_link);
    const taken = await join(key, server.users.hamlet.email);
    expect([taken.status, taken.body]).toEqual([400, error("Email is already in use.")]);
    const empty = await join(key, "x@example.com", "X", "");
    expect([empty.status, empty.body]).toEqual([400, error("Password cannot be empty")]);
    const missing = await server.api.post(`/join/${key}`, {
      params: { email: "x@example.com", password: "p" },
    });
    expect([missing.status, missing.body]).toEqual([
      400,
      {
        result: "error",
        msg: "Missing 'full_name' argument",
        code: "REQUEST_VARIABLE_MISSING",
        var_name: "full_name",
      },
    ]);
    expect((await join(key, "x@example.com")).status).toBe(200);
  });

  it("expires a link after its minutes, and never with null", async () => {
    const { iago } = server.users;
    const short = keyOf((await invite(iago, { invite_expires_in_minutes: 60 })).body.invite_link);
    const forever = keyOf((await invite(iago, { invite_expires_in_minutes: null })).body.invite_link);
    const listed = await server.api.get("/api/v1/invites", { as: iago });
    expect(listed.body.invites.map((i: { expiry_date: number | null }) => i.expiry_date)).toEqual([
      T0 + 3600,
      null,
    ]);
    server.clock.advance(61 * 60 * 1000);
    expect((await join(short, "late@example.com")).body).toEqual(GONE);
    server.clock.advance(365 * 24 * 3600 * 1000);
    expect((await join(forever, "patient@example.com")).status).toBe(200);
  });

  it("refuses bad arguments", async () => {
    const { iago } = server.users;
    expect((await invite(iago, { invite_as: 123 })).body).toEqual(error("Invalid invite_as"));
    expect((await invite(iago, { invite_expires_in_minutes: 0 })).body).toEqual(
      error("Invalid invite_expires_in_minutes"),
    );
    expect((await invite(iago, { invite_expires_in_minutes: "soon" })).body).toEqual({
      result: "error",
      msg: 'Argument "invite_expires_in_minutes" is not valid JSON.',
      code: "BAD_REQUEST",
    });
    expect((await join("no-such-key", "a@example.com")).body).toEqual(GONE);
  });

  it("lets the members of can_invite_users_group invite one person, not bots or guests", async () => {
    const { iago, hamlet, othello, polonius } = server.users;
    const one = { single_use: true };
    expect((await invite(hamlet, one)).body).toEqual(error("Insufficient permission"));
    expect((await setGroup(iago, { new: 5 })).body).toEqual(ok);
    expect((await invite(hamlet, one)).status).toBe(200);
    // A reusable link is create_multiuse_invite_group's (administrators by default), as in Zulip.
    expect((await invite(hamlet)).body).toEqual(error("Insufficient permission"));
    expect((await invite(hamlet, { ...one, invite_as: 200 })).body).toEqual(
      error("Must be an organization administrator"),
    );
    expect((await invite(polonius, one)).body).toEqual(error("Insufficient permission"));
    const bot = await server.api.post("/api/v1/bots", {
      as: hamlet,
      params: { full_name: "Inviter", short_name: "inviter" },
    });
    expect(bot.status).toBe(200);
    const asBot: TestUser = {
      id: bot.body.user_id,
      fullName: "Inviter",
      email: bot.body.email,
      apiKey: bot.body.api_key,
    };
    expect((await invite(asBot, one)).body).toEqual(error("Insufficient permission"));
    await invite(iago);
    // A member sees their own links; an administrator sees all.
    expect((await server.api.get("/api/v1/invites", { as: hamlet })).body.invites.length).toBe(1);
    expect((await server.api.get("/api/v1/invites", { as: othello })).body.invites).toEqual([]);
    expect((await server.api.get("/api/v1/invites", { as: iago })).body.invites.length).toBe(2);
    expect((await setGroup(iago, { new: NOBODY, old: 5 })).body).toEqual(ok);
    expect((await invite(iago, one)).body).toEqual(error("Insufficient permission"));
  });

  it("lets the members of create_multiuse_invite_group make reusable links", async () => {
    const { iago, hamlet } = server.users;
    expect((await invite(hamlet)).body).toEqual(error("Insufficient permission"));
    const set = await server.api.patch("/api/v1/realm", {
      as: iago,
      params: { create_multiuse_invite_group: { new: 5, old: 2 } },
    });
    expect(set.body).toEqual(ok);
    expect((await invite(hamlet)).status).toBe(200);
    // Inviting one person is still can_invite_users_group's (administrators by default).
    expect((await invite(hamlet, { single_use: true })).body).toEqual(error("Insufficient permission"));
  });
});

const NOBODY = { direct_members: [], direct_subgroups: [] };
const setGroup = (as: TestUser, update: { new: unknown; old?: unknown }) =>
  server.api.patch("/api/v1/realm", { as, params: { can_invite_users_group: update } });
const invitePermission = async (as: TestUser) => {
  const reg = await registerQueue(server, as, { fetch_event_types: ["realm", "realm_user"] });
  return {
    realm_can_invite_users_group: reg.register.realm_can_invite_users_group,
    can_invite_others_to_realm: reg.register.can_invite_others_to_realm,
  };
};

describe("can_invite_users_group (who may make invitation links)", () => {
  it("is administrators by default, in register with its description", async () => {
    const { iago, hamlet } = server.users;
    const reg = await registerQueue(server, hamlet, { fetch_event_types: ["realm", "realm_user"] });
    expect(reg.register.server_supported_permission_settings.realm.can_invite_users_group).toEqual({
      require_system_group: false,
      allow_internet_group: false,
      allow_nobody_group: true,
      allow_everyone_group: false,
      default_group_name: "role:administrators",
      default_for_system_groups: null,
      allowed_system_groups: [],
    });
    expect(await invitePermission(hamlet)).toEqual({
      realm_can_invite_users_group: 2,
      can_invite_others_to_realm: false,
    });
    expect(await invitePermission(iago)).toEqual({
      realm_can_invite_users_group: 2,
      can_invite_others_to_realm: true,
    });
    expect((await invite(hamlet)).body).toEqual(error("Insufficient permission"));
  });

  it("PATCH /realm sets it for administrators, with a realm event, and a member may then invite", async () => {
    const { iago, hamlet } = server.users;
    const q = await registerQueue(server, hamlet, { event_types: ["realm"] });
    expect((await setGroup(hamlet, { new: 5 })).body).toEqual(error("Must be an organization administrator"));
    expect((await setGroup(iago, { new: 5, old: 2 })).body).toEqual(ok);
    expect(await drainEvents(q)).toEqual([
      { id: 0, type: "realm", op: "update_dict", property: "default", data: { can_invite_users_group: 5 } },
    ]);
    expect(await invitePermission(hamlet)).toEqual({
      realm_can_invite_users_group: 5,
      can_invite_others_to_realm: true,
    });
    const made = await invite(hamlet, { single_use: true });
    expect(made.status).toBe(200);
    expect(made.body).toEqual({ ...ok, invite_link: expect.stringMatching(/\/join\/[A-Za-z0-9_-]{32}\/$/) });
    // Setting the value it has sends nothing.
    expect((await setGroup(iago, { new: 5 })).body).toEqual(ok);
    expect(await drainEvents(q)).toEqual([]);
  });

  it("refuses values Zulip refuses", async () => {
    const { iago } = server.users;
    const refused = async (update: { new: unknown; old?: unknown }) => {
      const res = await setGroup(iago, update);
      return [res.status, res.body];
    };
    expect(await refused({ new: 6 })).toEqual([
      400,
      error("'can_invite_users_group' setting cannot be set to 'role:everyone' group."),
    ]);
    expect(await refused({ new: 7 })).toEqual([
      400,
      error("'can_invite_users_group' setting cannot be set to 'role:internet' group."),
    ]);
    expect(await refused({ new: 999 })).toEqual([400, error("Invalid user group ID: 999")]);
    expect(await refused({ new: { direct_members: [999], direct_subgroups: [] } })).toEqual([
      400,
      error("Invalid user ID: 999"),
    ]);
    expect(await refused({ new: 5, old: 4 })).toEqual([
      400,
      error("'old' value does not match the expected value."),
    ]);
    expect(await refused({ new: "members" })).toEqual([
      400,
      error("can_invite_users_group.new is not a valid group-setting value"),
    ]);
    expect((await invitePermission(iago)).realm_can_invite_users_group).toBe(2);
  });

  it("takes the legacy invite_to_realm_policy number and sets the group it stands for", async () => {
    const { iago, hamlet } = server.users;
    const q = await registerQueue(server, hamlet, { event_types: ["realm"] });
    const policy = (as: TestUser, value: number) =>
      server.api.patch("/api/v1/realm", { as, params: { invite_to_realm_policy: value } });
    expect((await policy(hamlet, 1)).body).toEqual(error("Must be an organization administrator"));
    expect((await policy(iago, 5)).body).toEqual(error("Invalid invite_to_realm_policy"));
    const groups: [number, unknown][] = [
      [1, 5],
      [3, 4],
      [4, 3],
      [6, NOBODY],
      [2, 2],
    ];
    for (const [value, group] of groups) {
      expect((await policy(iago, value)).body).toEqual(ok);
      expect((await invitePermission(iago)).realm_can_invite_users_group).toEqual(group);
    }
    // Both settings: one person's invitations and reusable links.
    expect((await drainEvents(q)).map((e) => e["data"])).toEqual(
      groups.map(([, group]) => ({ can_invite_users_group: group, create_multiuse_invite_group: group })),
    );
  });

  it("migration 113 converts a stored invite_to_realm_policy into the group setting", async () => {
    const { db } = server.running;
    const [realm] = await db.all<{ id: number }>("SELECT id FROM realms");
    /** The table as migration 060 made it, holding `policy` for the realm; then migration 113. */
    const migrateFrom = async (policy: number) => {
      await db.exec(
        "DELETE FROM realm_group_settings WHERE name IN ('can_invite_users_group', 'create_multiuse_invite_group')",
      );
      await db.exec(
        "CREATE TABLE realm_invite_policy (realm_id BIGINT PRIMARY KEY, policy INTEGER NOT NULL)",
      );
      await db.run("INSERT INTO realm_invite_policy (realm_id, policy) VALUES (?, ?)", [realm!.id, policy]);
      for (const statement of canInviteUsersGroup.up(ddlFor(db.dialect)).split(/;\s*\n/)) {
        await db.exec(statement);
      }
      const reg = await registerQueue(server, server.users.hamlet, { fetch_event_types: ["realm"] });
      return [reg.register.realm_can_invite_users_group, reg.register.realm_create_multiuse_invite_group];
    };
    const converted: unknown[] = [];
    for (const policy of [2, 3, 4, 6, 1]) converted.push(await migrateFrom(policy));
    expect(converted).toEqual([
      [2, 2],
      [4, 4],
      [3, 3],
      [NOBODY, NOBODY],
      [5, 5],
    ]);
    // After converting 1 (members), a member may invite one person and make reusable links.
    expect((await invite(server.users.hamlet, { single_use: true })).status).toBe(200);
    expect((await invite(server.users.hamlet)).status).toBe(200);
  });
});

describe("DELETE /api/v1/invites/multiuse/{invite_id}", () => {
  it("revokes a link, by its maker or an administrator only", async () => {
    const { iago, hamlet } = server.users;
    await server.api.patch("/api/v1/realm", {
      as: iago,
      params: { create_multiuse_invite_group: { new: 5 } },
    });
    const key = keyOf((await invite(iago)).body.invite_link);
    const [{ id }] = (await server.api.get("/api/v1/invites", { as: iago })).body.invites;
    const revoke = (as: TestUser, inviteId: number | string) =>
      server.api.delete(`/api/v1/invites/multiuse/${inviteId}`, { as });
    expect((await revoke(hamlet, id)).body).toEqual(error("Must be an organization administrator"));
    expect((await revoke(iago, id)).body).toEqual(ok);
    expect((await join(key, "late@example.com")).body).toEqual(GONE);
    expect((await revoke(iago, id)).body).toEqual(error("No such invitation"));
    expect((await revoke(iago, 999)).body).toEqual(error("No such invitation"));
    const notANumber = await revoke(iago, "abc");
    expect(notANumber.status).toBe(404);
    // The maker may revoke their own link.
    await invite(hamlet);
    const mine = (await server.api.get("/api/v1/invites", { as: hamlet })).body.invites[0].id;
    expect((await revoke(hamlet, mine)).body).toEqual(ok);
  });
});
