/**
 * A game framework for bots, like Zulip's game handler: a game is its rules (pure functions of a
 * state); the framework runs one game per conversation (stream + topic, or DM group), with two
 * players or a player against the computer, keeps it in bot storage and says whose turn it is.
 *
 * Commands: `help`, `start game` (then another player says `join`), `start game with computer`,
 * `move <move>`, `board`, `forfeit`.
 */
import type { Bot } from "./define-bot.js";
import { defineBot } from "./define-bot.js";
import { conversationKey } from "./dispatch.js";
import { BotStorageKeyError } from "./errors.js";
import type { BotHandler, BotMessage } from "./types.js";

/** A move the rules refuse; the message is shown to the player. */
export class IllegalMoveError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** The game's rules: pure functions of a JSON-serialisable state. Player 0 moves first. */
export interface GameRules<State> {
  /** Bot name (folder, INI section). */
  name: string;
  /** Shown to players: "tic-tac-toe". */
  title: string;
  /** How to write a move, for the help: "`move 5` (squares 1–9) or `move 2,3` (row, column)". */
  moveHelp: string;
  newState(): State;
  /** The board as Markdown. */
  render(state: State): string;
  /** Plays `move` for `player` (0 or 1); throws {@link IllegalMoveError}. */
  play(state: State, player: 0 | 1, move: string): State;
  /** The winner (0 or 1), "draw", or null while the game goes on. */
  outcome(state: State): 0 | 1 | "draw" | null;
  /** The computer's move for `player`; without it, games against the computer are refused. */
  computerMove?(state: State, player: 0 | 1): string;
  embeddable?: boolean;
}

interface Seat {
  email: string;
  name: string;
}

/** A game as stored: players, whose turn, the rules' state. */
interface StoredGame<State> {
  /** Player 1 is null while the game waits for an opponent; `computer: true` when it plays. */
  players: [Seat, Seat | null];
  computer: boolean;
  turn: 0 | 1;
  state: State;
}

const COMPUTER: Seat = { email: "", name: "the computer" };

function storageKey(message: BotMessage): string {
  return `game:${conversationKey(message)}`;
}

async function load<State>(bot: BotHandler, key: string): Promise<StoredGame<State> | undefined> {
  try {
    return await bot.storage.get<StoredGame<State>>(key);
  } catch (err) {
    if (err instanceof BotStorageKeyError) return undefined;
    throw err;
  }
}

function helpText<State>(rules: GameRules<State>): string {
  return [
    `Let's play ${rules.title}! Commands:`,
    "* `start game`: start a game here; another player says `join`",
    "* `start game with computer`: play against the computer",
    `* ${rules.moveHelp}: your move`,
    "* `board`: show the board",
    "* `forfeit`: give up the game",
  ].join("\n");
}

/** Makes a bot of the game's rules. */
export function defineGame<State>(rules: GameRules<State>): Bot {
  const seatOf = (game: StoredGame<State>, email: string): 0 | 1 | undefined =>
    game.players[0].email === email ? 0 : game.players[1]?.email === email ? 1 : undefined;
  const nameOf = (game: StoredGame<State>, player: 0 | 1): string =>
    (player === 0 ? game.players[0] : (game.players[1] ?? COMPUTER)).name;

  /** After a move: the board and either the result (game removed) or whose turn it is. */
  async function report(
    bot: BotHandler,
    message: BotMessage,
    key: string,
    game: StoredGame<State>,
  ): Promise<void> {
    let text = rules.render(game.state);
    const outcome = rules.outcome(game.state);
    if (outcome === null) {
      text += `\nIt is ${nameOf(game, game.turn)}'s turn.`;
      await bot.storage.put(key, game);
    } else {
      text += outcome === "draw" ? "\nThe game is a draw." : `\n**${nameOf(game, outcome)}** wins!`;
      await bot.storage.remove(key);
    }
    await bot.sendReply(message, text);
  }

  async function move(bot: BotHandler, message: BotMessage, key: string, text: string): Promise<void> {
    const game = await load<State>(bot, key);
    if (game === undefined || (game.players[1] === null && !game.computer)) {
      await bot.sendReply(
        message,
        game === undefined
          ? "There is no game here: say `start game`."
          : "The game has not started: waiting for a second player to `join`.",
      );
      return;
    }
    const seat = seatOf(game, message.sender_email);
    if (seat === undefined) {
      await bot.sendReply(message, "You are not playing in this game.");
      return;
    }
    if (seat !== game.turn) {
      await bot.sendReply(message, `It is not your turn: it is ${nameOf(game, game.turn)}'s.`);
      return;
    }
    try {
      game.state = rules.play(game.state, seat, text);
    } catch (err) {
      if (!(err instanceof IllegalMoveError)) throw err;
      await bot.sendReply(message, err.message);
      return;
    }
    game.turn = seat === 0 ? 1 : 0;
    if (game.computer && rules.outcome(game.state) === null && rules.computerMove) {
      game.state = rules.play(game.state, game.turn, rules.computerMove(game.state, game.turn));
      game.turn = seat;
    }
    await report(bot, message, key, game);
  }

  return defineBot({
    name: rules.name,
    usage: helpText(rules),
    ...(rules.embeddable === undefined ? {} : { embeddable: rules.embeddable }),
    async handleMessage(message, bot) {
      const text = message.content.trim().replace(/\s+/g, " ");
      const command = text.toLowerCase();
      const key = storageKey(message);
      const me: Seat = { email: message.sender_email, name: message.sender_full_name };
      if (command === "start game" || command === "start game with computer") {
        if ((await load<State>(bot, key)) !== undefined) {
          await bot.sendReply(message, "A game is already going on here: finish it or `forfeit` first.");
          return;
        }
        const computer = command.endsWith("with computer");
        if (computer && !rules.computerMove) {
          await bot.sendReply(message, `The computer cannot play ${rules.title}.`);
          return;
        }
        const game: StoredGame<State> = { players: [me, null], computer, turn: 0, state: rules.newState() };
        if (!computer) {
          await bot.storage.put(key, game);
          await bot.sendReply(message, `${me.name} wants to play ${rules.title}: say \`join\` to play.`);
          return;
        }
        await bot.storage.put(key, game);
        await bot.sendReply(
          message,
          `${rules.render(game.state)}\n${me.name} plays against the computer. It is ${me.name}'s turn.`,
        );
      } else if (command === "join") {
        const game = await load<State>(bot, key);
        if (game === undefined || game.computer || game.players[1] !== null) {
          await bot.sendReply(
            message,
            game === undefined
              ? "There is no game to join here: say `start game`."
              : "This game already has two players.",
          );
          return;
        }
        if (game.players[0].email === me.email) {
          await bot.sendReply(
            message,
            "You cannot play against yourself: wait for another player, or `start game with computer`.",
          );
          return;
        }
        game.players[1] = me;
        await bot.storage.put(key, game);
        await bot.sendReply(
          message,
          `${rules.render(game.state)}\n${me.name} joined. It is ${game.players[0].name}'s turn.`,
        );
      } else if (command.startsWith("move ")) {
        await move(bot, message, key, text.slice(5).trim());
      } else if (command === "board") {
        const game = await load<State>(bot, key);
        await bot.sendReply(
          message,
          game === undefined ? "There is no game here: say `start game`." : rules.render(game.state),
        );
      } else if (command === "forfeit") {
        const game = await load<State>(bot, key);
        const seat = game === undefined ? undefined : seatOf(game, me.email);
        if (game === undefined || seat === undefined) {
          await bot.sendReply(message, "You are not playing a game here.");
          return;
        }
        await bot.storage.remove(key);
        await bot.sendReply(message, `${me.name} forfeited. **${nameOf(game, seat === 0 ? 1 : 0)}** wins!`);
      } else {
        await bot.sendReply(message, helpText(rules));
      }
    },
  });
}
