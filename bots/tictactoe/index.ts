import { IllegalMoveError, defineGame } from "../kit/index.js";

/** Nine squares, row by row: "" free, "x" (player 0), "o" (player 1). */
type Board = string[];

const LINES = [
  [0, 1, 2],
  [3, 4, 5],
  [6, 7, 8],
  [0, 3, 6],
  [1, 4, 7],
  [2, 5, 8],
  [0, 4, 8],
  [2, 4, 6],
];

function winner(board: Board): string | null {
  for (const [a, b, c] of LINES as [number, number, number][]) {
    if (board[a] !== "" && board[a] === board[b] && board[a] === board[c]) return board[a] as string;
  }
  return null;
}

/** "5" (squares 1–9, row by row) or "2,3" (row, column) → index 0–8. */
function square(move: string): number {
  const rc = /^\(?\s*([1-3])\s*,\s*([1-3])\s*\)?$/.exec(move);
  if (rc) return (Number(rc[1]) - 1) * 3 + Number(rc[2]) - 1;
  if (/^[1-9]$/.test(move)) return Number(move) - 1;
  throw new IllegalMoveError(
    `'${move}' is not a square: write a number from 1 to 9, or row,column like 2,3.`,
  );
}

/** Win if possible, else block, else centre, corners, sides. */
function bestSquare(board: Board, mark: string): number {
  const other = mark === "x" ? "o" : "x";
  for (const who of [mark, other]) {
    for (const line of LINES) {
      const marks = line.map((i) => board[i]);
      const free = line.find((i) => board[i] === "");
      if (free !== undefined && marks.filter((m) => m === who).length === 2) return free;
    }
  }
  return [4, 0, 2, 6, 8, 1, 3, 5, 7].find((i) => board[i] === "") as number;
}

export default defineGame<Board>({
  name: "tictactoe",
  title: "tic-tac-toe",
  moveHelp: "`move 5` (squares 1–9, row by row) or `move 2,3` (row, column)",
  newState: () => Array<string>(9).fill(""),
  render: (board) => {
    const cell = (i: number): string => (board[i] === "" ? String(i + 1) : (board[i] as string));
    const row = (r: number): string => ` ${cell(r * 3)} | ${cell(r * 3 + 1)} | ${cell(r * 3 + 2)}`;
    return ["```", row(0), "---+---+---", row(1), "---+---+---", row(2), "```"].join("\n");
  },
  play: (board, player, move) => {
    const i = square(move);
    if (board[i] !== "") throw new IllegalMoveError(`Square ${i + 1} is taken: choose a free one.`);
    const next = [...board];
    next[i] = player === 0 ? "x" : "o";
    return next;
  },
  outcome: (board) => {
    const w = winner(board);
    if (w !== null) return w === "x" ? 0 : 1;
    return board.every((c) => c !== "") ? "draw" : null;
  },
  computerMove: (board, player) => String(bestSquare(board, player === 0 ? "x" : "o") + 1),
});
