/**
 * The Standard Webhooks integration through the real endpoint of a listening server. The sender here
 * signs as the specification says (HMAC-SHA256 of `{id}.{timestamp}.{body}` keyed with the base64 part
 * of `whsec_…`, header `v1,<base64>`), written in the test, not with our helper.
 */
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import crypto from "node:crypto";
import fs from "node:fs";
import { startTestServer } from "../../test/helpers/test-server.js";
import type { TestServer } from "../../test/helpers/test-server.js";
import { createStream } from "../../test/http/message-helpers.js";

const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const FIXTURE = fs.readFileSync(new URL(`./fixtures/${"invoice_paid"}.json`, import.meta.url), "utf8");

let t: TestServer;
let bot: { id: number; apiKey: string };

function sign(id: string, ts: number, body: string, secret = SECRET): Record<string, string> {
  const key = Buffer.from(secret.slice("whsec_".length), "base64");
  const sig = crypto.createHmac("sha256", key).update(`${id}.${ts}.${body}`).digest("base64");
  return { "webhook-id": id, "webhook-timestamp": String(ts), "webhook-signature": `v1,${sig}` };
}

async function post(
  headers: Record<string, string>,
  body = FIXTURE,
): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${t.url}/api/v1/external/standardwebhooks?stream=ops`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${bot.apiKey}`, ...headers },
    body,
  });
  return { status: res.status, body: (await res.json()) as unknown };
}

async function messages(): Promise<{ topic: string; content: string }[]> {
  return t.running.db.all<{ topic: string; content: string }>(
    "SELECT topic, content FROM messages WHERE sender_id = ? ORDER BY id",
    [bot.id],
  );
}

async function configure(config: Record<string, string>): Promise<void> {
  const res = await t.api.patch(`/api/v1/bots/${bot.id}`, {
    as: t.users.iago,
    params: { config_data: JSON.stringify(config) },
  });
  expect(res.status).toBe(200);
}

beforeAll(async () => {
  t = await startTestServer();
  const res = await t.api.post("/api/v1/bots", {
    as: t.users.iago,
    params: { full_name: "SW Bot", short_name: "sw", bot_type: 2 },
  });
  expect(res.status).toBe(200);
  bot = { id: res.body.user_id as number, apiKey: res.body.api_key as string };
  await createStream(t, "ops", [t.users.iago]);
});
afterAll(() => t.close());

const now = (): number => Math.floor(Date.now() / 1000);
const badSignature = (why: string): { status: number; body: unknown } => ({
  status: 401,
  body: {
    result: "error",
    msg: `Webhook signature verification failed (${why}).`,
    code: "INVALID_WEBHOOK_SIGNATURE",
  },
});

describe("standardwebhooks", () => {
  it("refuses requests while the bot has no secret", async () => {
    expect(await post(sign("msg_0", now(), FIXTURE))).toEqual({
      status: 401,
      body: {
        result: "error",
        msg: "The bot has no signing secret: set standardwebhooks_secret (whsec_…) in its configuration.",
        code: "INVALID_WEBHOOK_SIGNATURE",
      },
    });
  });

  it("posts a verified request as formatted JSON, once per webhook-id", async () => {
    await configure({ standardwebhooks_secret: SECRET });
    const headers = sign("msg_1", now(), FIXTURE);
    expect(await post(headers)).toEqual({ status: 200, body: { result: "success", msg: "" } });
    // The sender's retry: same id (a fresh timestamp and signature), acknowledged, not posted again.
    expect(await post(sign("msg_1", now(), FIXTURE))).toEqual({
      status: 200,
      body: { result: "success", msg: "" },
    });
    const posted = await messages();
    expect(posted).toHaveLength(1);
    expect(posted[0]!.topic).toBe("Webhook");
    expect(posted[0]!.content).toBe("```json\n" + JSON.stringify(JSON.parse(FIXTURE), null, 2) + "\n```");
  });

  it("uses the bot's templates when set; a rotation's old and new secrets both verify", async () => {
    const fresh = "whsec_" + crypto.randomBytes(24).toString("base64");
    await configure({
      standardwebhooks_secret: `${fresh} ${SECRET}`,
      template_topic: "{{ payload.type }}",
      template_body: "Invoice {{ payload.data.invoice }} paid",
    });
    expect(await post(sign("msg_2", now(), FIXTURE, fresh))).toEqual({
      status: 200,
      body: { result: "success", msg: "" },
    });
    expect(await post(sign("msg_3", now(), FIXTURE))).toEqual({
      status: 200,
      body: { result: "success", msg: "" },
    });
    expect((await messages()).slice(-2)).toEqual([
      { topic: "invoice.paid", content: "Invoice in_1042 paid" },
      { topic: "invoice.paid", content: "Invoice in_1042 paid" },
    ]);
  });

  it("refuses forged, tampered, stale and unsigned requests", async () => {
    expect(
      await post(sign("msg_4", now(), FIXTURE, "whsec_" + crypto.randomBytes(24).toString("base64"))),
    ).toEqual(badSignature("no_matching_signature"));
    expect(await post(sign("msg_5", now(), FIXTURE), FIXTURE.replace("4200", "1"))).toEqual(
      badSignature("no_matching_signature"),
    );
    expect(await post(sign("msg_6", now() - 600, FIXTURE))).toEqual(badSignature("stale_timestamp"));
    expect(await post({})).toEqual({
      status: 401,
      body: {
        result: "error",
        msg: "Missing the signature header 'webhook-signature'",
        code: "INVALID_WEBHOOK_SIGNATURE",
      },
    });
  });
});
