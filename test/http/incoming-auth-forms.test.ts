import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer } from "../helpers/test-server.js";
import { createStream } from "./message-helpers.js";

/** An incoming-webhook bot's key outside the query string: Bearer, HTTP Basic, a secret path segment. */
const WRONG = "a".repeat(32);
let t: TestServer;
let bot: { id: number; email: string; apiKey: string };
const fixture = JSON.stringify({
  featured_title: "Goodbye",
  featured_url: "https://en.wikipedia.org/wiki/Goodbye",
});

beforeAll(async () => {
  t = await startTestServer();
  const res = await t.api.post("/api/v1/bots", {
    as: t.users.iago,
    params: { full_name: "Hook Bot", short_name: "hook", bot_type: 2 },
  });
  expect(res.status).toBe(200);
  bot = {
    id: res.body.user_id as number,
    email: res.body.email as string,
    apiKey: res.body.api_key as string,
  };
  await createStream(t, "test", [t.users.iago]);
});
afterAll(() => t.close());

async function send(
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${t.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: fixture,
  });
  return { status: res.status, body: (await res.json()) as unknown };
}

async function lastMessage(): Promise<{ topic: string; content: string }> {
  return (await t.running.db.get<{ topic: string; content: string }>(
    "SELECT topic, content FROM messages ORDER BY id DESC LIMIT 1",
    [],
  ))!;
}

const OK = { status: 200, body: { result: "success", msg: "" } };
const EXPECTED = {
  topic: "Hello",
  content:
    "Hello! I am happy to be here! :smile:\nThe Wikipedia featured article for today is **[Goodbye](https://en.wikipedia.org/wiki/Goodbye)**",
};

describe("incoming webhooks: the bot's key without ?api_key=", () => {
  it("accepts Authorization: Bearer <key>", async () => {
    expect(
      await send("/api/v1/external/helloworld?stream=test&topic=Hello", {
        authorization: `Bearer ${bot.apiKey}`,
      }),
    ).toEqual(OK);
    expect(await lastMessage()).toEqual(EXPECTED);
  });

  it("accepts HTTP Basic (bot email as user, API key as password), Zulip's form", async () => {
    const basic = Buffer.from(`${bot.email}:${bot.apiKey}`).toString("base64");
    expect(
      await send("/api/v1/external/helloworld?stream=test&topic=Hello", { authorization: `Basic ${basic}` }),
    ).toEqual(OK);
    expect(await lastMessage()).toEqual(EXPECTED);
  });

  it("accepts the key as a path segment", async () => {
    expect(await send(`/api/v1/external/helloworld/${bot.apiKey}?stream=test&topic=Hello`)).toEqual(OK);
    expect(await lastMessage()).toEqual(EXPECTED);
    // The delivery log keeps the request without the key (its URL is the one without the segment).
    const log = await t.api.get(`/api/v1/bots/${bot.id}/deliveries`, { as: t.users.iago });
    expect(log.status).toBe(200);
    expect(JSON.stringify(log.body)).toContain("/api/v1/external/helloworld?stream=test");
    expect(JSON.stringify(log.body)).not.toContain(bot.apiKey);
  });

  it("still accepts ?api_key=", async () => {
    expect(await send(`/api/v1/external/helloworld?api_key=${bot.apiKey}&stream=test&topic=Hello`)).toEqual(
      OK,
    );
  });

  it("refuses a wrong key in each form", async () => {
    const wrong = { authorization: `Bearer ${WRONG}` };
    const bearer = await send("/api/v1/external/helloworld?stream=test&topic=Hello", wrong);
    const path = await send(`/api/v1/external/helloworld/${WRONG}?stream=test&topic=Hello`);
    const basic = await send("/api/v1/external/helloworld?stream=test&topic=Hello", {
      authorization: `Basic ${Buffer.from(`${bot.email}:${WRONG}`).toString("base64")}`,
    });
    const none = await send("/api/v1/external/helloworld?stream=test&topic=Hello");
    expect({ bearer, path, basic, none }).toEqual({
      bearer: { status: 401, body: { result: "error", msg: "Invalid API key", code: "INVALID_API_KEY" } },
      path: { status: 401, body: { result: "error", msg: "Invalid API key", code: "INVALID_API_KEY" } },
      basic: { status: 401, body: { result: "error", msg: "Invalid API key", code: "UNAUTHORIZED" } },
      none: {
        status: 400,
        body: {
          result: "error",
          msg: "Missing 'api_key' argument",
          code: "REQUEST_VARIABLE_MISSING",
          var_name: "api_key",
        },
      },
    });
  });
});
