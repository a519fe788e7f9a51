/**
 * Set-up requests over HTTP: GET/HEAD reach an integration's handshake after authentication; an
 * integration without one answers 405; signatures that cover the URL see it as the sender called it.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import crypto from "node:crypto";
import http from "node:http";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer } from "../helpers/test-server.js";

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

async function call(
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<{ status: number; type: string | null; text: string }> {
  const res = await fetch(`${t.url}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
  return { status: res.status, type: res.headers.get("content-type"), text: await res.text() };
}

/** A raw HTTP request (fetch may not set Host). */
function raw(
  path: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; body: unknown }> {
  const { port } = new URL(t.url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: "127.0.0.1", port: Number(port), method: "POST", path, headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) }),
        );
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

describe("GET and HEAD on /api/v1/external/<integration>", () => {
  it("answers 405 JSON for an integration without a handshake", async () => {
    const res = await call(
      "GET",
      `/api/v1/external/helloworld?api_key=${t.users.webhookBot.apiKey}&stream=test`,
    );
    expect({ status: res.status, body: JSON.parse(res.text) as unknown }).toEqual({
      status: 405,
      body: {
        result: "error",
        msg: "Method Not Allowed",
        code: "METHOD_NOT_ALLOWED",
        allowed_methods: ["POST"],
      },
    });
    const head = await call("HEAD", `/api/v1/external/helloworld?api_key=${t.users.webhookBot.apiKey}`);
    expect({ status: head.status, text: head.text }).toEqual({ status: 405, text: "" });
  });

  it("echoes Dropbox's challenge after authentication", async () => {
    const ok = await call(
      "GET",
      `/api/v1/external/dropbox?api_key=${t.users.webhookBot.apiKey}&challenge=abc123`,
    );
    expect({ status: ok.status, text: ok.text }).toEqual({ status: 200, text: "abc123" });
    const anonymous = await call("GET", "/api/v1/external/dropbox?challenge=abc123");
    expect({ status: anonymous.status, body: JSON.parse(anonymous.text) as unknown }).toEqual({
      status: 400,
      body: {
        result: "error",
        msg: "Missing 'api_key' argument",
        code: "REQUEST_VARIABLE_MISSING",
        var_name: "api_key",
      },
    });
  });

  it("answers Trello's HEAD check of the callback URL", async () => {
    const res = await call(
      "HEAD",
      `/api/v1/external/trello?api_key=${t.users.webhookBot.apiKey}&stream=test`,
    );
    expect({ status: res.status, text: res.text }).toEqual({ status: 200, text: "" });
  });
});

describe("signatures over the URL as called", () => {
  const secret = "trello-app-secret";
  let bot: { apiKey: string; email: string };
  beforeAll(async () => {
    const res = await t.api.post("/api/v1/bots", {
      as: t.users.iago,
      params: {
        full_name: "Signed Trello",
        short_name: "signedtrello",
        bot_type: 2,
        config_data: { trello_secret: secret },
      },
    });
    expect(res.status).toBe(200);
    bot = { apiKey: res.body.api_key as string, email: res.body.email as string };
    await t.api.post("/api/v1/users/me/subscriptions", {
      as: t.users.iago,
      params: { subscriptions: [{ name: "trello" }], principals: [bot.email] },
    });
  });

  // An action Trello posts nothing for is enough: the signature is checked before the payload.
  const body = JSON.stringify({ action: { type: "createCheckItem", data: {} }, model: { id: "b1" } });
  const sign = (url: string): string =>
    crypto
      .createHmac("sha1", secret)
      .update(body + url)
      .digest("base64");

  it("uses X-Forwarded-Proto and the Host header, path and query", async () => {
    const path = `/api/v1/external/trello?api_key=${bot.apiKey}&stream=trello`;
    const called = `https://chat.example.com${path}`;
    const headers = { "content-type": "application/json", host: "chat.example.com" };
    const ok = await raw(
      path,
      { ...headers, "x-forwarded-proto": "https", "x-trello-webhook": sign(called) },
      body,
    );
    expect(ok).toEqual({ status: 200, body: { result: "success", msg: "" } });
    // Without X-Forwarded-Proto the request was called over http: the https signature fails.
    const wrong = await raw(path, { ...headers, "x-trello-webhook": sign(called) }, body);
    expect(wrong).toEqual({
      status: 401,
      body: {
        result: "error",
        msg: "Webhook signature verification failed.",
        code: "INVALID_WEBHOOK_SIGNATURE",
      },
    });
    const plain = await raw(
      path,
      { ...headers, "x-trello-webhook": sign(`http://chat.example.com${path}`) },
      body,
    );
    expect(plain).toEqual({ status: 200, body: { result: "success", msg: "" } });
  });
});
