import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { loadRecordings, startReplayServer } from "../kit/replay.js";
import type { ReplayServer } from "../kit/replay.js";
import { botTester } from "../kit/testing.js";
import triviaQuiz, { unescapeHtml } from "./index.js";

let replay: ReplayServer;
beforeAll(async () => {
  replay = await startReplayServer(loadRecordings(new URL("./fixtures/", import.meta.url)).values());
});
afterAll(() => replay.close());

interface StoredQuiz {
  question: string;
  answers: Record<string, string>;
  correct_letter: string;
  pending: boolean;
  answered_options: string[];
}

describe("trivia_quiz (recorded responses)", () => {
  it("asks a question with a zform widget, then judges answers and asks the next one", async () => {
    const tester = botTester(triviaQuiz, { config: { api_url: `${replay.url}/api.php` } });
    const [asked] = await tester.send("new");
    const quiz = JSON.parse(await tester.handler.storage.get<string>("Q001")) as StoredQuiz;
    expect(quiz.question).toBe('What is the chemical symbol for "gold"?');
    expect(Object.values(quiz.answers).sort()).toEqual(["Ag", "Au", "Gd", "Go"]);
    expect(quiz.answers[quiz.correct_letter]).toBe("Au");
    const list = ["A", "B", "C", "D"].map((l) => `* **${l}** ${quiz.answers[l]}`).join("\n");
    expect(asked).toEqual({
      kind: "send",
      id: 1001,
      message: {
        type: "stream",
        to: "test stream",
        topic: "test topic",
        content: `\nQ: What is the chemical symbol for "gold"?\n\n${list}\n**reply**: answer Q001 <letter>`,
        widget_content: JSON.stringify({
          widget_type: "zform",
          extra_data: {
            type: "choices",
            heading: 'Q001: What is the chemical symbol for "gold"?',
            choices: ["A", "B", "C", "D"].map((l) => ({
              type: "multiple_choice",
              short_name: l,
              long_name: quiz.answers[l],
              reply: `answer Q001 ${l}`,
            })),
          },
        }),
      },
    });

    const wrong = ["A", "B", "C", "D"].filter((l) => l !== quiz.correct_letter);
    const first = await tester.send(`answer Q001 ${wrong[0]!.toLowerCase()}`);
    expect(first.map((a) => (a.kind === "send" ? a.message.content : a.kind))).toEqual([
      `:disappointed: WRONG, Foo Test User! ${wrong[0]} is not correct.`,
    ]);
    const right = await tester.send(`answer Q001 ${quiz.correct_letter}`);
    expect(right.map((a) => (a.kind === "send" ? a.message.content.split("\n")[0] : a.kind))).toEqual([
      ":tada: **Au** is correct, Foo Test User!",
      "", // the next question (Q002) starts with a blank line
    ]);
    expect(await tester.handler.storage.get("quiz_id")).toBe(2);
  });

  it("gives the answer after three wrong tries", async () => {
    const tester = botTester(triviaQuiz, { config: { api_url: `${replay.url}/api.php` } });
    await tester.send("new");
    const quiz = JSON.parse(await tester.handler.storage.get<string>("Q001")) as StoredQuiz;
    const wrong = ["A", "B", "C", "D"].filter((l) => l !== quiz.correct_letter);
    await tester.send(`answer Q001 ${wrong[0]}`);
    await tester.send(`answer Q001 ${wrong[1]}`);
    const third = await tester.send(`answer Q001 ${wrong[2]}`);
    expect(third[0]).toMatchObject({
      kind: "send",
      message: { content: ":disappointed: WRONG, Foo Test User! The correct answer is **Au**." },
    });
  });

  it("explains itself, rejects bad answers and unknown quizzes, and says when the service is down", () =>
    botTester(triviaQuiz, { config: { api_url: `${replay.url}/down/api.php` } }).verifyDialog([
      ["hello", 'type "new" for a new question'],
      ["answer Q001 E", "Invalid answer format"],
      ["answer Q042 A", "Invalid quiz id"],
      ["new", "Uh-Oh! Trivia service is down."],
    ]));

  it("decodes the HTML entities of Open Trivia DB", () => {
    expect(unescapeHtml("Tom &amp; Jerry&#039;s &quot;show&quot; &#x263A; &bogus;")).toBe(
      'Tom & Jerry\'s "show" \u263a &bogus;',
    );
  });
});
