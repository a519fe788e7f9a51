/**
 * The registry of bundled bots: the one shared file a new bot edits. The bot server and the chat
 * server's embedded bots look bots up here by name (the INI section / embedded bot name).
 */
import converter from "./converter/index.js";
import encrypt from "./encrypt/index.js";
import followup from "./followup/index.js";
import githubDetail from "./github_detail/index.js";
import helloworld from "./helloworld/index.js";
import help from "./help/index.js";
import incrementor from "./incrementor/index.js";
import type { Bot } from "./kit/index.js";
import tictactoe from "./tictactoe/index.js";
import triviaQuiz from "./trivia_quiz/index.js";
import virtualFs from "./virtual_fs/index.js";
import wikipedia from "./wikipedia/index.js";
import xkcd from "./xkcd/index.js";

export const BOTS: readonly Bot[] = [
  converter,
  encrypt,
  followup,
  githubDetail,
  helloworld,
  help,
  incrementor,
  tictactoe,
  triviaQuiz,
  virtualFs,
  wikipedia,
  xkcd,
];

/** Name → bot, for lookups. */
export const BOT_REGISTRY: ReadonlyMap<string, Bot> = new Map(BOTS.map((bot) => [bot.name, bot]));

export function findBot(name: string): Bot | undefined {
  return BOT_REGISTRY.get(name);
}

/** Bundled bots the chat server may run as embedded bots (`embeddable: true` in their definition). */
export const EMBEDDABLE_BOT_NAMES: readonly string[] = BOTS.filter((bot) => bot.embeddable).map(
  (bot) => bot.name,
);
