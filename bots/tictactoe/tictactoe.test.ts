import { describe, expect, it } from "@jest/globals";
import type { BotAction } from "../kit/index.js";
import { botTester } from "../kit/testing.js";
import tictactoe from "./index.js";

const ALICE = { sender_email: "alice@example.com", sender_full_name: "Alice" };
const BOB = { sender_email: "bob@example.com", sender_full_name: "Bob" };
const CAROL = { sender_email: "carol@example.com", sender_full_name: "Carol" };

const texts = (actions: BotAction[]): string[] =>
  actions.map((a) => (a.kind === "send" ? a.message.content : a.kind));

function board(rows: [string, string, string]): string {
  return ["```", ` ${rows[0]}`, "---+---+---", ` ${rows[1]}`, "---+---+---", ` ${rows[2]}`, "```"].join("\n");
}

describe("tictactoe (game framework)", () => {
  it("plays a two-player game to a win, checking turns and squares", async () => {
    const t = botTester(tictactoe);
    expect(texts(await t.send("start game", ALICE))).toEqual([
      "Alice wants to play tic-tac-toe: say `join` to play.",
    ]);
    expect(texts(await t.send("move 5", ALICE))).toEqual([
      "The game has not started: waiting for a second player to `join`.",
    ]);
    expect(texts(await t.send("join", ALICE))).toEqual([
      "You cannot play against yourself: wait for another player, or `start game with computer`.",
    ]);
    expect(texts(await t.send("join", BOB))).toEqual([
      `${board(["1 | 2 | 3", "4 | 5 | 6", "7 | 8 | 9"])}\nBob joined. It is Alice's turn.`,
    ]);
    expect(texts(await t.send("move 5", BOB))).toEqual(["It is not your turn: it is Alice's."]);
    expect(texts(await t.send("move 5", CAROL))).toEqual(["You are not playing in this game."]);
    expect(texts(await t.send("move 5", ALICE))).toEqual([
      `${board(["1 | 2 | 3", "4 | x | 6", "7 | 8 | 9"])}\nIt is Bob's turn.`,
    ]);
    expect(texts(await t.send("move 2,2", BOB))).toEqual(["Square 5 is taken: choose a free one."]);
    expect(texts(await t.send("move 10", BOB))).toEqual([
      "'10' is not a square: write a number from 1 to 9, or row,column like 2,3.",
    ]);
    await t.send("move 1,1", BOB);
    await t.send("move 3", ALICE);
    await t.send("move 2", BOB);
    expect(texts(await t.send("move 3,1", ALICE))).toEqual([
      `${board(["o | o | x", "4 | x | 6", "x | 8 | 9"])}\n**Alice** wins!`,
    ]);
    expect(texts(await t.send("board", ALICE))).toEqual(["There is no game here: say `start game`."]);
  });

  it("plays against the computer, which blocks and wins", async () => {
    const t = botTester(tictactoe);
    expect(texts(await t.send("start game with computer", ALICE))).toEqual([
      `${board(["1 | 2 | 3", "4 | 5 | 6", "7 | 8 | 9"])}\nAlice plays against the computer. It is Alice's turn.`,
    ]);
    expect(texts(await t.send("move 1", ALICE))).toEqual([
      `${board(["x | 2 | 3", "4 | o | 6", "7 | 8 | 9"])}\nIt is Alice's turn.`,
    ]);
    // Alice threatens 1-2-3: the computer blocks at 3.
    expect(texts(await t.send("move 2", ALICE))).toEqual([
      `${board(["x | x | o", "4 | o | 6", "7 | 8 | 9"])}\nIt is Alice's turn.`,
    ]);
    // The computer completes 3-5-7.
    expect(texts(await t.send("move 9", ALICE))).toEqual([
      `${board(["x | x | o", "4 | o | 6", "o | 8 | x"])}\n**the computer** wins!`,
    ]);
  });

  it("ends in a draw, keeps one game per topic, forfeits, and explains itself", async () => {
    const t = botTester(tictactoe);
    await t.send("start game", ALICE);
    await t.send("join", BOB);
    expect(texts(await t.send("start game", CAROL))).toEqual([
      "A game is already going on here: finish it or `forfeit` first.",
    ]);
    // Another topic has its own game.
    expect(texts(await t.send("start game", { ...CAROL, subject: "other topic" }))).toEqual([
      "Carol wants to play tic-tac-toe: say `join` to play.",
    ]);
    for (const [who, sq] of [
      [ALICE, "1"],
      [BOB, "2"],
      [ALICE, "3"],
      [BOB, "5"],
      [ALICE, "4"],
      [BOB, "6"],
      [ALICE, "8"],
      [BOB, "7"],
    ] as const) {
      await t.send(`move ${sq}`, who);
    }
    expect(texts(await t.send("move 9", ALICE))).toEqual([
      `${board(["x | o | x", "x | o | o", "o | x | x"])}\nThe game is a draw.`,
    ]);
    await t.send("start game", ALICE);
    await t.send("join", BOB);
    expect(texts(await t.send("forfeit", CAROL))).toEqual(["You are not playing a game here."]);
    expect(texts(await t.send("forfeit", BOB))).toEqual(["Bob forfeited. **Alice** wins!"]);
    expect(texts(await t.send("help", ALICE))).toEqual([
      [
        "Let's play tic-tac-toe! Commands:",
        "* `start game`: start a game here; another player says `join`",
        "* `start game with computer`: play against the computer",
        "* `move 5` (squares 1–9, row by row) or `move 2,3` (row, column): your move",
        "* `board`: show the board",
        "* `forfeit`: give up the game",
      ].join("\n"),
    ]);
  });
});
