/**
 * The OpenAPI check itself: path templates, what passes and what fails, and the hook in the shared
 * test client. Bodies are written out literally (from Zulip's documentation), not taken from our server.
 */
import { createServer } from "node:http";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { apiClient } from "../helpers/client.js";
import { checkZulipSchema, endpointOf } from "../helpers/openapi.js";

describe("endpointOf", () => {
  it.each([
    ["GET", "/api/v1/messages/42/history?allow_empty_topic_name=true", "GET /messages/{message_id}/history"],
    ["PATCH", "/api/v1/messages/42", "PATCH /messages/{message_id}"],
    ["get", "/api/v1/users/me", "GET /users/me"],
    ["GET", "/api/v1/users/7", "GET /users/{user_id}"],
    ["GET", "/api/v1/users/hamlet%40zulip.com", "GET /users/{email}"],
    ["GET", "/api/v1/users/me/subscriptions", "GET /users/me/subscriptions"],
    ["PATCH", "/api/v1/users/me/subscriptions/muted_topics", "PATCH /users/me/subscriptions/muted_topics"],
    ["PATCH", "/api/v1/settings/notifications", "PATCH /settings/notifications"],
    ["DELETE", "/api/v1/events?queue_id=abc", "DELETE /events"],
  ])("maps %s %s to %s", (method, path, endpoint) => {
    expect(endpointOf(method, path)).toBe(endpoint);
  });

  it.each([
    ["GET", "/api/v1/bots"],
    ["POST", "/api/v1/external/helloworld?api_key=x"],
    ["GET", "/api/v1/messages/abc/history"],
    ["PUT", "/api/v1/messages"],
    ["GET", "/json/users"],
  ])("has no schema for %s %s", (method, path) => {
    expect(endpointOf(method, path)).toBeUndefined();
  });
});

describe("checkZulipSchema", () => {
  const user = {
    user_id: 10,
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
    date_joined: "2026-01-01T00:00:00.000+00:00",
    is_active: true,
  };

  it("accepts a response of Zulip's documented shape", () => {
    expect(
      checkZulipSchema("GET", "/api/v1/users/10", 200, { result: "success", msg: "", user }),
    ).toBeUndefined();
  });

  it("names an unexpected field and a wrong type", () => {
    const body = { result: "success", msg: "", user: { ...user, user_id: "10", nickname: "H" } };
    const m = checkZulipSchema("GET", "/api/v1/users/10", 200, body);
    expect({ ...m, problems: [...(m?.problems ?? [])].sort() }).toEqual({
      endpoint: "GET /users/{user_id}",
      zulip: "GET /users/{user_id}",
      status: 200,
      problems: ["/user/user_id: must be integer", '/user: unexpected field "nickname"'],
    });
  });

  it("rejects an error body on a success status", () => {
    const m = checkZulipSchema("POST", "/api/v1/mark_all_as_read", 200, { result: "error", msg: "x" });
    expect(m?.problems).toEqual(['/result: must be equal to one of the allowed values ["success"]']);
  });

  it("accepts an error with a code and its data fields, and rejects one without a code", () => {
    const queueError = {
      result: "error",
      msg: "Bad event queue id: 1",
      code: "BAD_EVENT_QUEUE_ID",
      queue_id: "1",
    };
    expect(checkZulipSchema("GET", "/api/v1/events", 400, queueError)).toBeUndefined();
    const m = checkZulipSchema("GET", "/api/v1/events", 400, {
      result: "error",
      msg: "Bad event queue id: 1",
    });
    expect(m?.problems).toEqual([
      "matches none of Zulip's error schemas; closest:",
      '(body): missing field "code"',
    ]);
  });

  it("types the error data fields Zulip documents", () => {
    const body = {
      result: "error",
      msg: "Missing 'x' argument",
      code: "REQUEST_VARIABLE_MISSING",
      var_name: 3,
    };
    expect(checkZulipSchema("POST", "/api/v1/messages", 400, body)).toBeDefined();
  });

  it("accepts a fractional retry-after, as Zulip's own example has", () => {
    const body = {
      result: "error",
      msg: "API usage exceeded rate limit",
      code: "RATE_LIMIT_HIT",
      "retry-after": 28.7,
    };
    expect(checkZulipSchema("GET", "/api/v1/users/me", 429, body)).toBeUndefined();
  });

  it("does not judge a server error or a body that is not JSON on an unknown path", () => {
    expect(
      checkZulipSchema("GET", "/api/v1/users", 500, { result: "error", msg: "Internal server error" }),
    ).toBe(undefined);
    expect(checkZulipSchema("GET", "/api/v1/bots", 200, undefined)).toBeUndefined();
  });

  it("fails a success answer that is not JSON", () => {
    expect(checkZulipSchema("GET", "/api/v1/users", 200, undefined)?.problems).toEqual([
      "the body is not JSON",
    ]);
  });

  it("applies the spec's overrides: subscription_data echoed, typed as Zulip's request parameter", () => {
    const echo = (value: unknown) => ({
      result: "success",
      msg: "",
      subscription_data: [{ stream_id: 1, property: "pin_to_top", value }],
    });
    expect(
      checkZulipSchema("POST", "/api/v1/users/me/subscriptions/properties", 200, echo(true)),
    ).toBeUndefined();
    expect(checkZulipSchema("POST", "/api/v1/users/me/subscriptions/properties", 200, echo(3))).toBeDefined();
  });

  it("answers the changed notification settings with their types", () => {
    const ok = { result: "success", msg: "", enable_sounds: false, desktop_icon_count_display: 2 };
    expect(checkZulipSchema("PATCH", "/api/v1/settings/notifications", 200, ok)).toBeUndefined();
    const bad = { result: "success", msg: "", enable_sounds: "no" };
    expect(checkZulipSchema("PATCH", "/api/v1/settings/notifications", 200, bad)?.problems).toEqual([
      "/enable_sounds: must be boolean",
    ]);
  });

  it("names an event type no event schema has", () => {
    const body = { result: "success", msg: "", events: [{ id: 0, type: "no_such_event" }] };
    expect(checkZulipSchema("GET", "/api/v1/events", 200, body)?.problems).toEqual([
      'no alternative of the schema accepts /events/0: type "no_such_event"',
    ]);
  });

  it("accepts a heartbeat event", () => {
    const body = { result: "success", msg: "", events: [{ id: 3, type: "heartbeat" }] };
    expect(checkZulipSchema("GET", "/api/v1/events", 200, body)).toBeUndefined();
  });
});

describe("the shared test client", () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    // A fake server that answers POST /api/v1/users with a user_id of the wrong type.
    server = createServer((_req, res) => {
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ result: "success", msg: "", user_id: "12" }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("fails the request with the endpoint and the problems", async () => {
    await expect(apiClient(url).post("/api/v1/users", { params: { email: "a@b.c" } })).rejects.toThrow(
      "Response to POST /api/v1/users (POST /users, HTTP 200) does not match Zulip's OpenAPI schema for " +
        "POST /users (test/data/openapi-schemas.json):\n  - /user_id: must be integer\n",
    );
  });

  it("lets a request opt out", async () => {
    const res = await apiClient(url).post("/api/v1/users", { skipSchemaCheck: true });
    expect(res.body).toEqual({ result: "success", msg: "", user_id: "12" });
  });

  it("does not check paths without a schema", async () => {
    const res = await apiClient(url).get("/api/v1/bots");
    expect(res.status).toBe(200);
  });
});
