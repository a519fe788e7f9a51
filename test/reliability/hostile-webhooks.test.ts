/**
 * Issue 23, finding 6: "the same signed Stripe request accepted three times within its 5-minute
 * window (GitHub's signature has no timestamp at all)". A signed delivery is de-duplicated by the
 * service's id of it (Stripe's event id, GitHub's `X-GitHub-Delivery`, `webhook-id`, …) within a
 * window: a repeat is answered with success and posts nothing. Real listening servers.
 */
import { afterEach, beforeEach, describe, expect, it } from "@jest/globals";
import crypto from "node:crypto";
import { ManualClock } from "../../src/clock.js";
import { DEFAULT_DEDUPE_WINDOW_MS } from "../../src/domain/webhooks/seen-deliveries.js";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer } from "../helpers/test-server.js";

let server: TestServer;
let clock: ManualClock;
beforeEach(async () => {
  clock = new ManualClock(Date.UTC(2026, 10, 28, 12));
  server = await startTestServer({ clock });
  const created = await server.api.post("/api/v1/users/me/subscriptions", {
    as: server.users.iago,
    params: { subscriptions: JSON.stringify([{ name: "Verona" }]) },
  });
  expect(created.status).toBe(200);
});
afterEach(() => server.close());

/** An incoming-webhook bot of iago's with `config_data` (it posts to #Verona, a public stream). */
async function bot(shortName: string, configData: Record<string, string>): Promise<string> {
  const res = await server.api.post("/api/v1/bots", {
    as: server.users.iago,
    params: { full_name: `Bot ${shortName}`, short_name: shortName, bot_type: 2, config_data: configData },
  });
  expect(res.status).toBe(200);
  return (res.body as { api_key: string }).api_key;
}

async function post(
  name: string,
  apiKey: string,
  body: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${server.url}/api/v1/external/${name}?api_key=${apiKey}&stream=Verona`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body,
  });
  return { status: res.status, body: await res.json() };
}

/** The bot's newest delivery-log entries (newest first), as its owner reads them. */
async function deliveries(botId: number): Promise<Record<string, unknown>[]> {
  const res = await server.api.get(`/api/v1/bots/${botId}/deliveries`, { as: server.users.iago });
  expect(res.status).toBe(200);
  return (res.body as { deliveries: Record<string, unknown>[] }).deliveries;
}

/** How many messages #Verona holds. */
async function veronaCount(): Promise<number> {
  const res = await server.api.get("/api/v1/messages", {
    as: server.users.iago,
    params: {
      anchor: "newest",
      num_before: 1000,
      num_after: 0,
      narrow: JSON.stringify([{ operator: "stream", operand: "Verona" }]),
    },
  });
  return (res.body as { messages: unknown[] }).messages.length;
}

const SUCCESS = { result: "success", msg: "" };

const charge = (id: string): string =>
  JSON.stringify({
    id,
    object: "event",
    type: "charge.failed",
    created: 1326853478,
    data: {
      object: { id: "ch_00000000000000", object: "charge", amount: 100, currency: "aud", paid: false },
    },
  });

/** Stripe's scheme: `t=<seconds>,v1=<hex HMAC-SHA256 of "t.body">`. */
function stripeSignature(secret: string, body: string, seconds: number): string {
  const v1 = crypto.createHmac("sha256", secret).update(`${seconds}.${body}`).digest("hex");
  return `t=${seconds},v1=${v1}`;
}

const githubSignature = (secret: string, body: string): string =>
  "sha256=" + crypto.createHmac("sha256", secret).update(body).digest("hex");

const ping = JSON.stringify({
  zen: "Design for failure.",
  hook_id: 1,
  hook: { type: "Repository", id: 1, events: ["push"] },
  repository: { id: 1, name: "hello", full_name: "octo/hello", html_url: "https://github.com/octo/hello" },
  sender: { login: "octo" },
});

describe("finding 6: the same signed Stripe request accepted three times within its 5-minute window", () => {
  it("posts a signed Stripe event once, and answers its two repeats with success", async () => {
    const key = await bot("stripe1", { stripe_secret: "whsec_dedupe" });
    const body = charge("evt_1dedupe");
    const headers = { "stripe-signature": stripeSignature("whsec_dedupe", body, clock.now() / 1000) };
    const before = await veronaCount();
    for (let i = 0; i < 3; i++)
      expect(await post("stripe", key, body, headers)).toEqual({ status: 200, body: SUCCESS });
    expect(await veronaCount()).toBe(before + 1);
  });

  it("posts two different Stripe events, each once", async () => {
    const key = await bot("stripe2", { stripe_secret: "whsec_dedupe" });
    const before = await veronaCount();
    for (const id of ["evt_first", "evt_second", "evt_first"]) {
      const body = charge(id);
      const headers = { "stripe-signature": stripeSignature("whsec_dedupe", body, clock.now() / 1000) };
      expect((await post("stripe", key, body, headers)).status).toBe(200);
    }
    expect(await veronaCount()).toBe(before + 2);
  });

  it("keeps de-duplicating a GitHub delivery (no timestamp) for 72 hours, then takes it again", async () => {
    const key = await bot("gh1", { github_secret: "gh-secret" });
    const headers = {
      "x-github-event": "ping",
      "x-github-delivery": "72d3162e-cc78-11e3-81ab-4c9367dc0958",
      "x-hub-signature-256": githubSignature("gh-secret", ping),
    };
    const before = await veronaCount();
    expect(await post("github", key, ping, headers)).toEqual({ status: 200, body: SUCCESS });
    clock.advance(DEFAULT_DEDUPE_WINDOW_MS - 1);
    expect(await post("github", key, ping, headers)).toEqual({ status: 200, body: SUCCESS });
    expect(await veronaCount()).toBe(before + 1);
    clock.advance(1);
    expect(await post("github", key, ping, headers)).toEqual({ status: 200, body: SUCCESS });
    expect(await veronaCount()).toBe(before + 2);
  });

  it("takes the same body again under another delivery id", async () => {
    const key = await bot("gh2", { github_secret: "gh-secret" });
    const sig = githubSignature("gh-secret", ping);
    const before = await veronaCount();
    for (const id of ["delivery-a", "delivery-b"]) {
      const headers = { "x-github-event": "ping", "x-github-delivery": id, "x-hub-signature-256": sig };
      expect((await post("github", key, ping, headers)).status).toBe(200);
    }
    expect(await veronaCount()).toBe(before + 2);
  });

  it("keeps a delivery id per bot: another bot's delivery of the same id posts", async () => {
    const one = await bot("gh3", { github_secret: "gh-secret" });
    const two = await bot("gh4", { github_secret: "gh-secret" });
    const headers = {
      "x-github-event": "ping",
      "x-github-delivery": "same-id",
      "x-hub-signature-256": githubSignature("gh-secret", ping),
    };
    const before = await veronaCount();
    expect((await post("github", one, ping, headers)).status).toBe(200);
    expect((await post("github", two, ping, headers)).status).toBe(200);
    expect(await veronaCount()).toBe(before + 2);
  });

  it("does not let a repeat with a bad signature through, nor count it as seen", async () => {
    const key = await bot("gh5", { github_secret: "gh-secret" });
    const headers = { "x-github-event": "ping", "x-github-delivery": "forged" };
    const forged = await post("github", key, ping, { ...headers, "x-hub-signature-256": "sha256=00" });
    expect(forged).toEqual({
      status: 401,
      body: {
        result: "error",
        msg: "Webhook signature verification failed.",
        code: "INVALID_WEBHOOK_SIGNATURE",
      },
    });
    const before = await veronaCount();
    const real = { ...headers, "x-hub-signature-256": githubSignature("gh-secret", ping) };
    expect(await post("github", key, ping, real)).toEqual({ status: 200, body: SUCCESS });
    expect(await veronaCount()).toBe(before + 1);
  });

  it("gives the id back when the request fails, so the service's retry posts", async () => {
    const key = await bot("gh6", { github_secret: "gh-secret" });
    const broken = "{not json";
    const headers = { "x-github-event": "ping", "x-github-delivery": "retried" };
    const first = await post("github", key, broken, {
      ...headers,
      "x-hub-signature-256": githubSignature("gh-secret", broken),
    });
    expect(first.status).toBe(400);
    const before = await veronaCount();
    const retry = { ...headers, "x-hub-signature-256": githubSignature("gh-secret", ping) };
    expect(await post("github", key, ping, retry)).toEqual({ status: 200, body: SUCCESS });
    expect(await veronaCount()).toBe(before + 1);
  });
});

describe("finding 6: the delivery log redacts by header name, so X-Private-Key and X-Auth are stored in clear", () => {
  it("stores neither credential headers nor the bot's secrets anywhere in the request", async () => {
    const key = await bot("gh7", { github_secret: "gh-secret-for-redaction" });
    const botId = (
      (await server.api.get("/api/v1/bots", { as: server.users.iago })).body as {
        bots: { user_id: number; api_key: string }[];
      }
    ).bots.find((b) => b.api_key === key)!.user_id;
    const body = JSON.stringify({
      zen: `a key ${key} and a secret gh-secret-for-redaction in the text`,
      hook_id: 2,
      hook: { type: "Repository", id: 2, events: ["push"] },
      repository: {
        id: 1,
        name: "hello",
        full_name: "octo/hello",
        html_url: "https://github.com/octo/hello",
      },
      sender: { login: "octo" },
    });
    const res = await post("github", key, body, {
      "x-github-event": "ping",
      "x-github-delivery": "redaction-1",
      "x-hub-signature-256": githubSignature("gh-secret-for-redaction", body),
      "x-private-key": "-----BEGIN PRIVATE KEY-----",
      "x-auth": "opaque-credential-value",
      "x-author": "Hamlet",
    });
    expect(res).toEqual({ status: 200, body: SUCCESS });
    const [entry] = await deliveries(botId);
    const request = entry!["request"] as { headers: Record<string, string>; body: string };
    expect(request.headers).toMatchObject({
      "x-private-key": "[redacted]",
      "x-auth": "[redacted]",
      "x-author": "Hamlet",
      "x-hub-signature-256": "[redacted]",
    });
    expect(JSON.parse(request.body)).toMatchObject({
      zen: "a key [redacted] and a secret [redacted] in the text",
    });
    const stored = JSON.stringify(entry);
    expect(stored).not.toContain(key);
    expect(stored).not.toContain("gh-secret-for-redaction");
    expect(stored).not.toContain("opaque-credential-value");
  });

  it("logs a repeated delivery as ignored, saying why", async () => {
    const key = await bot("gh8", { github_secret: "gh-secret" });
    const bots = (await server.api.get("/api/v1/bots", { as: server.users.iago })).body as {
      bots: { user_id: number; api_key: string }[];
    };
    const botId = bots.bots.find((b) => b.api_key === key)!.user_id;
    const headers = {
      "x-github-event": "ping",
      "x-github-delivery": "logged-twice",
      "x-hub-signature-256": githubSignature("gh-secret", ping),
    };
    await post("github", key, ping, headers);
    await post("github", key, ping, headers);
    const [repeat, first] = await deliveries(botId);
    expect(first).toMatchObject({ outcome: "sent", event: "ping", error: null });
    expect(repeat).toMatchObject({
      outcome: "ignored",
      event: "duplicate",
      message_ids: [],
      response: { status: 200, body: '{"result":"success","msg":""}' },
      error:
        "Delivery logged-twice was already received: a repeat is answered with success and posts nothing.",
    });
  });
});
