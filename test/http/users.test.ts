import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer } from "../helpers/test-server.js";

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

const gravatar = (hash: string): string => `https://secure.gravatar.com/avatar/${hash}?d=identicon&version=1`;

describe("GET /api/v1/users", () => {
  it("lists every user and bot with the seed's User fields", async () => {
    const res = await t.api.get("/api/v1/users", { as: t.users.hamlet, params: { client_gravatar: true } });
    expect(res.status).toBe(200);
    expect(res.body.result).toBe("success");
    expect(res.body.msg).toBe("");
    const byEmail = new Map<string, Record<string, unknown>>(
      (res.body.members as Record<string, unknown>[]).map((m) => [m["email"] as string, m]),
    );
    expect([...byEmail.keys()]).toEqual([
      "iago@zulip.com",
      "notification-bot@zulip.com",
      "hamlet@zulip.com",
      "othello@zulip.com",
      "cordelia@zulip.com",
      "polonius@zulip.com",
      "webhook-bot@zulip.com",
    ]);
    const hamlet = byEmail.get("hamlet@zulip.com")!;
    expect(hamlet).toEqual({
      user_id: t.users.hamlet.id,
      email: "hamlet@zulip.com",
      full_name: "King Hamlet",
      is_bot: false,
      is_admin: false,
      is_owner: false,
      is_guest: false,
      role: 400,
      bot_type: null,
      avatar_url: null,
      avatar_version: 1,
      timezone: "",
      date_joined: hamlet["date_joined"],
      is_active: true,
    });
    expect(hamlet["date_joined"]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/);
    const bot = byEmail.get("webhook-bot@zulip.com")!;
    expect(bot).toMatchObject({
      is_bot: true,
      bot_type: 2,
      bot_owner_id: t.users.iago.id,
      bot_owner: "iago@zulip.com",
      full_name: "Zulip Webhook Bot",
    });
    expect(byEmail.get("polonius@zulip.com")).toMatchObject({ is_guest: true, role: 600 });
    expect(byEmail.get("iago@zulip.com")).toMatchObject({ is_admin: true, is_owner: true, role: 100 });
  });

  it("gives gravatar URLs unless client_gravatar is true", async () => {
    const res = await t.api.get("/api/v1/users", { as: t.users.hamlet });
    const hamlet = (res.body.members as Record<string, unknown>[]).find(
      (m) => m["email"] === "hamlet@zulip.com",
    )!;
    // md5("hamlet@zulip.com"), computed with md5sum
    expect(hamlet["avatar_url"]).toBe(gravatar("6d8cad0fd00256e7b40691d27ddfd466"));
  });

  it("includes profile_data for humans when include_custom_profile_fields is true", async () => {
    const created = await t.api.post("/api/v1/realm/profile_fields", {
      as: t.users.iago,
      params: { name: "Phone number", hint: "Your phone", field_type: 1 },
    });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ result: "success", msg: "", id: created.body.id });
    const fieldId = created.body.id as number;
    const set = await t.api.patch("/api/v1/users/me/profile_data", {
      as: t.users.hamlet,
      params: { data: [{ id: fieldId, value: "+1-555-0100" }] },
    });
    expect(set.body).toEqual({ result: "success", msg: "" });

    const res = await t.api.get("/api/v1/users", {
      as: t.users.othello,
      params: { include_custom_profile_fields: true, client_gravatar: true },
    });
    const members = res.body.members as Record<string, unknown>[];
    expect(members.find((m) => m["email"] === "hamlet@zulip.com")!["profile_data"]).toEqual({
      [String(fieldId)]: { value: "+1-555-0100" },
    });
    expect(members.find((m) => m["email"] === "othello@zulip.com")!["profile_data"]).toEqual({});
    expect(members.find((m) => m["email"] === "webhook-bot@zulip.com")!["profile_data"]).toBeUndefined();

    const fields = await t.api.get("/api/v1/realm/profile_fields", { as: t.users.hamlet });
    expect(fields.body).toEqual({
      result: "success",
      msg: "",
      custom_fields: [
        {
          id: fieldId,
          name: "Phone number",
          type: 1,
          hint: "Your phone",
          field_data: "",
          order: 1,
          required: false,
          editable_by_user: true,
        },
      ],
    });
  });

  it("refuses profile fields from non-administrators and unknown field ids", async () => {
    const res = await t.api.post("/api/v1/realm/profile_fields", {
      as: t.users.hamlet,
      params: { name: "Team", field_type: 1 },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      result: "error",
      msg: "Must be an organization administrator",
      code: "UNAUTHORIZED_PRINCIPAL",
    });
    const bad = await t.api.patch("/api/v1/users/me/profile_data", {
      as: t.users.hamlet,
      params: { data: [{ id: 9999, value: "x" }] },
    });
    expect(bad.body).toEqual({ result: "error", msg: "Field id 9999 not found.", code: "BAD_REQUEST" });
  });

  it("answers 400 naming a malformed boolean argument", async () => {
    const res = await t.api.get("/api/v1/users?client_gravatar=maybe", { as: t.users.hamlet });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      result: "error",
      msg: 'Argument "client_gravatar" is not valid JSON.',
      code: "BAD_REQUEST",
    });
    const notBool = await t.api.get("/api/v1/users?client_gravatar=3", { as: t.users.hamlet });
    expect(notBool.body).toEqual({
      result: "error",
      msg: "client_gravatar is not a boolean",
      code: "BAD_REQUEST",
    });
  });
});

describe("GET /api/v1/users/{id} and /users/me", () => {
  it("returns one user by id and by email", async () => {
    const res = await t.api.get(`/api/v1/users/${t.users.othello.id}`, {
      as: t.users.hamlet,
      params: { client_gravatar: true },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      result: "success",
      msg: "",
      user: {
        user_id: t.users.othello.id,
        email: "othello@zulip.com",
        full_name: "Othello, the Moor of Venice",
        is_bot: false,
        is_admin: false,
        is_owner: false,
        is_guest: false,
        role: 400,
        bot_type: null,
        avatar_url: null,
        avatar_version: 1,
        timezone: "",
        date_joined: res.body.user.date_joined,
        is_active: true,
      },
    });
    const byEmail = await t.api.get("/api/v1/users/othello@zulip.com", { as: t.users.hamlet });
    expect(byEmail.body.user.user_id).toBe(t.users.othello.id);
  });

  it("answers No such user for an unknown id", async () => {
    const res = await t.api.get("/api/v1/users/424242", { as: t.users.hamlet });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: "error", msg: "No such user", code: "BAD_REQUEST" });
  });

  it("flattens the caller into /users/me with max_message_id", async () => {
    const res = await t.api.get("/api/v1/users/me", { as: t.users.cordelia });
    expect(res.body).toMatchObject({
      result: "success",
      msg: "",
      user_id: t.users.cordelia.id,
      email: "cordelia@zulip.com",
      full_name: "Cordelia, Lear's daughter",
      is_admin: false,
      is_bot: false,
      profile_data: {},
    });
    expect(typeof res.body.max_message_id).toBe("number");
  });

  it("answers a bot's /users/me with the fields of Zulip's schema, no bot fields", async () => {
    const made = await t.api.post("/api/v1/bots", {
      as: t.users.hamlet,
      params: { full_name: "Reporter", short_name: "reporter" },
    });
    expect(made.status).toBe(200);
    const bot = {
      id: made.body.user_id,
      email: made.body.email,
      apiKey: made.body.api_key,
      fullName: "Reporter",
    };
    const res = await t.api.get("/api/v1/users/me", { as: bot });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      result: "success",
      msg: "",
      user_id: bot.id,
      email: bot.email,
      delivery_email: bot.email,
      full_name: "Reporter",
      is_bot: true,
      is_admin: false,
      is_owner: false,
      is_guest: false,
      is_active: true,
      role: 400,
      avatar_url: res.body.avatar_url,
      avatar_version: 1,
      timezone: "",
      date_joined: res.body.date_joined,
      max_message_id: res.body.max_message_id,
    });
  });
});

describe("POST /api/v1/users", () => {
  it("lets an administrator create a user who can then fetch an API key", async () => {
    const res = await t.api.post("/api/v1/users", {
      as: t.users.iago,
      params: { email: "newbie@zulip.com", password: "s3cret-pass", full_name: "New Bie" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: "success", msg: "", user_id: res.body.user_id });
    const key = await t.api.post("/api/v1/fetch_api_key", {
      params: { username: "newbie@zulip.com", password: "s3cret-pass" },
    });
    expect(key.body).toEqual({
      result: "success",
      msg: "",
      api_key: key.body.api_key,
      email: "newbie@zulip.com",
      user_id: res.body.user_id,
    });
    expect(key.body.api_key).toMatch(/^[A-Za-z0-9]{32}$/);
    const me = await t.api.get("/api/v1/users/me", {
      as: { email: "newbie@zulip.com", apiKey: key.body.api_key },
    });
    expect(me.body.full_name).toBe("New Bie");
  });

  it("subscribes the new user to the organization's default streams", async () => {
    const res = await t.api.post("/api/v1/users", {
      as: t.users.iago,
      params: { email: "joiner@zulip.com", password: "joiner-pass", full_name: "Joiner" },
    });
    expect(res.status).toBe(200);
    const key = await t.api.post("/api/v1/fetch_api_key", {
      params: { username: "joiner@zulip.com", password: "joiner-pass" },
    });
    const subs = await t.api.get("/api/v1/users/me/subscriptions", {
      as: { email: "joiner@zulip.com", apiKey: key.body.api_key },
    });
    expect(subs.status).toBe(200);
    expect((subs.body.subscriptions as { name: string }[]).map((s) => s.name)).toEqual(["general"]);
    const members = await t.api.get("/api/v1/streams/1/members", { as: t.users.iago });
    expect(members.body.subscribers).toContain(res.body.user_id);
  });

  it("refuses non-administrators, duplicate emails, bad emails and missing arguments", async () => {
    const member = await t.api.post("/api/v1/users", {
      as: t.users.hamlet,
      params: { email: "x@zulip.com", password: "p", full_name: "X" },
    });
    expect(member.status).toBe(400);
    expect(member.body).toEqual({
      result: "error",
      msg: "Must be an organization administrator",
      code: "UNAUTHORIZED_PRINCIPAL",
    });
    const dup = await t.api.post("/api/v1/users", {
      as: t.users.iago,
      params: { email: "HAMLET@zulip.com", password: "p", full_name: "Another Hamlet" },
    });
    expect(dup.body).toEqual({ result: "error", msg: "Email is already in use.", code: "BAD_REQUEST" });
    const bad = await t.api.post("/api/v1/users", {
      as: t.users.iago,
      params: { email: "not-an-email", password: "p", full_name: "Nobody" },
    });
    expect(bad.body).toEqual({ result: "error", msg: "Invalid email 'not-an-email'", code: "BAD_REQUEST" });
    const missing = await t.api.post("/api/v1/users", { as: t.users.iago, params: { email: "y@zulip.com" } });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({
      result: "error",
      msg: "Missing 'full_name' argument",
      code: "REQUEST_VARIABLE_MISSING",
      var_name: "full_name",
    });
  });

  it("creates one user when two administrators ask for the same email at once; the other is refused", async () => {
    // Both pass the "is the email free?" check before either writes (the password hash takes a
    // while between them): the insert decides, and the loser was a 500.
    const answers = await Promise.all(
      [t.users.iago, t.users.iago, t.users.iago].map((as) =>
        t.api.post("/api/v1/users", {
          as,
          params: { email: "twice@zulip.com", password: "a-long-password", full_name: "Twice" },
        }),
      ),
    );
    const created = answers.filter((a) => a.status === 200);
    expect(created).toHaveLength(1);
    expect(answers.filter((a) => a.status !== 200).map((a) => [a.status, a.body])).toEqual([
      [400, { result: "error", msg: "Email is already in use.", code: "BAD_REQUEST" }],
      [400, { result: "error", msg: "Email is already in use.", code: "BAD_REQUEST" }],
    ]);
    const users = await t.api.get("/api/v1/users", { as: t.users.iago });
    expect(
      (users.body.members as { email: string; user_id: number }[]).filter(
        (u) => u.email === "twice@zulip.com",
      ),
    ).toEqual([expect.objectContaining({ user_id: created[0]!.body.user_id })]);
  });
});

describe("POST /api/v1/bots and GET /api/v1/bots", () => {
  it("creates an outgoing webhook bot whose owner sees its key and service token", async () => {
    const res = await t.api.post("/api/v1/bots", {
      as: t.users.cordelia,
      params: {
        full_name: "Echo Bot",
        short_name: "echo",
        bot_type: 3,
        payload_url: JSON.stringify("http://127.0.0.1:5002/"),
        interface_type: 1,
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      result: "success",
      msg: "",
      user_id: res.body.user_id,
      email: "echo-bot@zulip.com",
      api_key: res.body.api_key,
      avatar_url: res.body.avatar_url,
      default_sending_stream: null,
      default_events_register_stream: null,
      default_all_public_streams: false,
      services: [{ base_url: "http://127.0.0.1:5002/", interface: 1, token: res.body.services[0].token }],
    });
    const list = await t.api.get("/api/v1/bots", { as: t.users.cordelia });
    expect(list.body.bots).toHaveLength(1);
    expect(list.body.bots[0]).toMatchObject({
      user_id: res.body.user_id,
      username: "echo-bot@zulip.com",
      full_name: "Echo Bot",
      bot_type: 3,
      api_key: res.body.api_key,
      owner_id: t.users.cordelia.id,
      services: [{ base_url: "http://127.0.0.1:5002/", interface: 1, token: res.body.services[0].token }],
    });
    const others = await t.api.get("/api/v1/bots", { as: t.users.othello });
    expect(others.body).toEqual({ result: "success", msg: "", bots: [] });
    const users = await t.api.get(`/api/v1/users/${res.body.user_id}`, { as: t.users.othello });
    expect(users.body.user).toMatchObject({
      bot_type: 3,
      bot_owner_id: t.users.cordelia.id,
      bot_owner: "cordelia@zulip.com",
    });
  });

  it("rejects bad bot names, taken usernames, unknown types and bots creating bots", async () => {
    const bad = await t.api.post("/api/v1/bots", {
      as: t.users.othello,
      params: { full_name: "B", short_name: "a b" },
    });
    expect(bad.body).toEqual({ result: "error", msg: "Bad name or username", code: "BAD_REQUEST" });
    const taken = await t.api.post("/api/v1/bots", {
      as: t.users.othello,
      params: { full_name: "Another webhook", short_name: "webhook" },
    });
    expect(taken.body).toEqual({ result: "error", msg: "Username already in use", code: "BAD_REQUEST" });
    const type = await t.api.post("/api/v1/bots", {
      as: t.users.othello,
      params: { full_name: "Typed", short_name: "typed", bot_type: 9 },
    });
    expect(type.body).toEqual({ result: "error", msg: "Invalid bot type", code: "BAD_REQUEST" });
    const url = await t.api.post("/api/v1/bots", {
      as: t.users.othello,
      params: { full_name: "Hook", short_name: "hook", bot_type: 3, payload_url: "not a url" },
    });
    expect(url.body).toEqual({ result: "error", msg: "payload_url is not a URL", code: "BAD_REQUEST" });
    const generic = await t.api.post("/api/v1/bots", {
      as: t.users.othello,
      params: { full_name: "Generic Helper", short_name: "generic" },
    });
    const fromBot = await t.api.post("/api/v1/bots", {
      as: { email: generic.body.email, apiKey: generic.body.api_key },
      params: { full_name: "Child", short_name: "child" },
    });
    expect(fromBot.body).toEqual({
      result: "error",
      msg: "This endpoint does not accept bot requests.",
      code: "BAD_REQUEST",
    });
  });
});
