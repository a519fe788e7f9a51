import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer } from "../helpers/test-server.js";

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({
    config: { bodyLimitBytes: 1024, rateLimit: { windowSeconds: 60, maxRequests: 3 } },
  });
});
afterAll(async () => {
  await t.close();
});

describe("error responses", () => {
  it("answers an unknown endpoint with a JSON 404", async () => {
    const res = await t.api.get("/api/v1/no/such/endpoint", { as: t.users.hamlet });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ result: "error", msg: "Not Found", code: "NOT_FOUND" });
  });

  it("answers a wrong method with 405 and the allowed methods", async () => {
    const res = await t.api.put("/api/v1/server_settings");
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("HEAD, GET");
    expect(res.body).toEqual({
      result: "error",
      msg: "Method Not Allowed",
      code: "METHOD_NOT_ALLOWED",
      allowed_methods: ["HEAD", "GET"],
    });
  });

  it("answers an oversized body with 413", async () => {
    const res = await t.api.post("/api/v1/fetch_api_key", {
      params: { username: "x".repeat(2000), password: "y" },
    });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({
      result: "error",
      msg: "Request body too large (limit: 1024 bytes)",
      code: "REQUEST_TOO_LARGE",
    });
  });

  it("rate-limits each user with X-RateLimit headers and a 429", async () => {
    const first = await t.api.get("/api/v1/users/me", { as: t.users.othello });
    expect(first.headers.get("x-ratelimit-limit")).toBe("3");
    expect(first.headers.get("x-ratelimit-remaining")).toBe("2");
    await t.api.get("/api/v1/users/me", { as: t.users.othello });
    await t.api.get("/api/v1/users/me", { as: t.users.othello });
    const limited = await t.api.get("/api/v1/users/me", { as: t.users.othello });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(limited.body).toEqual({
      result: "error",
      msg: "API usage exceeded rate limit",
      code: "RATE_LIMIT_HIT",
      "retry-after": limited.body["retry-after"],
    });
    // Another user has a budget of their own.
    const other = await t.api.get("/api/v1/users/me", { as: t.users.cordelia });
    expect(other.status).toBe(200);
  });
});

describe("GET /api/v1/server_settings", () => {
  it("answers without authentication with every field of the seed", async () => {
    const res = await t.api.get("/api/v1/server_settings");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      result: "success",
      msg: "",
      authentication_methods: {
        azuread: false,
        dev: false,
        email: true,
        github: false,
        google: false,
        ldap: false,
        password: true,
        remoteuser: false,
        saml: false,
        "openid connect": false,
      },
      external_authentication_methods: [],
      zulip_version: "11.0",
      zulip_feature_level: 421,
      zulip_merge_base: "11.0",
      service_version: "11.0",
      push_notifications_enabled: false,
      is_incompatible: false,
      email_auth_enabled: true,
      require_email_format_usernames: true,
      realm_uri: t.url,
      realm_url: t.url,
      realm_name: "Zulip Dev",
      realm_icon: `${t.url}/static/images/logo/zulip-icon-128x128.png`,
      realm_description: "",
      realm_web_public_access_enabled: false,
    });
  });
});
