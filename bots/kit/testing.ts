import { expect } from "@jest/globals";
import type { Bot } from "./define-bot.js";
import { initializeBot } from "./dispatch.js";
import { MemoryBotHandler } from "./memory-handler.js";
import type { BotAction, MemoryBotHandlerOptions } from "./memory-handler.js";
import type { BotMessage } from "./types.js";

export interface BotTesterOptions extends MemoryBotHandlerOptions {
  /** Fields of every test message (default: a stream message from foo@example.com in "test stream" > "test topic"). */
  message?: Partial<BotMessage>;
}

/** A request and the text the bot must answer with (the sent or edited content); null: no message. */
export type DialogStep = readonly [request: string, expectedResponse: string | null];

export interface BotTester {
  readonly handler: MemoryBotHandler;
  /** Sends one message (content as after mention stripping) and returns the actions it caused. */
  send(content: string, message?: Partial<BotMessage>): Promise<BotAction[]>;
  /** Sends each request in turn and asserts the text the bot answered with. */
  verifyDialog(steps: readonly DialogStep[]): Promise<void>;
}

/** The message a test sends, in GET /messages format. */
export function testMessage(content: string, fields: Partial<BotMessage> = {}, id = 1): BotMessage {
  return {
    id,
    content,
    sender_id: 10,
    sender_email: "foo@example.com",
    sender_full_name: "Foo Test User",
    type: "stream",
    display_recipient: "test stream",
    stream_id: 1,
    subject: "test topic",
    ...fields,
  };
}

function visibleText(action: BotAction): string | null {
  switch (action.kind) {
    case "send":
      return action.message.content;
    case "update":
      return action.update.content;
    case "react":
    case "upload":
      return null;
  }
}

/**
 * Zulip's `verify_dialog` for our bots: wraps the bot in a {@link MemoryBotHandler} (initialised once,
 * like in the bot server) and feeds it messages.
 */
export function botTester(bot: Bot, options: BotTesterOptions = {}): BotTester {
  const handler = new MemoryBotHandler(options);
  let initialized: Promise<void> | undefined;
  let messageId = 1;

  async function send(content: string, fields: Partial<BotMessage> = {}): Promise<BotAction[]> {
    initialized ??= initializeBot(bot, handler);
    await initialized;
    const before = handler.actions.length;
    await bot.handleMessage(testMessage(content, { ...options.message, ...fields }, messageId++), handler);
    return handler.actions.slice(before);
  }

  return {
    handler,
    send,
    async verifyDialog(steps) {
      for (const [request, expected] of steps) {
        const texts = (await send(request)).map(visibleText).filter((t): t is string => t !== null);
        expect({ request, responses: texts }).toEqual({
          request,
          responses: expected === null ? [] : [expected],
        });
      }
    },
  };
}
