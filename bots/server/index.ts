/**
 * The bot server's public API, for the chat server to host it in-process
 * (`chat-server serve --botserver-config FILE`):
 *
 *   const config = loadBotServerConfig({ configFile: FILE });
 *   const botServer = await startBotServer({ config, hostname: "127.0.0.1", port: 5002 });
 *   // … later: await botServer.close();
 *
 * or, on an existing Koa app / HTTP server: `createBotServerApp(await prepareBots({ config }))`
 * (a Koa app: mount its `callback()`), or `botServerRouter(bots, { prefix })` under a host app whose
 * error middleware writes `JsonableError`s.
 */
export {
  botHost,
  botServerLogger,
  botServerRouter,
  createBotServerApp,
  silentLogger,
  stderrLogger,
  tokensMatch,
} from "./app.js";
export { BotHost } from "./host.js";
export type { BotHostOptions, Delivery } from "./host.js";
export { BotServerMetrics } from "./metrics.js";
export { WorkQueue } from "./work-queue.js";
export type { BotServerAppOptions, Logger, RunningBot } from "./app.js";
export {
  ConfigError,
  ENV_VAR,
  REQUIRED_OPTIONS,
  loadBotConfigFile,
  loadBotServerConfig,
  parseBotConfigFile,
  parseBotServerConfig,
  parseBotServerEnvConfig,
} from "./config.js";
export type {
  BotConfigSections,
  BotServerConfig,
  BotServerEntry,
  LoadOptions,
  ParseOptions,
} from "./config.js";
export { BotStartupError, BotTokenMismatchError, UnknownBotEmailError } from "./errors.js";
export { cliOptions, cliParser, runBotServer } from "./main.js";
export type { BotServerCliOptions } from "./main.js";
export { STARTUP_RETRY, checkBot, loadBot, prepareBot, prepareBots, startBotServer } from "./start.js";
export type { PrepareBotsOptions, ReloadResult, RunningBotServer, StartBotServerOptions } from "./start.js";
