import type { Clock } from "../../src/clock.js";
import { defaultConfig } from "../../src/config.js";
import type { ServerConfig } from "../../src/config.js";
import { hashPassword } from "../../src/domain/users/secrets.js";
import { Role } from "../../src/domain/users/types.js";
import type { User } from "../../src/domain/users/types.js";
import { silentLogger } from "../../src/lib/logger.js";
import { startServer } from "../../src/server.js";
import { UsersRepo } from "../../src/store/users-repo.js";
import type { RunningServer } from "../../src/server.js";
import { apiClient } from "./client.js";
import { freshPostgresRedis, wantsPostgresRedis } from "./stack.js";
import type { ApiClient, Credentials } from "./client.js";

export interface TestUser extends Credentials {
  id: number;
  fullName: string;
}

export interface TestServer {
  url: string;
  api: ApiClient;
  running: RunningServer;
  /** iago: owner/admin; hamlet, othello, cordelia: members; polonius: guest; webhookBot: iago's incoming-webhook bot. */
  users: {
    iago: TestUser;
    hamlet: TestUser;
    othello: TestUser;
    cordelia: TestUser;
    polonius: TestUser;
    webhookBot: TestUser;
  };
  close(): Promise<void>;
}

export const OWNER_PASSWORD = "iago-password";

function asTestUser(u: User): TestUser {
  return { id: u.id, email: u.email, apiKey: u.apiKey, fullName: u.fullName };
}

/**
 * The cast's password hashes, each computed once per test process by the server's own
 * `hashPassword` (scrypt, ~50 ms of CPU a call) and stored for the cast of every test server: a
 * server per test would otherwise spend most of its start-up hashing the same four passwords.
 */
const castHashes = new Map<string, Promise<string>>();
function castPasswordHash(password: string): Promise<string> {
  let hash = castHashes.get(password);
  if (hash === undefined) {
    hash = hashPassword(password);
    castHashes.set(password, hash);
  }
  return hash;
}
const castPassword = (email: string): string => `${email}-password`;

/** The allow rules a test server gets unless told otherwise: its receivers listen on loopback. */
export const LOOPBACK_ALLOW = ["127.0.0.0/8", "::1", "localhost"];

/**
 * A real server on 127.0.0.1 with an ephemeral port and a fresh in-memory SQLite store, seeded with
 * Zulip's test cast. Close it in afterEach/afterAll.
 *
 * Outgoing webhooks may reach loopback (`LOOPBACK_ALLOW`, as an operator would allow a local bot
 * server with `--outgoing-webhook-allow`), since test receivers listen on 127.0.0.1;
 * `allowLoopback: false` gives the server's own default policy (public addresses only).
 */
export async function startTestServer(
  opts: { config?: Partial<ServerConfig>; clock?: Clock; allowLoopback?: boolean } = {},
): Promise<TestServer> {
  const stack = wantsPostgresRedis(opts.config) ? await freshPostgresRedis() : undefined;
  const config = defaultConfig({
    port: 0,
    dataDir: ":memory:",
    ownerEmail: "iago@zulip.com",
    ownerName: "Iago",
    realmName: "Zulip Dev",
    realmStringId: "zulip",
    botDomain: "zulip.com",
    rateLimit: null,
    logLevel: "silent",
    ...(stack?.config ?? {}),
    ...(opts.config ?? {}),
    outgoingWebhookAllow: [
      ...(opts.allowLoopback === false ? [] : LOOPBACK_ALLOW),
      ...(opts.config?.outgoingWebhookAllow ?? []),
    ],
  });
  const running = await startServer(config, {
    logger: silentLogger,
    ownerPassword: OWNER_PASSWORD,
    ...(opts.clock ? { clock: opts.clock } : {}),
  });
  const { users } = running.services;
  const iago = running.firstStart!.owner;
  const usersRepo = new UsersRepo(running.db);
  const mk = async (email: string, fullName: string, role: number = Role.MEMBER): Promise<User> => {
    // The cast starts with no subscriptions (tests subscribe them as they need); a user created
    // through POST /users joins the default streams as in Zulip. The password `${email}-password`
    // is stored as its hash (castPasswordHash), as createUser would store it.
    const user = await users.createUser(iago, {
      email,
      password: undefined,
      fullName,
      role,
      joinDefaultStreams: false,
    });
    await usersRepo.setPasswordHash(user.id, await castPasswordHash(castPassword(email)));
    return user;
  };
  const hamlet = await mk("hamlet@zulip.com", "King Hamlet");
  const othello = await mk("othello@zulip.com", "Othello, the Moor of Venice");
  const cordelia = await mk("cordelia@zulip.com", "Cordelia, Lear's daughter");
  const polonius = await mk("polonius@zulip.com", "Polonius", Role.GUEST);
  const webhookBot = (
    await users.createBot(iago, { fullName: "Zulip Webhook Bot", shortName: "webhook", botType: 2 })
  ).bot;
  const url = running.url;
  return {
    url,
    api: apiClient(url),
    running,
    users: {
      iago: asTestUser(iago),
      hamlet: asTestUser(hamlet),
      othello: asTestUser(othello),
      cordelia: asTestUser(cordelia),
      polonius: asTestUser(polonius),
      webhookBot: asTestUser(webhookBot),
    },
    close: async () => {
      await running.close();
      await stack?.drop();
    },
  };
}
