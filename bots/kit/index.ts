export { defineBot } from "./define-bot.js";
export type { Bot, BotDefinition } from "./define-bot.js";
export {
  TRIGGERS,
  dispatchBotMessage,
  extractQueryWithoutMention,
  initializeBot,
  replyTarget,
} from "./dispatch.js";
export type { DispatchOutcome } from "./dispatch.js";
export {
  BotRateLimitError,
  BotStorageError,
  BotStorageKeyError,
  ChatApiError,
  NoBotConfigError,
} from "./errors.js";
export { MemoryBotHandler, MemoryBotStorage } from "./memory-handler.js";
export type { BotAction, MemoryBotHandlerOptions } from "./memory-handler.js";
export {
  ChatApiClient,
  RestBotHandler,
  RestBotStorage,
  RateLimit,
  apiBaseUrl,
  encodeApiArgs,
  fetchBotIdentity,
} from "./rest-handler.js";
export type { ChatApiClientOptions, ChatApiCredentials } from "./rest-handler.js";
export type {
  BotConfigInfo,
  BotHandler,
  BotIdentity,
  BotMessage,
  BotStorage,
  DisplayRecipientUser,
  MessageUpdate,
  OutgoingMessage,
  SentMessage,
  Trigger,
} from "./types.js";
