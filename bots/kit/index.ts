/**
 * The bot kit: what a bot imports. Published as the package export `zulip-compatible-chat/bots`, so
 * a bot outside this repository writes `import { defineBot } from "zulip-compatible-chat/bots"`.
 */
export { defineBot } from "./define-bot.js";
export type { Bot, BotDefinition } from "./define-bot.js";
export {
  TRIGGERS,
  conversationKey,
  dispatchBotMessage,
  extractQueryWithoutMention,
  initializeBot,
  replyTarget,
} from "./dispatch.js";
export type { DispatchOutcome } from "./dispatch.js";
export {
  BotFileError,
  BotQuitError,
  BotStorageError,
  BotStorageKeyError,
  ChatApiError,
  NoBotConfigError,
  UploadsNotSupportedError,
} from "./errors.js";
export { quitBot, readBotFile, uploadFile } from "./features.js";
export { IllegalMoveError, defineGame } from "./game.js";
export type { GameRules } from "./game.js";
export { ServiceUnavailableError, getJson, pick } from "./http.js";
export type { GetJsonOptions, JsonResponse } from "./http.js";
export { MemoryBotHandler, MemoryBotStorage } from "./memory-handler.js";
export type { BotAction, MemoryBotHandlerOptions } from "./memory-handler.js";
export {
  DEFAULT_RETRY_POLICY,
  NO_RETRY,
  TokenBucket,
  backoffMs,
  parsePacing,
  parseRetryAfter,
  realSleep,
} from "./pacing.js";
export type { RetryPolicy, Sleep, TokenBucketOptions } from "./pacing.js";
export {
  ChatApiClient,
  RestBotHandler,
  RestBotStorage,
  apiBaseUrl,
  encodeApiArgs,
  fetchBotIdentity,
  isTransientChatApiError,
} from "./rest-handler.js";
export type { ChatApiClientOptions, ChatApiCredentials, ChatApiObserver } from "./rest-handler.js";
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
  UploadFile,
  UploadedFile,
} from "./types.js";
export { checkWebhookSignature } from "./signature.js";
export { WebhookVerificationError } from "../../src/lib/standard-webhooks.js";
export type { VerificationFailure, VerifyOptions } from "../../src/lib/standard-webhooks.js";
