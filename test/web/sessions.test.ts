import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "@jest/globals";
import { ManualClock } from "../../src/clock.js";
import { startServer } from "../../src/server.js";
import { silentLogger } from "../../src/lib/logger.js";
import { basicAuthHeader } from "../helpers/client.js";
import { freshPostgresSchema, postgresAvailable } from "../helpers/postgres.js";
import { OWNER_PASSWORD, startTestServer } from "../helpers/test-server.js";
import type { TestServer } from "../helpers/test-server.js";

const pgUp = await postgresAvailable();

const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: https:; connect-src 'self'; " +
  "font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

let server: TestServer;
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function start(opts: Parameters<typeof startTestServer>[0] = {}): Promise<TestServer> {
  server = await startTestServer(opts);
  cleanups.push(() => server.close());
  return server;
}

function setCookies(res: Response): string[] {
  return res.headers.getSetCookie();
}

function cookieValue(res: Response, name: string): string | undefined {
  for (const line of setCookies(res)) {
    const [pair] = line.split(";");
    if (pair!.startsWith(`${name}=`)) return pair!.slice(name.length + 1);
  }
  return undefined;
}

async function login(
  url: string,
  username: string,
  password: string,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${url}/login`, {
    method: "POST",
    headers: {
      cookie: "csrftoken=abc",
      "x-csrftoken": "abc",
      "content-type": "application/x-www-form-urlencoded",
      ...headers,
    },
    body: new URLSearchParams({ username, password }).toString(),
  });
}

/** Signs in and returns the cookie header and CSRF token the browser would then send. */
async function session(url: string, email: string, password: string) {
  const res = await login(url, email, password);
  expect(res.status).toBe(200);
  const id = cookieValue(res, "sessionid")!;
  const csrf = cookieValue(res, "csrftoken")!;
  return { cookie: `sessionid=${id}; csrftoken=${csrf}`, csrf };
}

describe("web pages", () => {
  it("serves the sign-in page with the security headers and a CSRF cookie", async () => {
    const { url } = await start();
    const res = await fetch(`${url}/login`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("content-security-policy")).toBe(CSP);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("referrer-policy")).toBe("same-origin");
    expect(setCookies(res)).toEqual([
      expect.stringMatching(/^csrftoken=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=1209600; SameSite=Lax$/),
    ]);
  });

  it("sends the app's pages to /login without a session", async () => {
    const { url } = await start();
    for (const page of ["/", "/settings/bots", "/integrations", "/integrations/github"]) {
      const res = await fetch(`${url}${page}`, { redirect: "manual" });
      expect([page, res.status, res.headers.get("location")]).toEqual([page, 302, "/login"]);
      expect(res.headers.get("content-security-policy")).toBe(CSP);
    }
  });

  it("still answers 404 JSON for unknown paths", async () => {
    const { url } = await start();
    const res = await fetch(`${url}/nope`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ result: "error", msg: "Not Found", code: "NOT_FOUND" });
    const asset = await fetch(`${url}/assets/..%2Fpackage.json`);
    expect(asset.status).toBe(404);
  });
});

describe("POST /login", () => {
  it("signs in with email and password: an HttpOnly, SameSite session cookie and a new CSRF token", async () => {
    const { url, users } = await start();
    const res = await login(url, "IAGO@zulip.com", OWNER_PASSWORD);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      result: "success",
      msg: "",
      user_id: users.iago.id,
      email: "iago@zulip.com",
    });
    const [sessionCookie, csrfCookie] = setCookies(res);
    expect(sessionCookie).toMatch(
      /^sessionid=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=1209600; SameSite=Lax; HttpOnly$/,
    );
    expect(csrfCookie).toMatch(/^csrftoken=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=1209600; SameSite=Lax$/);
  });

  it("marks the cookies Secure over https", async () => {
    const { url } = await start();
    const res = await login(url, "iago@zulip.com", OWNER_PASSWORD, { "x-forwarded-proto": "https" });
    expect(setCookies(res).map((c) => c.endsWith("; Secure"))).toEqual([true, true]);
  });

  it("refuses a sign-in without the CSRF cookie and header, or from another site", async () => {
    const { url } = await start();
    const bare = await fetch(`${url}/login`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ username: "iago@zulip.com", password: OWNER_PASSWORD }).toString(),
    });
    expect(bare.status).toBe(403);
    expect(await bare.json()).toEqual({
      result: "error",
      msg: "CSRF error: CSRF token missing.",
      code: "CSRF_FAILED",
    });
    const mismatch = await login(url, "iago@zulip.com", OWNER_PASSWORD, { "x-csrftoken": "abd" });
    expect(await mismatch.json()).toEqual({
      result: "error",
      msg: "CSRF error: CSRF token incorrect.",
      code: "CSRF_FAILED",
    });
    const garbled = await login(url, "iago@zulip.com", OWNER_PASSWORD, { origin: "not a url" });
    expect(garbled.status).toBe(403);
    const foreign = await login(url, "iago@zulip.com", OWNER_PASSWORD, { origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toEqual({
      result: "error",
      msg: "CSRF error: Origin checking failed - https://evil.example does not match any trusted origins.",
      code: "CSRF_FAILED",
    });
  });

  it("rate-limits failed sign-ins per email", async () => {
    const { url } = await start({ clock: new ManualClock() });
    for (let i = 0; i < 5; i++) {
      const res = await login(url, "hamlet@zulip.com", "wrong");
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({
        result: "error",
        msg: "Your username or password is incorrect",
        code: "AUTHENTICATION_FAILED",
      });
    }
    const limited = await login(url, "hamlet@zulip.com", "hamlet@zulip.com-password");
    expect(limited.status).toBe(429);
    expect(await limited.json()).toEqual({
      result: "error",
      msg: "API usage exceeded rate limit",
      code: "RATE_LIMIT_HIT",
      "retry-after": 1800,
    });
  });

  it("rate-limits failed sign-ins per client address, whatever the email", async () => {
    const { url } = await start({ clock: new ManualClock() });
    for (let i = 0; i < 20; i++) expect((await login(url, `nobody${i}@zulip.com`, "x")).status).toBe(401);
    const limited = await login(url, "iago@zulip.com", OWNER_PASSWORD);
    expect(limited.status).toBe(429);
    expect(await limited.json()).toEqual({
      result: "error",
      msg: "API usage exceeded rate limit",
      code: "RATE_LIMIT_HIT",
      "retry-after": 600,
    });
  });
});

describe("/json/* with a session", () => {
  it("answers as /api/v1 does with Basic auth", async () => {
    const { url, users } = await start();
    const s = await session(url, users.hamlet.email, "hamlet@zulip.com-password");
    const viaJson = await fetch(`${url}/json/users/me`, { headers: { cookie: s.cookie } });
    const viaApi = await fetch(`${url}/api/v1/users/me`, {
      headers: { authorization: basicAuthHeader(users.hamlet) },
    });
    expect(viaJson.status).toBe(200);
    const body = await viaJson.json();
    expect(body).toEqual(await viaApi.json());
    expect(body.email).toBe("hamlet@zulip.com");
  });

  it("needs the session's CSRF token on state-changing requests", async () => {
    const { url, users } = await start();
    const s = await session(url, users.iago.email, OWNER_PASSWORD);
    const send = (headers: Record<string, string>) =>
      fetch(`${url}/json/messages`, {
        method: "POST",
        headers: { cookie: s.cookie, "content-type": "application/x-www-form-urlencoded", ...headers },
        body: "type=stream&to=general&topic=t&content=hi",
      });
    const missing = await send({});
    expect(missing.status).toBe(403);
    expect(await missing.json()).toEqual({
      result: "error",
      msg: "CSRF error: CSRF token missing.",
      code: "CSRF_FAILED",
    });
    const wrong = await send({ "x-csrftoken": "A".repeat(43) });
    expect(await wrong.json()).toEqual({
      result: "error",
      msg: "CSRF error: CSRF token incorrect.",
      code: "CSRF_FAILED",
    });
    const ok = await send({ "x-csrftoken": s.csrf });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ result: "success", msg: "", id: expect.any(Number) });
  });

  it("answers 401 without a session, with no Basic challenge (no browser password dialog)", async () => {
    const { url, users } = await start();
    const res = await fetch(`${url}/json/users/me`, {
      headers: { authorization: basicAuthHeader(users.iago) },
    });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBeNull();
    expect(await res.json()).toEqual({
      result: "error",
      msg: "Not logged in: API authentication or user session required",
      code: "UNAUTHORIZED",
    });
  });

  it("ends the session on the server at sign-out", async () => {
    const { url, users } = await start();
    const s = await session(url, users.iago.email, OWNER_PASSWORD);
    const out = await fetch(`${url}/logout`, {
      method: "POST",
      headers: { cookie: s.cookie, "x-csrftoken": s.csrf },
    });
    expect(out.status).toBe(200);
    expect(await out.json()).toEqual({ result: "success", msg: "" });
    expect(setCookies(out)).toEqual(["sessionid=; Path=/; Max-Age=0; SameSite=Lax; HttpOnly"]);
    const after = await fetch(`${url}/json/users/me`, { headers: { cookie: s.cookie } });
    expect(after.status).toBe(401);
  });

  it("ends the session a browser had when it signs in again", async () => {
    const { url, users } = await start();
    const first = await session(url, users.iago.email, OWNER_PASSWORD);
    const again = await login(url, users.iago.email, OWNER_PASSWORD, {
      cookie: `${first.cookie.split(";")[0]}; csrftoken=abc`,
    });
    expect(again.status).toBe(200);
    const old = await fetch(`${url}/json/users/me`, { headers: { cookie: first.cookie } });
    expect(old.status).toBe(401);
  });

  it("keeps sessions across a server restart", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sessions-restart-"));
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    // A SQLite file in the data dir on every TEST_STACK (PostgreSQL is the next test's).
    const databaseUrl = `sqlite:${path.join(dataDir, "chat.sqlite3")}`;
    const first = await startTestServer({ config: { dataDir, databaseUrl } });
    const s = await session(first.url, "iago@zulip.com", OWNER_PASSWORD);
    const config = { ...first.running.services.config, port: 0 };
    await first.close();
    const second = await startServer(config, { logger: silentLogger });
    cleanups.push(() => second.close());
    const res = await fetch(`${second.url}/json/users/me`, { headers: { cookie: s.cookie } });
    expect(res.status).toBe(200);
    expect((await res.json()).email).toBe("iago@zulip.com");
  });

  (pgUp ? it : it.skip)("signs in and keeps the session on PostgreSQL", async () => {
    const schema = await freshPostgresSchema();
    cleanups.push(() => schema.drop());
    const { url } = await start({ config: { databaseUrl: schema.url } });
    const s = await session(url, "iago@zulip.com", OWNER_PASSWORD);
    const res = await fetch(`${url}/json/users/me`, { headers: { cookie: s.cookie } });
    expect((await res.json()).email).toBe("iago@zulip.com");
  });
});

describe("GET /json/integrations/:name", () => {
  it("gives the rendered doc.md and the fixtures, and each fixture's headers and body", async () => {
    const { url, users } = await start();
    const s = await session(url, users.iago.email, OWNER_PASSWORD);
    const res = await fetch(`${url}/json/integrations/helloworld`, { headers: { cookie: s.cookie } });
    const body = await res.json();
    expect(body.result).toBe("success");
    expect(body.name).toBe("helloworld");
    expect(body.doc_html.startsWith("<h1>Hello World</h1>")).toBe(true);
    expect(body.fixtures).toEqual([
      "case:test_custom_topic",
      "case:test_goodbye_message",
      "case:test_hello_message",
      "case:test_pm_to_bot_owner",
      "case:test_stream_error_pm_to_bot_owner",
    ]);
    const github = await (
      await fetch(`${url}/json/integrations/github`, { headers: { cookie: s.cookie } })
    ).json();
    expect(github.fixtures).toContain("push__1_commit");
    const fixture = await fetch(`${url}/json/integrations/github/fixtures/push__1_commit`, {
      headers: { cookie: s.cookie },
    });
    const payload = await fixture.json();
    expect(payload.headers).toEqual({ "content-type": "application/json", "x-github-event": "push" });
    expect(JSON.parse(payload.body).ref).toBe("refs/heads/main");
    const missing = await fetch(`${url}/json/integrations/nope`, { headers: { cookie: s.cookie } });
    expect(missing.status).toBe(404);
  });
});
