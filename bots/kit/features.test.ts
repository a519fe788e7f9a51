import { describe, expect, it } from "@jest/globals";
import Koa from "koa";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { silentLogger } from "../server/app.js";
import type { Logger } from "../server/app.js";
import { parseBotServerConfig } from "../server/config.js";
import { startBotServer } from "../server/start.js";
import { startFakeChatApi } from "../server/testing/fake-chat-api.js";
import { listen } from "../server/testing/listen.js";
import { defineBot } from "./define-bot.js";
import { BotFileError, BotQuitError, UploadsNotSupportedError } from "./errors.js";
import { quitBot, readBotFile, uploadFile } from "./features.js";
import { MemoryBotHandler } from "./memory-handler.js";
import { NO_RETRY } from "./pacing.js";
import { ChatApiClient, RestBotHandler } from "./rest-handler.js";
import { botTester } from "./testing.js";

describe("readBotFile", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "bot-dir-"));
  mkdirSync(path.join(dir, "assets"));
  writeFileSync(path.join(dir, "assets", "words.txt"), "alpha\nbeta\n");
  writeFileSync(path.join(tmpdir(), "outside-secret.txt"), "secret");
  const bot = defineBot({
    name: "reader",
    usage: "Reads a file of its folder.",
    dir: pathToFileURL(dir + path.sep),
    async handleMessage(message, handler) {
      await handler.sendReply(message, await readBotFile(bot, "assets/words.txt"));
    },
  });

  it("reads a file from the bot's own folder", () => botTester(bot).verifyDialog([["", "alpha\nbeta\n"]]));

  it("refuses paths outside the folder, missing files, and bots without a folder", async () => {
    await expect(readBotFile(bot, "../outside-secret.txt")).rejects.toEqual(
      new BotFileError("Bot 'reader' may only read files in its own folder, not '../outside-secret.txt'"),
    );
    await expect(readBotFile(bot, "/etc/passwd")).rejects.toEqual(
      new BotFileError("Bot 'reader' may only read files in its own folder, not '/etc/passwd'"),
    );
    await expect(readBotFile(bot, "nope.txt")).rejects.toEqual(
      new BotFileError("Bot 'reader' cannot read 'nope.txt': file not found in its folder"),
    );
    const homeless = defineBot({ name: "homeless", usage: "x", handleMessage: () => Promise.resolve() });
    await expect(readBotFile(homeless, "a.txt")).rejects.toEqual(
      new BotFileError(
        `Bot 'homeless' has no folder: give defineBot({ dir: new URL(".", import.meta.url) })`,
      ),
    );
  });
});

describe("uploadFile", () => {
  it("gives a clear error when the chat server has no POST /user_uploads", async () => {
    // The fake answers 404 to endpoints it does not have, as a server without uploads does.
    const api = await startFakeChatApi([{ email: "a@example.com", key: "k", fullName: "A", userId: 1 }]);
    try {
      const handler = new RestBotHandler(
        new ChatApiClient({ email: "a@example.com", key: "k", site: api.site }, { retry: NO_RETRY }),
        { email: "a@example.com", fullName: "A", mention: "@**A**" },
      );
      await expect(uploadFile(handler, { name: "a.txt", content: "hi" })).rejects.toEqual(
        new UploadsNotSupportedError(api.site),
      );
      await expect(uploadFile(handler, { name: "a.txt", content: "hi" })).rejects.toThrow(
        `The chat server at ${api.site} does not accept file uploads (POST /api/v1/user_uploads is not available)`,
      );
    } finally {
      await api.close();
    }
  });

  it("uploads as multipart field `file` and returns the uri, where the server accepts uploads", async () => {
    const seen: string[] = [];
    const app = new Koa();
    app.use(async (ctx) => {
      let raw = "";
      for await (const chunk of ctx.req as AsyncIterable<Buffer>) raw += chunk.toString("utf8");
      seen.push(`${ctx.method} ${ctx.path} ${ctx.get("content-type").split(";")[0]}`);
      seen.push(
        /name="file"; filename="notes.txt"/.test(raw) && raw.includes("hello file") ? "file part" : raw,
      );
      ctx.body = { result: "success", msg: "", uri: "/user_uploads/2/ab/notes.txt" };
    });
    const server = await listen(app);
    try {
      const handler = new RestBotHandler(new ChatApiClient({ email: "a@b", key: "k", site: server.url }), {
        email: "a@b",
        fullName: "A",
        mention: "@**A**",
      });
      expect(
        await uploadFile(handler, { name: "notes.txt", content: "hello file", contentType: "text/plain" }),
      ).toEqual({
        uri: "/user_uploads/2/ab/notes.txt",
      });
      expect(seen).toEqual(["POST /api/v1/user_uploads multipart/form-data", "file part"]);
    } finally {
      await server.close();
    }
  });
});

describe("quit", () => {
  it("throws BotQuitError from any handler", () => {
    expect(() => quitBot(new MemoryBotHandler(), "bad config")).toThrow(new BotQuitError("bad config"));
  });

  it("makes the bot server stop serving the bot, with a log line", async () => {
    const account = { email: "quitter-bot@example.com", key: "k", fullName: "Quitter", userId: 5 };
    const api = await startFakeChatApi([account]);
    const quitter = defineBot({
      name: "quitter",
      usage: "Quits on 'stop'.",
      async handleMessage(message, bot) {
        if (message.content === "stop") quitBot(bot, "asked to stop");
        await bot.sendReply(message, "still here");
      },
    });
    const logged: string[] = [];
    const logger: Logger = {
      ...silentLogger,
      warn: (msg, fields) => logged.push(`${msg} ${JSON.stringify(fields)}`),
    };
    const server = await startBotServer({
      config: parseBotServerConfig(
        `[quitter]\nemail = ${account.email}\nkey = k\nsite = ${api.site}\ntoken = t\n`,
        { knownBots: ["quitter"] },
      ),
      registry: new Map([["quitter", quitter]]),
      port: 0,
      logger,
    });
    const post = async (content: string, id: number): Promise<number> => {
      const res = await fetch(server.url, {
        method: "POST",
        body: JSON.stringify({
          message: {
            id,
            content,
            sender_email: "h@example.com",
            sender_id: 9,
            type: "stream",
            display_recipient: "s",
            subject: "t",
          },
          bot_email: account.email,
          token: "t",
          trigger: "direct_message",
        }),
      });
      await server.idle();
      return res.status;
    };
    try {
      expect(await post("hi", 1)).toBe(200);
      expect(await post("stop", 2)).toBe(200);
      expect(logged).toEqual(['bot quit: no longer served {"bot":"quitter","reason":"asked to stop"}']);
      expect(server.bots).toEqual([]);
      expect(await post("hi", 3)).toBe(400);
    } finally {
      await server.close();
      await api.close();
    }
  });
});
