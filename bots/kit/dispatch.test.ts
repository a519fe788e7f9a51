import { describe, expect, it } from "@jest/globals";
import { defineBot } from "./define-bot.js";
import { dispatchBotMessage, extractQueryWithoutMention, initializeBot, replyTarget } from "./dispatch.js";
import { MemoryBotHandler } from "./memory-handler.js";
import { testMessage } from "./testing.js";
import type { BotMessage } from "./types.js";

describe("extractQueryWithoutMention", () => {
  it("strips a leading @**Name** and the whitespace after it", () => {
    expect(extractQueryWithoutMention("@**Hello Bot**   do it", ["Hello Bot"])).toBe("do it");
    expect(extractQueryWithoutMention("@**Hello Bot**", ["Hello Bot"])).toBe("");
  });

  it("strips @**Any name|id** when the id is the bot's, even after a rename", () => {
    expect(extractQueryWithoutMention("@**Old Name|55** hi", ["Hello Bot"], 55)).toBe("hi");
    expect(extractQueryWithoutMention("@**Old Name|56** hi", ["Hello Bot"], 55)).toBeNull();
  });

  it("strips @**Name|id** by name when the id is unknown", () => {
    expect(extractQueryWithoutMention("@**Hello Bot|55** hi", ["Hello Bot"])).toBe("hi");
  });

  it("returns null when the message does not start with a mention of the bot", () => {
    expect(extractQueryWithoutMention("hi @**Hello Bot**", ["Hello Bot"])).toBeNull();
    expect(extractQueryWithoutMention("@**Someone Else** hi", ["Hello Bot"])).toBeNull();
    expect(extractQueryWithoutMention("@**** hi", [""])).toBeNull();
    expect(extractQueryWithoutMention("@**Bot.*** hi", ["Bot.*"])).toBe("hi");
  });
});

describe("dispatchBotMessage", () => {
  const received: BotMessage[] = [];
  const echo = defineBot({
    name: "echo",
    usage: "Records messages.",
    handleMessage(message) {
      received.push(message);
      return Promise.resolve();
    },
  });
  const handler = new MemoryBotHandler({ identity: { fullName: "Echo", userId: 9 } });

  it("hands the stripped content to the bot and keeps the original in full_content", async () => {
    received.length = 0;
    expect(await dispatchBotMessage(echo, handler, testMessage("@**Echo** hello"), "mention")).toBe(
      "handled",
    );
    expect(received.map((m) => [m.content, m.full_content])).toEqual([["hello", "@**Echo** hello"]]);
  });

  it("uses the payload's bot_full_name too (a renamed bot)", async () => {
    received.length = 0;
    expect(
      await dispatchBotMessage(echo, handler, testMessage("@**New Echo** hi"), "mention", "New Echo"),
    ).toBe("handled");
    expect(received.map((m) => m.content)).toEqual(["hi"]);
  });

  it("does not strip anything for direct messages", async () => {
    received.length = 0;
    expect(await dispatchBotMessage(echo, handler, testMessage("@**Echo** hi"), "direct_message")).toBe(
      "handled",
    );
    expect(await dispatchBotMessage(echo, handler, testMessage("plain"), "private_message")).toBe("handled");
    expect(received.map((m) => m.content)).toEqual(["@**Echo** hi", "plain"]);
  });

  it("skips other triggers and mentions not at the start", async () => {
    received.length = 0;
    expect(await dispatchBotMessage(echo, handler, testMessage("hi @**Echo**"), "mention")).toBe(
      "mention-not-at-start",
    );
    expect(await dispatchBotMessage(echo, handler, testMessage("hi"), "stream_message")).toBe(
      "ignored-trigger",
    );
    expect(received).toEqual([]);
  });
});

describe("initializeBot", () => {
  it("runs validate then initialize with the bot's config", async () => {
    const calls: string[] = [];
    const bot = defineBot({
      name: "configured",
      usage: "Needs config.",
      config: { required: true, validate: (config) => calls.push(`validate ${config.key ?? ""}`) },
      initialize: () => {
        calls.push("initialize");
        return Promise.resolve();
      },
      handleMessage: () => Promise.resolve(),
    });
    await initializeBot(bot, new MemoryBotHandler({ config: { key: "abc" } }));
    expect(calls).toEqual(["validate abc", "initialize"]);
    await expect(initializeBot(bot, new MemoryBotHandler())).rejects.toThrow(
      "Bot 'configured' needs a [configured] section in its bot config file (--bot-config-file)",
    );
  });
});

describe("defineBot", () => {
  it("rejects bad names and empty usage", () => {
    const handleMessage = (): Promise<void> => Promise.resolve();
    expect(() => defineBot({ name: "Hello-World", usage: "x", handleMessage })).toThrow(
      "Bot name 'Hello-World' must match /^[a-z0-9_]+$/",
    );
    expect(() => defineBot({ name: "hello", usage: " ", handleMessage })).toThrow(
      "Bot 'hello' needs a usage text",
    );
  });
});

describe("replyTarget", () => {
  it("answers the sender of a message that lacks display_recipient", () => {
    const bare = { id: 1, content: "x", sender_email: "a@example.com" } as unknown as BotMessage;
    expect(replyTarget(bare, "hi")).toEqual({ type: "private", to: ["a@example.com"], content: "hi" });
    expect(() => replyTarget({ id: 1, content: "x" } as unknown as BotMessage, "hi")).toThrow(
      "Cannot reply: the message has neither display_recipient nor sender_email",
    );
  });

  it("replies to the stream and topic, or to every DM recipient", () => {
    expect(replyTarget(testMessage("x"), "hi")).toEqual({
      type: "stream",
      to: "test stream",
      topic: "test topic",
      content: "hi",
    });
    expect(
      replyTarget(
        testMessage("x", {
          type: "private",
          display_recipient: [
            { id: 1, email: "a@example.com", full_name: "A" },
            { id: 2, email: "bot@example.com", full_name: "Bot" },
          ],
        }),
        "hi",
        '{"widget_type":"zform"}',
      ),
    ).toEqual({
      type: "private",
      to: ["a@example.com", "bot@example.com"],
      content: "hi",
      widget_content: '{"widget_type":"zform"}',
    });
  });
});
