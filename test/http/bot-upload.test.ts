/** The bot kit's uploadFile against the real chat server's POST /user_uploads. */
import { afterEach, describe, expect, it } from "@jest/globals";
import { ChatApiClient, RestBotHandler, uploadFile } from "../../bots/kit/index.js";
import { startTestServer } from "../helpers/test-server.js";
import type { TestServer } from "../helpers/test-server.js";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("uploadFile (bot kit) against POST /api/v1/user_uploads", () => {
  it("uploads as the bot and returns a uri that serves the file", async () => {
    server = await startTestServer();
    const { hamlet } = server.users;
    const created = await server.api.post("/api/v1/bots", {
      as: hamlet,
      params: { full_name: "Uploader", short_name: "uploader", bot_type: 1 },
    });
    const bot = {
      email: created.body.email as string,
      key: created.body.api_key as string,
      site: server.url,
    };
    const handler = new RestBotHandler(new ChatApiClient(bot), {
      email: bot.email,
      fullName: "Uploader",
      mention: "@**Uploader**",
    });
    const { uri } = await uploadFile(handler, {
      name: "notes.txt",
      content: "hello file\n",
      contentType: "text/plain",
    });
    expect(uri).toMatch(/^\/user_uploads\/.+\/notes\.txt$/);
    const res = await fetch(new URL(uri, server.url), {
      headers: { authorization: `Basic ${Buffer.from(`${bot.email}:${bot.key}`).toString("base64")}` },
    });
    expect({ status: res.status, text: await res.text() }).toEqual({ status: 200, text: "hello file\n" });
  });
});
