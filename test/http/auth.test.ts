import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { OWNER_PASSWORD, startTestServer } from "../helpers/test-server.js";
import type { TestServer } from "../helpers/test-server.js";

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

const unauthorized = (msg: string): Record<string, unknown> => ({
  result: "error",
  msg,
  code: "UNAUTHORIZED",
});

describe("HTTP Basic authentication", () => {
  it("answers 401 with WWW-Authenticate when credentials are missing", async () => {
    const res = await t.api.get("/api/v1/users/me");
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe('Basic realm="zulip"');
    expect(res.body).toEqual(unauthorized("Not logged in: API authentication or user session required"));
  });

  it("answers 400 for a scheme other than Basic", async () => {
    const res = await t.api.get("/api/v1/users/me", { headers: { authorization: "Bearer abc" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      result: "error",
      msg: "This endpoint requires HTTP basic authentication.",
      code: "BAD_REQUEST",
    });
  });

  it("answers 401 for an undecodable Basic header", async () => {
    const res = await t.api.get("/api/v1/users/me", { headers: { authorization: "Basic !!!" } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(unauthorized("Invalid authorization header for basic auth"));
    const noColon = await t.api.get("/api/v1/users/me", {
      headers: { authorization: "Basic " + Buffer.from("just-an-email").toString("base64") },
    });
    expect(noColon.body).toEqual(unauthorized("Invalid authorization header for basic auth"));
  });

  it("answers 401 Malformed API key, then Invalid API key", async () => {
    const malformed = await t.api.get("/api/v1/users/me", {
      as: { email: t.users.hamlet.email, apiKey: "short" },
    });
    expect(malformed.status).toBe(401);
    expect(malformed.body).toEqual(unauthorized("Malformed API key"));
    const wrong = await t.api.get("/api/v1/users/me", {
      as: { email: t.users.hamlet.email, apiKey: "A".repeat(32) },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual(unauthorized("Invalid API key"));
    const otherUsersKey = await t.api.get("/api/v1/users/me", {
      as: { email: t.users.hamlet.email, apiKey: t.users.othello.apiKey },
    });
    expect(otherUsersKey.body).toEqual(unauthorized("Invalid API key"));
    const unknownEmail = await t.api.get("/api/v1/users/me", {
      as: { email: "nobody@zulip.com", apiKey: t.users.othello.apiKey },
    });
    expect(unknownEmail.body).toEqual(unauthorized("Invalid API key"));
  });

  it("accepts the email case-insensitively", async () => {
    const res = await t.api.get("/api/v1/users/me", {
      as: { email: "HAMLET@Zulip.com", apiKey: t.users.hamlet.apiKey },
    });
    expect(res.status).toBe(200);
    expect(res.body.email).toBe("hamlet@zulip.com");
  });

  it("refuses deactivated users", async () => {
    const created = await t.api.post("/api/v1/users", {
      as: t.users.iago,
      params: { email: "leaving@zulip.com", password: "pw-leaving", full_name: "Leaving Soon" },
    });
    const key = await t.api.post("/api/v1/fetch_api_key", {
      params: { username: "leaving@zulip.com", password: "pw-leaving" },
    });
    await t.running.db.run("UPDATE users SET is_active = 0 WHERE id = ?", [created.body.user_id as number]);
    const res = await t.api.get("/api/v1/users/me", {
      as: { email: "leaving@zulip.com", apiKey: key.body.api_key },
    });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(unauthorized("Account is deactivated"));
    const fetch = await t.api.post("/api/v1/fetch_api_key", {
      params: { username: "leaving@zulip.com", password: "pw-leaving" },
    });
    expect(fetch.status).toBe(401);
    expect(fetch.body).toEqual({ result: "error", msg: "Account is deactivated", code: "USER_DEACTIVATED" });
  });

  it("keeps incoming webhook bots to sending messages", async () => {
    const res = await t.api.get("/api/v1/users", { as: t.users.webhookBot });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(unauthorized("This API is not available to incoming webhook bots."));
  });
});

describe("POST /api/v1/fetch_api_key", () => {
  it("returns the key for the right password", async () => {
    const res = await t.api.post("/api/v1/fetch_api_key", {
      params: { username: "iago@zulip.com", password: OWNER_PASSWORD },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      result: "success",
      msg: "",
      api_key: t.users.iago.apiKey,
      email: "iago@zulip.com",
      user_id: t.users.iago.id,
    });
  });

  it("answers 401 AUTHENTICATION_FAILED for a wrong password or unknown user", async () => {
    const res = await t.api.post("/api/v1/fetch_api_key", {
      params: { username: "othello@zulip.com", password: "nope" },
    });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({
      result: "error",
      msg: "Your username or password is incorrect",
      code: "AUTHENTICATION_FAILED",
    });
    const unknown = await t.api.post("/api/v1/fetch_api_key", {
      params: { username: "ghost@zulip.com", password: "x" },
    });
    expect(unknown.body.code).toBe("AUTHENTICATION_FAILED");
  });

  it("limits failed attempts per username to 5 in 30 minutes", async () => {
    for (let i = 0; i < 5; i++) {
      const r = await t.api.post("/api/v1/fetch_api_key", {
        params: { username: "cordelia@zulip.com", password: "bad" },
      });
      expect(r.status).toBe(401);
    }
    const limited = await t.api.post("/api/v1/fetch_api_key", {
      params: { username: "cordelia@zulip.com", password: "cordelia@zulip.com-password" },
    });
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe("RATE_LIMIT_HIT");
    expect(limited.body.msg).toBe("API usage exceeded rate limit");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(1700);
  });

  it("names the missing argument", async () => {
    const res = await t.api.post("/api/v1/fetch_api_key", { params: { username: "iago@zulip.com" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      result: "error",
      msg: "Missing 'password' argument",
      code: "REQUEST_VARIABLE_MISSING",
      var_name: "password",
    });
  });
});

describe("request encodings", () => {
  it("reads arguments from JSON bodies", async () => {
    const res = await t.api.post("/api/v1/fetch_api_key", {
      body: JSON.stringify({ username: "iago@zulip.com", password: OWNER_PASSWORD }),
      headers: { "content-type": "application/json" },
    });
    expect(res.body.api_key).toBe(t.users.iago.apiKey);
  });

  it("reads arguments from multipart bodies (zulip-js sends these)", async () => {
    const form = new FormData();
    form.append("username", "iago@zulip.com");
    form.append("password", OWNER_PASSWORD);
    const res = await fetch(`${t.url}/api/v1/fetch_api_key`, { method: "POST", body: form });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { api_key: string }).api_key).toBe(t.users.iago.apiKey);
  });

  it("reads arguments from the query string of a POST", async () => {
    const q = new URLSearchParams({ username: "iago@zulip.com", password: OWNER_PASSWORD });
    const res = await t.api.post(`/api/v1/fetch_api_key?${q.toString()}`);
    expect(res.body.api_key).toBe(t.users.iago.apiKey);
  });

  it("answers 400 Malformed JSON for a broken JSON body", async () => {
    const res = await t.api.post("/api/v1/fetch_api_key", {
      body: "{nope",
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: "error", msg: "Malformed JSON", code: "INVALID_JSON" });
  });
});
