import { afterEach, describe, expect, it } from "@jest/globals";
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { ManualClock } from "../../src/clock.js";
import { defaultConfig } from "../../src/config.js";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer } from "../helpers/test-server.js";
import { createStream } from "./message-helpers.js";

/**
 * An independent receiver written from the Standard Webhooks specification's text (not importing our
 * helper): signed content `{webhook-id}.{webhook-timestamp}.{body}`, HMAC-SHA256 keyed with the
 * base64-decoded part of `whsec_…`, header `webhook-signature` a space-separated list of `v1,<base64>`;
 * a timestamp more than 5 minutes from the receiver's clock is refused.
 */
function receiverAccepts(
  secret: string,
  headers: http.IncomingHttpHeaders,
  body: string,
  nowMs: number,
): boolean {
  const id = headers["webhook-id"];
  const ts = headers["webhook-timestamp"];
  const sig = headers["webhook-signature"];
  if (typeof id !== "string" || typeof ts !== "string" || typeof sig !== "string") return false;
  if (Math.abs(Math.floor(nowMs / 1000) - Number(ts)) > 300) return false;
  const mac = crypto
    .createHmac("sha256", Buffer.from(secret.replace(/^whsec_/, ""), "base64"))
    .update(`${id}.${ts}.${body}`)
    .digest();
  return sig.split(" ").some((part) => {
    const comma = part.indexOf(",");
    if (part.slice(0, comma) !== "v1") return false;
    const got = Buffer.from(part.slice(comma + 1), "base64");
    return got.length === mac.length && crypto.timingSafeEqual(got, mac);
  });
}

/**
 * An independent Ed25519 receiver from the specification's text: the signed content is the same
 * `{webhook-id}.{webhook-timestamp}.{body}`; asymmetric signatures are `v1a,<base64 Ed25519
 * signature>` in the same space-separated header; the public key is a standard Ed25519 public key,
 * base64 encoded and prefixed `whpk_` (the raw 32 bytes, wrapped here in its RFC 8410 SPKI form for
 * node:crypto).
 */
function ed25519ReceiverAccepts(
  publicKey: string,
  headers: http.IncomingHttpHeaders,
  body: string,
  nowMs: number,
): boolean {
  const id = headers["webhook-id"];
  const ts = headers["webhook-timestamp"];
  const sig = headers["webhook-signature"];
  if (typeof id !== "string" || typeof ts !== "string" || typeof sig !== "string") return false;
  if (Math.abs(Math.floor(nowMs / 1000) - Number(ts)) > 300) return false;
  const raw = Buffer.from(publicKey.replace(/^whpk_/, ""), "base64");
  if (raw.length !== 32) return false;
  const key = crypto.createPublicKey({
    key: Buffer.concat([Buffer.from("302a300506032b6570032100", "hex"), raw]),
    format: "der",
    type: "spki",
  });
  return sig.split(" ").some((part) => {
    const comma = part.indexOf(",");
    if (part.slice(0, comma) !== "v1a") return false;
    return crypto.verify(
      null,
      Buffer.from(`${id}.${ts}.${body}`),
      key,
      Buffer.from(part.slice(comma + 1), "base64"),
    );
  });
}

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function endpoint(): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"response_not_required": true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  cleanups.push(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, received };
}

async function setup(): Promise<{
  server: TestServer;
  clock: ManualClock;
  received: Received[];
  botId: number;
  token: string;
}> {
  const clock = new ManualClock();
  const server = await startTestServer({
    clock,
    config: { outgoingWebhooks: { ...defaultConfig().outgoingWebhooks, pollIntervalMs: 0 } },
  });
  cleanups.push(() => server.close());
  const ep = await endpoint();
  const { iago, hamlet, othello } = server.users;
  const res = await server.api.post("/api/v1/bots", {
    as: iago,
    params: {
      full_name: "Outgoing Bot",
      short_name: "outgoing",
      bot_type: 3,
      payload_url: JSON.stringify(ep.url),
      interface_type: 1,
    },
  });
  expect(res.status).toBe(200);
  await createStream(server, "Denmark", [iago, hamlet, othello]);
  return {
    server,
    clock,
    received: ep.received,
    botId: res.body.user_id as number,
    token: res.body.services[0].token as string,
  };
}

async function trigger(s: { server: TestServer }): Promise<void> {
  const res = await s.server.api.post("/api/v1/messages", {
    as: s.server.users.hamlet,
    params: { type: "stream", to: "Denmark", topic: "castle", content: "@**Outgoing Bot** hello" },
  });
  expect(res.status).toBe(200);
  await s.server.running.services.outgoing.idle();
}

const SECRET = expect.stringMatching(/^whsec_[A-Za-z0-9+/]+=*$/);

describe("outgoing webhooks are signed (Standard Webhooks)", () => {
  it("carries webhook-id (the delivery id), webhook-timestamp and a v1 signature a receiver verifies; the body token stays", async () => {
    const s = await setup();
    await trigger(s);
    expect(s.received).toHaveLength(1);
    const got = s.received[0]!;
    const body = JSON.parse(got.body) as { token: string; delivery_id: string };
    expect(body.token).toBe(s.token);
    expect(got.headers["webhook-id"]).toBe(body.delivery_id);
    expect(got.headers["x-delivery-id"]).toBe(body.delivery_id);
    expect(got.headers["webhook-timestamp"]).toBe(String(Math.floor(s.clock.now() / 1000)));
    expect(got.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);

    const list = await s.server.api.get(`/api/v1/bots/${s.botId}/signing_secrets`, {
      as: s.server.users.iago,
    });
    expect(list.status).toBe(200);
    expect(list.body).toEqual({
      result: "success",
      msg: "",
      signing_secrets: [{ secret: SECRET, created_at: Math.floor(s.clock.now() / 1000), retires_at: null }],
    });
    const secret = (list.body.signing_secrets as { secret: string }[])[0]!.secret;
    expect(receiverAccepts(secret, got.headers, got.body, s.clock.now())).toBe(true);
    expect(receiverAccepts(secret, got.headers, got.body.replace("hello", "hellO"), s.clock.now())).toBe(
      false,
    );
    expect(receiverAccepts(secret, got.headers, got.body, s.clock.now() + 301_000)).toBe(false);
  });

  it("rotates with an overlap: both secrets sign until the owner's time, then only the new one", async () => {
    const s = await setup();
    const iago = s.server.users.iago;
    const old = (await s.server.api.get(`/api/v1/bots/${s.botId}/signing_secrets`, { as: iago })).body
      .signing_secrets[0].secret as string;
    const t0 = Math.floor(s.clock.now() / 1000);
    s.clock.advance(1000);
    const until = t0 + 3600;
    const rotated = await s.server.api.post(`/api/v1/bots/${s.botId}/signing_secrets/rotate`, {
      as: iago,
      params: { overlap_until: String(until) },
    });
    expect(rotated.status).toBe(200);
    expect(rotated.body).toEqual({
      result: "success",
      msg: "",
      signing_secrets: [
        { secret: SECRET, created_at: t0 + 1, retires_at: null },
        { secret: old, created_at: t0, retires_at: until },
      ],
    });
    const fresh = rotated.body.signing_secrets[0].secret as string;
    expect(fresh).not.toBe(old);

    await trigger(s);
    const during = s.received[0]!;
    expect((during.headers["webhook-signature"] as string).split(" ")).toHaveLength(2);
    expect(receiverAccepts(old, during.headers, during.body, s.clock.now())).toBe(true);
    expect(receiverAccepts(fresh, during.headers, during.body, s.clock.now())).toBe(true);

    s.clock.advance(3600_000);
    await trigger(s);
    const after = s.received[1]!;
    expect((after.headers["webhook-signature"] as string).split(" ")).toHaveLength(1);
    expect(receiverAccepts(old, after.headers, after.body, s.clock.now())).toBe(false);
    expect(receiverAccepts(fresh, after.headers, after.body, s.clock.now())).toBe(true);

    // The delivery log marks the delivery an old secret signed too (newest first).
    const log = await s.server.api.get(`/api/v1/bots/${s.botId}/deliveries`, { as: iago });
    expect(
      (log.body.deliveries as { outcome: string; old_credential: string | null }[]).map((d) => [
        d.outcome,
        d.old_credential,
      ]),
    ).toEqual([
      ["delivered", null],
      ["delivered", "signing_secret"],
    ]);
  });

  it("the owner retires the old secret before the overlap ends; others may not touch the secrets", async () => {
    const s = await setup();
    const iago = s.server.users.iago;
    await s.server.api.post(`/api/v1/bots/${s.botId}/signing_secrets/rotate`, { as: iago });
    const retired = await s.server.api.post(`/api/v1/bots/${s.botId}/signing_secrets/retire_old`, {
      as: iago,
    });
    expect(retired.status).toBe(200);
    expect(retired.body).toEqual({
      result: "success",
      msg: "",
      signing_secrets: [{ secret: SECRET, created_at: Math.floor(s.clock.now() / 1000), retires_at: null }],
    });
    await trigger(s);
    expect((s.received[0]!.headers["webhook-signature"] as string).split(" ")).toHaveLength(1);

    const denied = await s.server.api.get(`/api/v1/bots/${s.botId}/signing_secrets`, {
      as: s.server.users.hamlet,
    });
    expect({ status: denied.status, body: denied.body }).toEqual({
      status: 400,
      body: { result: "error", msg: "Insufficient permission", code: "BAD_REQUEST" },
    });
  });
});

const PUBLIC_KEY = expect.stringMatching(/^whpk_[A-Za-z0-9+/]{43}=$/);

describe("Ed25519 signatures (v1a) as an option", () => {
  it("switches a bot to Ed25519 with an overlap: v1 and v1a side by side, then v1a alone; only the public key is shown", async () => {
    const s = await setup();
    const iago = s.server.users.iago;
    const old = (await s.server.api.get(`/api/v1/bots/${s.botId}/signing_secrets`, { as: iago })).body
      .signing_secrets[0].secret as string;
    const t0 = Math.floor(s.clock.now() / 1000);
    const rotated = await s.server.api.post(`/api/v1/bots/${s.botId}/signing_secrets/rotate`, {
      as: iago,
      params: { overlap_until: String(t0 + 3600), algorithm: "ed25519" },
    });
    expect({ status: rotated.status, body: rotated.body }).toEqual({
      status: 200,
      body: {
        result: "success",
        msg: "",
        signing_secrets: [
          { public_key: PUBLIC_KEY, created_at: t0, retires_at: null },
          { secret: old, created_at: t0, retires_at: t0 + 3600 },
        ],
      },
    });
    const publicKey = rotated.body.signing_secrets[0].public_key as string;
    // The secret key never leaves the server.
    expect(JSON.stringify(rotated.body)).not.toContain("whsk_");

    await trigger(s);
    const during = s.received[0]!;
    expect((during.headers["webhook-signature"] as string).split(" ").map((p) => p.split(",")[0])).toEqual([
      "v1a",
      "v1",
    ]);
    expect(ed25519ReceiverAccepts(publicKey, during.headers, during.body, s.clock.now())).toBe(true);
    expect(receiverAccepts(old, during.headers, during.body, s.clock.now())).toBe(true);
    expect(
      ed25519ReceiverAccepts(publicKey, during.headers, during.body.replace("hello", "hellO"), s.clock.now()),
    ).toBe(false);
    expect(ed25519ReceiverAccepts(publicKey, during.headers, during.body, s.clock.now() + 301_000)).toBe(
      false,
    );

    // Another rotation keeps the algorithm; retiring leaves v1a alone, verified by the public key.
    const again = await s.server.api.post(`/api/v1/bots/${s.botId}/signing_secrets/rotate`, { as: iago });
    expect(again.body.signing_secrets.map((r: Record<string, unknown>) => Object.keys(r)[0])).toEqual([
      "public_key",
      "public_key",
      "secret",
    ]);
    const newest = again.body.signing_secrets[0].public_key as string;
    expect(newest).not.toBe(publicKey);
    await s.server.api.post(`/api/v1/bots/${s.botId}/signing_secrets/retire_old`, { as: iago });
    await trigger(s);
    const after = s.received[1]!;
    expect((after.headers["webhook-signature"] as string).split(" ").map((p) => p.split(",")[0])).toEqual([
      "v1a",
    ]);
    expect(ed25519ReceiverAccepts(newest, after.headers, after.body, s.clock.now())).toBe(true);
    expect(ed25519ReceiverAccepts(publicKey, after.headers, after.body, s.clock.now())).toBe(false);
    expect(receiverAccepts(old, after.headers, after.body, s.clock.now())).toBe(false);

    // And back to HMAC when asked.
    const back = await s.server.api.post(`/api/v1/bots/${s.botId}/signing_secrets/rotate`, {
      as: iago,
      params: { algorithm: "hmac-sha256" },
    });
    expect(back.body.signing_secrets[0]).toEqual({ secret: SECRET, created_at: t0, retires_at: null });
  });

  it("refuses an unknown algorithm", async () => {
    const s = await setup();
    const res = await s.server.api.post(`/api/v1/bots/${s.botId}/signing_secrets/rotate`, {
      as: s.server.users.iago,
      params: { algorithm: "rsa" },
    });
    expect({ status: res.status, body: res.body }).toEqual({
      status: 400,
      body: { result: "error", msg: "Invalid algorithm: 'rsa'", code: "BAD_REQUEST" },
    });
  });
});
