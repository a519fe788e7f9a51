import { afterEach, describe, expect, it } from "@jest/globals";
import { ManualClock } from "../../src/clock.js";
import { SESSION_LIFETIME_MS } from "../../src/domain/web/session-service.js";
import { OWNER_PASSWORD, startTestServer } from "../helpers/test-server.js";
import type { TestServer } from "../helpers/test-server.js";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("SessionService", () => {
  it("keeps a session for two weeks, then forgets it and deletes its row", async () => {
    const clock = new ManualClock();
    server = await startTestServer({ clock });
    const { sessions } = server.running.services;
    const session = await sessions.signIn("iago@zulip.com", OWNER_PASSWORD, "127.0.0.1");
    expect(SESSION_LIFETIME_MS).toBe(1_209_600_000);
    clock.advance(SESSION_LIFETIME_MS - 1);
    expect((await sessions.lookUp(session.id))?.user.email).toBe("iago@zulip.com");
    clock.advance(1);
    await expect(sessions.lookUp(session.id)).resolves.toBeUndefined();
    const rows = await server.running.db.all("SELECT id_hash FROM web_sessions");
    expect(rows).toEqual([]);
  });

  it("stores only a hash of the cookie value", async () => {
    server = await startTestServer();
    const { sessions } = server.running.services;
    const { db } = server.running;
    const session = await sessions.signIn("hamlet@zulip.com", "hamlet@zulip.com-password", "127.0.0.1");
    const rows = await db.all<{ id_hash: string; csrf_token: string }>(
      "SELECT id_hash, csrf_token FROM web_sessions",
    );
    expect(rows.length).toBe(1);
    expect(rows[0]!.id_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0]!.id_hash).not.toContain(session.id);
    expect(rows[0]!.csrf_token).toBe(session.csrfToken);
  });

  it("does not know a made-up, empty or signed-out session", async () => {
    server = await startTestServer();
    const { sessions } = server.running.services;
    const session = await sessions.signIn("iago@zulip.com", OWNER_PASSWORD, "127.0.0.1");
    await expect(sessions.lookUp("x".repeat(43))).resolves.toBeUndefined();
    await expect(sessions.lookUp("")).resolves.toBeUndefined();
    await sessions.signOut(session.id);
    await expect(sessions.lookUp(session.id)).resolves.toBeUndefined();
  });
});
