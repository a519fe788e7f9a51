/**
 * Issue 23, findings 1 and 2: what an outgoing-webhook bot's endpoint (or its URL) can make the
 * server do. Real listening servers on both stacks (`TEST_STACK=postgres-redis` for the second).
 * Finding 1: a huge answer is read up to the limit and refused, the server stays responsive, and a
 * delivery whose last attempt never finished ends failed instead of being claimed again.
 * Finding 2: no request reaches an internal address (any spelling), no redirect is followed
 * (replays neither), and the allow list lets exactly one host:port through.
 */
import { afterEach, describe, expect, it, jest } from "@jest/globals";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { ManualClock } from "../../src/clock.js";
import { defaultConfig } from "../../src/config.js";
import type { ServerConfig } from "../../src/config.js";
import { botViewOfMessage } from "../../src/domain/outgoing/payload.js";
import type { SentMessage } from "../../src/domain/messages/types.js";
import { BotsRepo } from "../../src/store/bots-repo.js";
import { OutgoingRepo } from "../../src/store/outgoing-repo.js";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer } from "../helpers/test-server.js";
import { createStream } from "../http/message-helpers.js";

const HOW_TO_ALLOW =
  "outgoing webhooks reach only public addresses unless the server's operator allows the target with --outgoing-webhook-allow.";

// Each test waits for conditions (30 s at most each); a busy machine makes them slow, never wrong.
jest.setTimeout(90_000);

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Polls `probe` until it returns a value (not undefined/false), or fails after 30 s. */
async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined | false> | T | undefined | false,
): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

interface Listener {
  port: number;
  requests: { method: string; url: string; headers: http.IncomingHttpHeaders }[];
  close(): Promise<void>;
}

/** A local HTTP server on `host` (port 0) answering with `handler`; records every request. */
async function listen(
  host: string,
  handler: (req: http.IncomingMessage, res: http.ServerResponse) => void,
): Promise<Listener> {
  const requests: Listener["requests"] = [];
  const server = http.createServer((req, res) => {
    requests.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers });
    req.resume();
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, host, () => resolve()));
  const listener: Listener = {
    port: (server.address() as AddressInfo).port,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  cleanups.push(() => listener.close());
  return listener;
}

async function server(opts: {
  allowLoopback?: boolean;
  config?: Partial<ServerConfig>;
  clock?: ManualClock;
}): Promise<TestServer> {
  const t = await startTestServer({
    allowLoopback: opts.allowLoopback ?? false,
    ...(opts.clock === undefined ? {} : { clock: opts.clock }),
    config: {
      outgoingWebhooks: { ...defaultConfig().outgoingWebhooks, timeoutSeconds: 5 },
      ...opts.config,
    },
  });
  cleanups.push(() => t.close());
  await createStream(t, "Denmark", [t.users.iago]);
  return t;
}

async function createBot(
  t: TestServer,
  url: string,
  shortName = "outgoing",
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await t.api.post("/api/v1/bots", {
    as: t.users.iago,
    params: {
      full_name: `Bot ${shortName}`,
      short_name: shortName,
      bot_type: 3,
      payload_url: JSON.stringify(url),
      interface_type: 1,
    },
  });
  return { status: res.status, body: res.body as Record<string, unknown> };
}

/** A bot whose stored URL is `url` whatever the policy says (a URL saved before, or a name that resolved elsewhere then). */
async function botWithStoredUrl(t: TestServer, url: string, shortName = "outgoing"): Promise<number> {
  const created = await createBot(t, "http://bots.invalid/", shortName);
  expect(created.status).toBe(200);
  const id = created.body["user_id"] as number;
  await new BotsRepo(t.running.db).updateServices(id, { baseUrl: url });
  return id;
}

async function mention(t: TestServer, shortName = "outgoing"): Promise<void> {
  const res = await t.api.post("/api/v1/messages", {
    as: t.users.iago,
    params: { type: "stream", to: "Denmark", topic: "castle", content: `@**Bot ${shortName}** ping` },
  });
  expect(res.status).toBe(200);
}

async function deliveries(t: TestServer, botId: number): Promise<Record<string, unknown>[]> {
  const res = await t.api.get(`/api/v1/bots/${botId}/deliveries`, { as: t.users.iago });
  expect(res.status).toBe(200);
  return res.body.deliveries as Record<string, unknown>[];
}

/** The newest delivery-log entry of the bot once it has an outcome other than retrying. */
function finalEntry(t: TestServer, botId: number): Promise<Record<string, unknown>> {
  return waitFor("a final delivery-log entry", async () => {
    const [newest] = await deliveries(t, botId);
    return newest !== undefined && newest["outcome"] !== "retrying" ? newest : undefined;
  });
}

/** Contents of the newest messages iago can see (DMs from the bot included). */
async function recentContents(t: TestServer): Promise<string[]> {
  const res = await t.api.get("/api/v1/messages", {
    as: t.users.iago,
    params: { anchor: "newest", num_before: 20, num_after: 0, narrow: "[]", apply_markdown: false },
  });
  expect(res.status).toBe(200);
  return (res.body.messages as { content: string }[]).map((m) => m.content);
}

describe("finding 1: one bot reply crashes the server", () => {
  it("reads a huge answer only up to the limit, answers /health meanwhile, and fails the delivery with a reason", async () => {
    let sentBytes = 0;
    let closedAfter: number | undefined;
    const chunk = Buffer.alloc(64 * 1024, "a");
    // An endless 200 answer: written as fast as the client reads it, until the client hangs up.
    const endless = await listen("127.0.0.1", (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.on("close", () => {
        closedAfter = sentBytes;
      });
      const pump = (): void => {
        while (!res.destroyed && res.write(chunk)) sentBytes += chunk.length;
        if (!res.destroyed) sentBytes += chunk.length;
      };
      res.on("drain", pump);
      pump();
    });
    const t = await server({ config: { outgoingWebhookAllow: [`127.0.0.1:${endless.port}`] } });
    const created = await createBot(t, `http://127.0.0.1:${endless.port}/`);
    expect(created.status).toBe(200);
    const botId = created.body["user_id"] as number;
    await mention(t);

    await waitFor("the endpoint to start answering", () => endless.requests.length === 1);
    const health = await fetch(`${t.url}/health`);
    expect(health.status).toBe(200);

    const entry = await finalEntry(t, botId);
    const reason =
      "The service's answer was larger than 1048576 bytes (this server's limit); it was not read.";
    expect([entry["outcome"], entry["error"], entry["attempts"]]).toEqual(["failed", reason, 1]);
    // The server hung up on the stream soon after the limit, not after reading it all.
    const closed = await waitFor("the connection to be closed", () => closedAfter);
    expect(closed).toBeLessThan(64 * 1024 * 1024);
    // The log entry is written before the job's final state: wait for that too.
    const jobs = await waitFor("the job to end", async () => {
      const all = await t.running.services.outgoing.jobs();
      return all.every((j) => j.status === "failed") ? all : undefined;
    });
    expect(jobs.map((j) => [j.status, j.lastError])).toEqual([["failed", reason]]);
    const contents = await recentContents(t);
    expect(contents).toContain(`Failure! ${reason}`);
    expect(contents.some((c) => c.includes("triggered an outgoing webhook.") && c.includes(reason))).toBe(
      true,
    );
    expect(endless.requests).toHaveLength(1);
  });

  it("ends a delivery whose last attempt never finished as failed, and never claims it again", async () => {
    const clock = new ManualClock();
    const receiver = await listen("127.0.0.1", (_req, res) => res.end('{"content":"pong"}'));
    const t = await server({
      clock,
      allowLoopback: true,
      config: {
        outgoingWebhooks: { ...defaultConfig().outgoingWebhooks, pollIntervalMs: 0, maxAttempts: 2 },
      },
    });
    const created = await createBot(t, `http://127.0.0.1:${receiver.port}/`);
    expect(created.status).toBe(200);
    const botId = created.body["user_id"] as number;
    const { users, messages, outgoing } = t.running.services;
    const { db } = t.running;
    // A message that triggers nothing, to build the job's payload from.
    let sent: SentMessage | undefined;
    const unsubscribe = messages.onSent((m) => {
      sent = m;
    });
    const res = await t.api.post("/api/v1/messages", {
      as: t.users.iago,
      params: { type: "stream", to: "Denmark", topic: "castle", content: "ping" },
    });
    expect(res.status).toBe(200);
    unsubscribe();
    const [service] = await users.servicesOf(botId);
    const repo = new OutgoingRepo(db);
    const now = clock.now();
    // Attempt 1 was claimed when the job was written; a process that claimed attempt 2 died
    // during it (as a process crashed by that very delivery would).
    const job = await repo.insert(
      {
        botId,
        serviceId: service!.id,
        messageId: sent!.id,
        payload: JSON.stringify({ trigger: "mention", message: botViewOfMessage(sent!) }),
      },
      now,
      now + 1000,
    );
    clock.advance(1000);
    expect((await repo.claimDue(clock.now(), clock.now() + 1000, 10, 2)).map((j) => j.attempts)).toEqual([2]);
    clock.advance(1000);

    await outgoing.tick();
    await outgoing.tick();

    const reason =
      "The last attempt of this delivery never finished (the server stopped during it), so it is not tried again.";
    const after = await repo.byId(job.id);
    expect([after?.status, after?.attempts, after?.lastError]).toEqual(["failed", 2, reason]);
    expect(receiver.requests).toHaveLength(0);
    const entry = await finalEntry(t, botId);
    expect([entry["outcome"], entry["error"]]).toEqual(["failed", reason]);
    const contents = await recentContents(t);
    expect(contents).toContain("Failure! Bot is unavailable");
    expect(contents.some((c) => c.includes(reason))).toBe(true);
  });
});

describe("finding 2: server-side request forgery", () => {
  it("refuses at creation every spelling of an internal address, and accepts a name that does not resolve", async () => {
    const t = await server({});
    const refusals: [string, string][] = [];
    const spellings = [
      "http://2130706434:8080/", // 127.0.0.2 as a decimal
      "http://0177.0.0.2:8080/", // octal
      "http://0x7f000002:8080/", // hex
      "http://127.2:8080/", // short form
      "http://[::ffff:127.0.0.2]:8080/", // IPv4-mapped IPv6
      "http://[::127.0.0.2]:8080/", // IPv4-compatible IPv6
      "http://0.0.0.0:8080/",
      "http://[::1]:8080/",
      "http://[::]:8080/",
      "http://169.254.169.254/latest/meta-data/",
      "http://10.1.2.3/",
      "http://100.64.0.1/",
      "http://192.168.1.1/",
      "http://[fd00::1]/",
      "http://224.0.0.1/",
    ];
    for (const [i, url] of spellings.entries()) {
      const res = await createBot(t, url, `spelling${i}`);
      expect([res.status, res.body["result"], res.body["code"]]).toEqual([400, "error", "BAD_REQUEST"]);
      refusals.push([url, res.body["msg"] as string]);
    }
    expect(refusals).toEqual([
      [
        "http://2130706434:8080/",
        `The URL's host 127.0.0.2 is a loopback address (127.0.0.2); ${HOW_TO_ALLOW}`,
      ],
      [
        "http://0177.0.0.2:8080/",
        `The URL's host 127.0.0.2 is a loopback address (127.0.0.2); ${HOW_TO_ALLOW}`,
      ],
      [
        "http://0x7f000002:8080/",
        `The URL's host 127.0.0.2 is a loopback address (127.0.0.2); ${HOW_TO_ALLOW}`,
      ],
      ["http://127.2:8080/", `The URL's host 127.0.0.2 is a loopback address (127.0.0.2); ${HOW_TO_ALLOW}`],
      [
        "http://[::ffff:127.0.0.2]:8080/",
        `The URL's host ::ffff:7f00:2 is a loopback address (127.0.0.2); ${HOW_TO_ALLOW}`,
      ],
      [
        "http://[::127.0.0.2]:8080/",
        `The URL's host ::7f00:2 is an IPv4-compatible IPv6 address (::7f00:2); ${HOW_TO_ALLOW}`,
      ],
      [
        "http://0.0.0.0:8080/",
        `The URL's host 0.0.0.0 is the unspecified address (0.0.0.0); ${HOW_TO_ALLOW}`,
      ],
      ["http://[::1]:8080/", `The URL's host ::1 is a loopback address (::1); ${HOW_TO_ALLOW}`],
      ["http://[::]:8080/", `The URL's host :: is the unspecified address (::); ${HOW_TO_ALLOW}`],
      [
        "http://169.254.169.254/latest/meta-data/",
        `The URL's host 169.254.169.254 is a link-local address (169.254.169.254); ${HOW_TO_ALLOW}`,
      ],
      [
        "http://10.1.2.3/",
        `The URL's host 10.1.2.3 is a private network address (10.1.2.3); ${HOW_TO_ALLOW}`,
      ],
      [
        "http://100.64.0.1/",
        `The URL's host 100.64.0.1 is a shared (carrier-grade NAT) address (100.64.0.1); ${HOW_TO_ALLOW}`,
      ],
      [
        "http://192.168.1.1/",
        `The URL's host 192.168.1.1 is a private network address (192.168.1.1); ${HOW_TO_ALLOW}`,
      ],
      [
        "http://[fd00::1]/",
        `The URL's host fd00::1 is a private network address (unique local) (fd00::1); ${HOW_TO_ALLOW}`,
      ],
      ["http://224.0.0.1/", `The URL's host 224.0.0.1 is a multicast address (224.0.0.1); ${HOW_TO_ALLOW}`],
    ]);

    const localhost = await createBot(t, "http://localhost:8080/", "named");
    expect(localhost.status).toBe(400);
    expect(localhost.body["msg"]).toMatch(
      /^The URL's host localhost resolves to (127\.0\.0\.1|::1), a loopback address; outgoing webhooks reach only public addresses unless the server's operator allows the target with --outgoing-webhook-allow\.$/,
    );

    // A name that does not resolve (yet) is accepted; editing it to an internal address is not.
    const later = await createBot(t, "http://bots.invalid/", "later");
    expect(later.status).toBe(200);
    const edit = await t.api.patch(`/api/v1/bots/${later.body["user_id"] as number}`, {
      as: t.users.iago,
      params: { service_payload_url: JSON.stringify("http://2130706434/") },
    });
    expect(edit.body).toEqual({
      result: "error",
      msg: `The URL's host 127.0.0.2 is a loopback address (127.0.0.2); ${HOW_TO_ALLOW}`,
      code: "BAD_REQUEST",
    });
  });

  it("refuses at delivery every spelling of an internal address: the internal listener receives nothing", async () => {
    // Dual-stack: reachable as 127.0.0.x, ::1, ::ffff:127.0.0.2 and 0.0.0.0.
    const internal = await listen("::", (_req, res) => res.end('{"content":"leaked"}'));
    const t = await server({});
    const p = internal.port;
    const cases: [string, string][] = [
      [
        `http://2130706434:${p}/`,
        `The URL's host 127.0.0.2 is a loopback address (127.0.0.2); ${HOW_TO_ALLOW}`,
      ],
      [
        `http://[::ffff:127.0.0.2]:${p}/`,
        `The URL's host ::ffff:7f00:2 is a loopback address (127.0.0.2); ${HOW_TO_ALLOW}`,
      ],
      [
        `http://0.0.0.0:${p}/`,
        `The URL's host 0.0.0.0 is the unspecified address (0.0.0.0); ${HOW_TO_ALLOW}`,
      ],
      [`http://[::1]:${p}/`, `The URL's host ::1 is a loopback address (::1); ${HOW_TO_ALLOW}`],
      [`file:///etc/passwd`, "The URL's scheme is file; outgoing webhooks use http or https only."],
    ];
    const outcomes: [string, unknown, unknown][] = [];
    for (const [i, [url]] of cases.entries()) {
      const botId = await botWithStoredUrl(t, url, `stored${i}`);
      await mention(t, `stored${i}`);
      const entry = await finalEntry(t, botId);
      outcomes.push([url, entry["outcome"], entry["error"]]);
    }
    expect(outcomes).toEqual(cases.map(([url, reason]) => [url, "failed", reason]));

    const localhostBot = await botWithStoredUrl(t, `http://localhost:${p}/`, "storedlocal");
    await mention(t, "storedlocal");
    const entry = await finalEntry(t, localhostBot);
    expect(entry["outcome"]).toBe("failed");
    expect(entry["error"]).toMatch(
      /^The URL's host localhost resolves to (127\.0\.0\.1|::1), a loopback address; /,
    );
    expect(internal.requests).toEqual([]);
  });

  it("follows no redirect (307 and 303) to an internal listener, on delivery and on replay", async () => {
    const internal = await listen("127.0.0.1", (_req, res) => res.end('{"content":"metadata"}'));
    const redirector = await listen("127.0.0.1", (req, res) => {
      const status = req.url === "/see-other" ? 303 : 307;
      res.writeHead(status, { location: `http://127.0.0.1:${internal.port}/latest/meta-data/` });
      res.end();
    });
    // Only the redirector's host:port is allowed; the internal listener is on another port.
    const t = await server({ config: { outgoingWebhookAllow: [`127.0.0.1:${redirector.port}`] } });
    const results: [unknown, unknown, unknown][] = [];
    for (const [name, path] of [
      ["temporary", "/temporary"],
      ["seeother", "/see-other"],
    ] as const) {
      const created = await createBot(t, `http://127.0.0.1:${redirector.port}${path}`, name);
      expect(created.status).toBe(200);
      const botId = created.body["user_id"] as number;
      await mention(t, name);
      const entry = await finalEntry(t, botId);
      results.push([entry["outcome"], entry["error"], (entry["response"] as { status: unknown }).status]);

      const replay = await t.api.post(`/api/v1/bots/${botId}/deliveries/${entry["id"] as number}/replay`, {
        as: t.users.iago,
      });
      expect(replay.status).toBe(200);
      const replayed = replay.body.delivery as Record<string, unknown>;
      results.push([
        replayed["outcome"],
        replayed["error"],
        (replayed["response"] as { status: unknown }).status,
      ]);
    }
    expect(results).toEqual([
      ["failed", "The service answered with a redirect (HTTP 307); redirects are not followed.", 307],
      ["failed", "The service answered with a redirect (HTTP 307); redirects are not followed.", 307],
      ["failed", "The service answered with a redirect (HTTP 303); redirects are not followed.", 303],
      ["failed", "The service answered with a redirect (HTTP 303); redirects are not followed.", 303],
    ]);
    expect(redirector.requests.map((r) => r.method)).toEqual(["POST", "POST", "POST", "POST"]);
    expect(internal.requests).toEqual([]);
  });

  it("refuses a replay to a URL that became internal", async () => {
    const allowed = await listen("127.0.0.1", (_req, res) => res.end('{"content":"pong"}'));
    const internal = await listen("::", (_req, res) => res.end('{"content":"leaked"}'));
    const t = await server({ config: { outgoingWebhookAllow: [`127.0.0.1:${allowed.port}`] } });
    const created = await createBot(t, `http://127.0.0.1:${allowed.port}/`);
    expect(created.status).toBe(200);
    const botId = created.body["user_id"] as number;
    await mention(t);
    const entry = await finalEntry(t, botId);
    expect(entry["outcome"]).toBe("delivered");
    await new BotsRepo(t.running.db).updateServices(botId, {
      baseUrl: `http://2130706433:${internal.port}/`,
    });
    const replay = await t.api.post(`/api/v1/bots/${botId}/deliveries/${entry["id"] as number}/replay`, {
      as: t.users.iago,
    });
    expect(replay.status).toBe(200);
    const replayed = replay.body.delivery as Record<string, unknown>;
    expect([replayed["outcome"], replayed["error"]]).toEqual([
      "failed",
      `The URL's host 127.0.0.1 is a loopback address (127.0.0.1); ${HOW_TO_ALLOW}`,
    ]);
    expect(internal.requests).toEqual([]);
  });

  it("lets exactly the allowed host:port through", async () => {
    const allowed = await listen("127.0.0.1", (_req, res) => res.end('{"content":"pong"}'));
    const other = await listen("127.0.0.1", (_req, res) => res.end('{"content":"leaked"}'));
    const t = await server({ config: { outgoingWebhookAllow: [`127.0.0.1:${allowed.port}`] } });
    const created = await createBot(t, `http://127.0.0.1:${allowed.port}/`);
    expect(created.status).toBe(200);
    await mention(t);
    const entry = await finalEntry(t, created.body["user_id"] as number);
    expect([entry["outcome"], entry["error"]]).toEqual(["delivered", null]);
    expect(allowed.requests.map((r) => r.method)).toEqual(["POST"]);
    await waitFor("the bot's reply", async () => (await recentContents(t)).includes("pong"));

    const refused = await createBot(t, `http://127.0.0.1:${other.port}/`, "other");
    expect(refused.body).toEqual({
      result: "error",
      msg: `The URL's host 127.0.0.1 is a loopback address (127.0.0.1); ${HOW_TO_ALLOW}`,
      code: "BAD_REQUEST",
    });
    expect(other.requests).toEqual([]);
  });
});
