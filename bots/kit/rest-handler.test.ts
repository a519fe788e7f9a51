import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import Koa from "koa";
import { startFakeChatApi } from "../server/testing/fake-chat-api.js";
import type { FakeChatApi } from "../server/testing/fake-chat-api.js";
import { listen } from "../server/testing/listen.js";
import { BotStorageKeyError, ChatApiError } from "./errors.js";
import { NO_RETRY } from "./pacing.js";
import {
  ChatApiClient,
  RestBotHandler,
  apiBaseUrl,
  encodeApiArgs,
  fetchBotIdentity,
} from "./rest-handler.js";

describe("apiBaseUrl", () => {
  it("builds <site>/api/v1 as Zulip's client does", () => {
    expect(
      [
        "http://127.0.0.1:9991",
        "https://chat.example.com/",
        "chat.example.com",
        "localhost:9991",
        "https://x.org/api",
      ].map(apiBaseUrl),
    ).toEqual([
      "http://127.0.0.1:9991/api/v1",
      "https://chat.example.com/api/v1",
      "https://chat.example.com/api/v1",
      "http://localhost:9991/api/v1",
      "https://x.org/api/v1",
    ]);
  });
});

describe("encodeApiArgs", () => {
  it("keeps strings, JSON-encodes the rest and drops undefined", () => {
    expect(
      encodeApiArgs({ content: "hi", to: ["a@b"], id: 5, flag: true, none: undefined, nil: null }),
    ).toEqual({
      content: "hi",
      to: '["a@b"]',
      id: "5",
      flag: "true",
      nil: "null",
    });
  });
});

describe("RestBotHandler against a fake chat API", () => {
  const account = { email: "bot@example.com", key: "key", fullName: "The Bot", userId: 3 };
  let api: FakeChatApi;
  let handler: RestBotHandler;
  beforeAll(async () => {
    api = await startFakeChatApi([account]);
    const client = new ChatApiClient({ email: account.email, key: account.key, site: api.site });
    handler = new RestBotHandler(client, await fetchBotIdentity(client));
  });
  afterAll(() => api.close());

  it("learns its identity from users/me", () => {
    expect(handler.identity).toEqual({
      email: "bot@example.com",
      fullName: "The Bot",
      userId: 3,
      mention: "@**The Bot**",
    });
  });

  it("stores JSON values, reads them back, and reports missing keys", async () => {
    await handler.storage.put("k", { a: [1, "two"] });
    expect(await handler.storage.get("k")).toEqual({ a: [1, "two"] });
    expect([await handler.storage.contains("k"), await handler.storage.contains("nope")]).toEqual([
      true,
      false,
    ]);
    await expect(handler.storage.get("nope")).rejects.toThrow(new BotStorageKeyError("nope"));
    await handler.storage.remove("k");
    await expect(handler.storage.remove("k")).rejects.toThrow("key not found: k");
    expect(
      api.requests.filter((r) => r.path === "/api/v1/bot_storage").map((r) => [r.method, r.fields]),
    ).toEqual([
      ["PUT", { storage: '{"k":"{\\"a\\":[1,\\"two\\"]}"}' }],
      ["GET", { keys: '["k"]' }],
      ["GET", { keys: '["k"]' }],
      ["GET", { keys: '["nope"]' }],
      ["GET", { keys: '["nope"]' }],
      ["DELETE", { keys: '["k"]' }],
      ["DELETE", { keys: '["k"]' }],
    ]);
  });

  it("sends messages and edits with form fields", async () => {
    const sent = await handler.sendMessage({ type: "private", to: [3, "x@example.com"], content: "yo" });
    await handler.updateMessage({ message_id: sent.id, content: "edited" });
    expect(api.requests.slice(-2)).toEqual([
      {
        method: "POST",
        path: "/api/v1/messages",
        auth: "bot@example.com:key",
        fields: { type: "private", to: '[3,"x@example.com"]', content: "yo" },
      },
      {
        method: "PATCH",
        path: `/api/v1/messages/${sent.id}`,
        auth: "bot@example.com:key",
        fields: { content: "edited" },
      },
    ]);
  });

  it("throws ChatApiError with the server's msg and code", async () => {
    const bad = new ChatApiClient({ email: account.email, key: "wrong", site: api.site });
    await expect(bad.call("GET", "users/me")).rejects.toEqual(
      new ChatApiError("Invalid API key", 401, "INVALID_API_KEY"),
    );
  });
});

describe("ChatApiClient errors", () => {
  it("reports a non-JSON answer", async () => {
    const app = new Koa();
    app.use((ctx) => {
      ctx.status = 502;
      ctx.body = "<html>Bad gateway</html>";
    });
    const server = await listen(app);
    try {
      const client = new ChatApiClient({ email: "a@b", key: "k", site: server.url }, { retry: NO_RETRY });
      const err = await client.call("GET", "users/me").catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ChatApiError);
      expect([(err as ChatApiError).status, (err as ChatApiError).message]).toEqual([
        502,
        `Unexpected error from the server (HTTP 502 from GET ${server.url}/api/v1/users/me)`,
      ]);
    } finally {
      await server.close();
    }
  });

  it("treats reacting twice with the same emoji as done, and other reaction errors as errors", async () => {
    const app = new Koa();
    app.use((ctx) => {
      if (ctx.path === "/api/v1/users/me") {
        ctx.body = { result: "success", msg: "", email: "bot@example.com", full_name: "The Bot", user_id: 3 };
        return;
      }
      ctx.status = 400;
      ctx.body =
        ctx.path === "/api/v1/messages/7/reactions"
          ? { result: "error", msg: "Reaction already exists.", code: "REACTION_ALREADY_EXISTS" }
          : { result: "error", msg: "Invalid message(s)", code: "BAD_REQUEST" };
    });
    const server = await listen(app);
    try {
      const client = new ChatApiClient({ email: "bot@example.com", key: "k", site: server.url });
      const handler = new RestBotHandler(client, await fetchBotIdentity(client));
      await expect(handler.react({ id: 7 } as never, "wave")).resolves.toBeUndefined();
      const err = await handler.react({ id: 8 } as never, "wave").catch((e: unknown) => e);
      expect([(err as ChatApiError).code, (err as ChatApiError).message]).toEqual([
        "BAD_REQUEST",
        "Invalid message(s)",
      ]);
    } finally {
      await server.close();
    }
  });
});
