/**
 * Defect 4 (issue 11): fetch_api_key ran scryptSync on the event loop, so wrong passwords stalled
 * every client; failed sign-ins were limited per username only.
 */
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals";
import { hashPassword, verifyPassword } from "../../src/domain/users/secrets.js";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer } from "../helpers/test-server.js";

// Real servers and scrypt on a machine shared with other work: generous time limits.
jest.setTimeout(120_000);

describe("defect 4: password checks off the event loop", () => {
  it("lets the event loop turn while a password is checked", async () => {
    const stored = await hashPassword("correct horse");
    const order: string[] = [];
    const check = Promise.resolve(verifyPassword("wrong", stored)).then((ok) => {
      order.push(`checked:${String(ok)}`);
    });
    // With scryptSync the check finished before this callback could run.
    setImmediate(() => order.push("event loop turned"));
    await check;
    expect(order).toEqual(["event loop turned", "checked:false"]);
  });

  it("verifies a right password and refuses a malformed hash", async () => {
    const stored = await hashPassword("correct horse");
    expect(await verifyPassword("correct horse", stored)).toBe(true);
    expect(await verifyPassword("correct horse", "scrypt$1$1$1$$")).toBe(false);
    expect(await verifyPassword("x", "plain")).toBe(false);
  });
});

describe("defect 4: failed sign-ins are rate-limited per username and per IP", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const signIn = (username: string, password: string) =>
    server.api.post("/api/v1/fetch_api_key", { params: { username, password } });

  it("refuses a sixth wrong password for one username with 429", async () => {
    for (let i = 0; i < 5; i++) {
      expect((await signIn("othello@zulip.com", "nope")).body).toEqual({
        result: "error",
        msg: "Your username or password is incorrect",
        code: "AUTHENTICATION_FAILED",
      });
    }
    const res = await signIn("othello@zulip.com", "othello@zulip.com-password");
    expect(res.status).toBe(429);
    expect(res.body.code).toBe("RATE_LIMIT_HIT");
  });

  it("refuses the 51st failure from one IP, whatever the usernames", async () => {
    for (let i = 0; i < 45; i++) {
      expect((await signIn(`nobody${i}@zulip.com`, "nope")).status).toBe(401);
    }
    // 5 failures from the previous test + 45 here = 50 from 127.0.0.1.
    const res = await signIn("hamlet@zulip.com", "hamlet@zulip.com-password");
    expect(res.status).toBe(429);
    expect(res.body.code).toBe("RATE_LIMIT_HIT");
  });
});
