import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import crypto from "node:crypto";
import helloworld from "../helloworld/index.js";
import { MemoryBotHandler, checkWebhookSignature } from "../kit/index.js";
import { generateSecret, signHeaders } from "../../src/lib/standard-webhooks.js";
import { botHost, createBotServerApp, silentLogger } from "./app.js";
import type { RunningBot } from "./app.js";
import { parseBotServerConfig } from "./config.js";
import { listen } from "./testing/listen.js";

const OLD = generateSecret();
const NEW = generateSecret();

/**
 * An Ed25519 key pair made here with node:crypto, serialised as the specification says: `whpk_` and
 * the base64 of the raw 32-byte public key. Requests are signed here too (`v1a,` and the base64
 * signature over `{id}.{timestamp}.{body}`), not by the project's helper.
 */
const ED = crypto.generateKeyPairSync("ed25519");
const PUBLIC_KEY = `whpk_${Buffer.from(ED.publicKey.export({ format: "jwk" }).x!, "base64url").toString("base64")}`;
function ed25519Headers(id: string, timestamp: number, body: string): Record<string, string> {
  const signature = crypto.sign(null, Buffer.from(`${id}.${timestamp}.${body}`), ED.privateKey);
  return {
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": `v1a,${signature.toString("base64")}`,
  };
}

const bots: RunningBot[] = [
  {
    name: "strict",
    bot: helloworld,
    handler: new MemoryBotHandler({ identity: { email: "strict-bot@example.com", fullName: "Strict" } }),
    email: "strict-bot@example.com",
    token: "strict-token",
    signingSecrets: [NEW, OLD],
    requireSignature: true,
  },
  {
    name: "asymmetric",
    bot: helloworld,
    handler: new MemoryBotHandler({ identity: { email: "ed-bot@example.com", fullName: "Ed" } }),
    email: "ed-bot@example.com",
    token: "ed-token",
    signingSecrets: [PUBLIC_KEY],
    requireSignature: true,
  },
  {
    name: "lenient",
    bot: helloworld,
    handler: new MemoryBotHandler({ identity: { email: "lenient-bot@example.com", fullName: "Lenient" } }),
    email: "lenient-bot@example.com",
    token: "lenient-token",
  },
];

let server: { url: string; close: () => Promise<void> };
beforeAll(async () => {
  server = await listen(
    createBotServerApp(botHost(bots, { logger: silentLogger }), { logger: silentLogger }),
  );
});
afterAll(() => server.close());

function payload(email: string, token: string): string {
  return JSON.stringify({
    bot_email: email,
    token,
    trigger: "mention",
    message: {
      id: 1,
      content: "hi",
      sender_id: 10,
      sender_email: "hamlet@example.com",
      sender_full_name: "King Hamlet",
      type: "stream",
      display_recipient: "Denmark",
      stream_id: 1,
      subject: "castle",
    },
  });
}

async function post(
  body: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: unknown }> {
  const res = await fetch(server.url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body,
  });
  return { status: res.status, body: (await res.json()) as unknown };
}

const now = (): number => Math.floor(Date.now() / 1000);
const ACCEPTED = { status: 200, body: { response_not_required: true } };
const refused = (reason: string): { status: number; body: unknown } => ({
  status: 401,
  body: {
    result: "error",
    msg: `Request signature for bot strict-bot@example.com is not valid (${reason}): the bot server requires signed webhooks.`,
    code: "UNAUTHORIZED",
  },
});

describe("bot server: Standard Webhooks signatures", () => {
  it("accepts a request signed with the new or the old secret during a rotation", async () => {
    const body = payload("strict-bot@example.com", "strict-token");
    expect(await post(body, { ...signHeaders([NEW], "1.1", now(), body) })).toEqual(ACCEPTED);
    expect(await post(body, { ...signHeaders([OLD], "1.2", now(), body) })).toEqual(ACCEPTED);
  });

  it("refuses unsigned, stale, forged and tampered requests when require_signature is set", async () => {
    const body = payload("strict-bot@example.com", "strict-token");
    expect(await post(body)).toEqual(refused("missing_headers"));
    expect(await post(body, { ...signHeaders([NEW], "1.3", now() - 301, body) })).toEqual(
      refused("stale_timestamp"),
    );
    expect(await post(body, { ...signHeaders([generateSecret()], "1.4", now(), body) })).toEqual(
      refused("no_matching_signature"),
    );
    const tampered = body.replace('"hi"', '"bye"');
    expect(await post(tampered, { ...signHeaders([NEW], "1.5", now(), body) })).toEqual(
      refused("no_matching_signature"),
    );
  });

  it("still checks the token first; a bot without signing secrets works with the token alone", async () => {
    expect((await post(payload("strict-bot@example.com", "wrong"))).status).toBe(401);
    expect(await post(payload("lenient-bot@example.com", "lenient-token"))).toEqual(ACCEPTED);
  });

  it("reads signing_secret (several, for a rotation) and require_signature from the bot's INI section", () => {
    const config = parseBotServerConfig(
      `[helloworld]\nemail = h@example.com\nkey = k\nsite = http://localhost\ntoken = t\nsigning_secret = ${NEW}, ${OLD}\nrequire_signature = true\n`,
    );
    expect(config.get("helloworld")).toMatchObject({ signingSecrets: [NEW, OLD], requireSignature: true });
    expect(() =>
      parseBotServerConfig(
        `[helloworld]\nemail = h@example.com\nkey = k\nsite = http://localhost\ntoken = t\nrequire_signature = true\n`,
      ),
    ).toThrow("Section [helloworld] has require_signature = true but no signing_secret");
  });

  it("the bot kit's checkWebhookSignature gives the same verdicts to a bot that receives webhooks itself", () => {
    const body = payload("strict-bot@example.com", "strict-token");
    const t = now();
    expect(checkWebhookSignature([OLD], signHeaders([NEW, OLD], "2.1", t, body), body)).toBe("ok");
    expect(checkWebhookSignature([OLD], signHeaders([NEW], "2.2", t, body), body)).toBe(
      "no_matching_signature",
    );
    expect(checkWebhookSignature([OLD], signHeaders([OLD], "2.3", t - 301, body), body)).toBe(
      "stale_timestamp",
    );
    expect(checkWebhookSignature([OLD], {}, body)).toBe("missing_headers");
  });

  it("accepts v1a (Ed25519) when configured with the whpk_ public key, and refuses forged or stale ones", async () => {
    const body = payload("ed-bot@example.com", "ed-token");
    const t = now();
    expect(await post(body, ed25519Headers("3.1", t, body))).toEqual(ACCEPTED);
    const tampered = payload("ed-bot@example.com", "ed-token").replace("hi", "ho");
    const edRefused = (reason: string) => ({
      status: 401,
      body: {
        result: "error",
        msg: `Request signature for bot ed-bot@example.com is not valid (${reason}): the bot server requires signed webhooks.`,
        code: "UNAUTHORIZED",
      },
    });
    expect(await post(tampered, ed25519Headers("3.2", t, body))).toEqual(edRefused("no_matching_signature"));
    expect(await post(body, ed25519Headers("3.3", t - 301, body))).toEqual(edRefused("stale_timestamp"));
    // An HMAC signature does not satisfy a bot that holds only the public key.
    expect(await post(body, signHeaders([NEW], "3.4", t, body))).toEqual(edRefused("no_matching_signature"));
    // The bot kit gives the same verdicts.
    expect(checkWebhookSignature([PUBLIC_KEY], ed25519Headers("3.5", t, body), body)).toBe("ok");
    expect(checkWebhookSignature([PUBLIC_KEY], ed25519Headers("3.6", t, body), tampered)).toBe(
      "no_matching_signature",
    );
    // And the INI section reads the public key like a secret.
    const config = parseBotServerConfig(
      `[helloworld]\nemail = h@example.com\nkey = k\nsite = http://localhost\ntoken = t\nsigning_secret = ${PUBLIC_KEY}\nrequire_signature = true\n`,
    );
    expect(config.get("helloworld")).toMatchObject({ signingSecrets: [PUBLIC_KEY], requireSignature: true });
  });
});
