import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import type { TestUser } from "../helpers/test-server.js";
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

  it("follows the realm's invite policy", async () => {
    const { iago, hamlet, othello, polonius } = server.users;
    expect((await invite(hamlet)).body).toEqual(error("Insufficient permission"));
    const policy = (as: TestUser, value: number) =>
      server.api.patch("/api/v1/realm", { as, params: { invite_to_realm_policy: value } });
    expect((await policy(hamlet, 1)).body).toEqual(error("Must be an organization administrator"));
    expect((await policy(iago, 5)).body).toEqual(error("Invalid invite_to_realm_policy"));
    expect((await policy(iago, 1)).body).toEqual(ok);
    expect((await invite(hamlet)).status).toBe(200);
    expect((await invite(hamlet, { invite_as: 200 })).body).toEqual(
      error("Must be an organization administrator"),
    );
    expect((await invite(polonius)).body).toEqual(error("Insufficient permission"));
    await invite(iago);
    // A member sees their own links; an administrator sees all.
    expect((await server.api.get("/api/v1/invites", { as: hamlet })).body.invites.length).toBe(1);
    expect((await server.api.get("/api/v1/invites", { as: othello })).body.invites).toEqual([]);
    expect((await server.api.get("/api/v1/invites", { as: iago })).body.invites.length).toBe(2);
    expect((await policy(iago, 6)).body).toEqual(ok);
    expect((await invite(iago)).body).toEqual(error("Insufficient permission"));
  });
});

describe("DELETE /api/v1/invites/multiuse/{invite_id}", () => {
  it("revokes a link, by its maker or an administrator only", async () => {
    const { iago, hamlet } = server.users;
    await server.api.patch("/api/v1/realm", { as: iago, params: { invite_to_realm_policy: 1 } });
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
