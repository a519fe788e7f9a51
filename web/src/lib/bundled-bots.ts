/**
 * The bots bundled with the bot server (bots/index.ts): a botserverrc section must be named after
 * one of them. A test (web/test/bundled-bots.test.ts) keeps this list equal to the registry.
 */
export const BUNDLED_BOTS: readonly string[] = [
  "converter",
  "encrypt",
  "followup",
  "github_detail",
  "helloworld",
  "help",
  "incrementor",
  "tictactoe",
  "trivia_quiz",
  "virtual_fs",
  "wikipedia",
  "xkcd",
];
