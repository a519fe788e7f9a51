import { BotStorageKeyError, ServiceUnavailableError, defineBot, getJson, pick } from "../kit/index.js";
import type { BotHandler, BotMessage } from "../kit/index.js";

/** Open Trivia Database; `api_url` in the bot config overrides it. */
const DEFAULT_API = "https://opentdb.com/api.php";
const LETTERS = ["A", "B", "C", "D"] as const;

/** A question as stored (JSON-encoded, as Zulip's bot stores it). */
interface Quiz {
  question: string;
  answers: Record<string, string>;
  answered_options: string[];
  pending: boolean;
  correct_letter: string;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };

/** Open Trivia DB answers with HTML entities (`&quot;`, `&#039;`). */
export function unescapeHtml(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name.startsWith("#x") || name.startsWith("#X"))
      return String.fromCodePoint(parseInt(name.slice(2), 16));
    if (name.startsWith("#")) return String.fromCodePoint(Number(name.slice(1)));
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

async function fetchQuiz(api: string): Promise<Quiz> {
  const res = await getJson(api, { searchParams: { amount: "1", type: "multiple" } });
  const result = pick(res.body, "results", 0);
  const incorrect = pick(result, "incorrect_answers");
  if (res.status !== 200 || !Array.isArray(incorrect) || incorrect.length < 3) {
    throw new ServiceUnavailableError(`Open Trivia DB answered HTTP ${res.status}`);
  }
  const letters: string[] = [...LETTERS];
  for (let i = letters.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [letters[i], letters[j]] = [letters[j] as string, letters[i] as string];
  }
  const [correct, ...others] = letters as [string, ...string[]];
  const answers: Record<string, string> = { [correct]: unescapeHtml(String(pick(result, "correct_answer"))) };
  others.forEach((letter, i) => (answers[letter] = unescapeHtml(String(incorrect[i]))));
  return {
    question: unescapeHtml(String(pick(result, "question"))),
    answers,
    answered_options: [],
    pending: true,
    correct_letter: correct,
  };
}

async function nextQuizId(bot: BotHandler): Promise<string> {
  let n = 0;
  try {
    n = Number(await bot.storage.get("quiz_id")) || 0;
  } catch (err) {
    if (!(err instanceof BotStorageKeyError)) throw err;
  }
  n = (n + 1) % 1000;
  await bot.storage.put("quiz_id", n);
  return `Q${String(n).padStart(3, "0")}`;
}

function markdown(id: string, quiz: Quiz): string {
  const list = LETTERS.map((l) => `* **${l}** ${quiz.answers[l] ?? ""}`).join("\n");
  return `\nQ: ${quiz.question}\n\n${list}\n**reply**: answer ${id} <letter>`;
}

function widget(id: string, quiz: Quiz): string {
  return JSON.stringify({
    widget_type: "zform",
    extra_data: {
      type: "choices",
      heading: `${id}: ${quiz.question}`,
      choices: LETTERS.map((l) => ({
        type: "multiple_choice",
        short_name: l,
        long_name: quiz.answers[l] ?? "",
        reply: `answer ${id} ${l}`,
      })),
    },
  });
}

async function startQuiz(message: BotMessage, bot: BotHandler, api: string): Promise<void> {
  let quiz: Quiz;
  try {
    quiz = await fetchQuiz(api);
  } catch (err) {
    if (!(err instanceof ServiceUnavailableError)) throw err;
    await bot.sendReply(message, "Uh-Oh! Trivia service is down.");
    return;
  }
  const id = await nextQuizId(bot);
  await bot.storage.put(id, JSON.stringify(quiz));
  await bot.sendReply(message, markdown(id, quiz), widget(id, quiz));
}

export default defineBot({
  name: "trivia_quiz",
  usage:
    "Gives trivia questions from the Open Trivia Database (opentdb.com): `new` for a question, `answer Q001 B` to answer.",
  async handleMessage(message, bot) {
    const api = bot.config.api_url ?? DEFAULT_API;
    const query = message.content;
    if (query === "new") {
      await startQuiz(message, bot, api);
      return;
    }
    if (!query.startsWith("answer")) {
      await bot.sendReply(message, 'type "new" for a new question');
      return;
    }
    const m = /^answer\s+(Q...)\s+(.)/.exec(query);
    const option = m?.[2]?.toUpperCase() ?? "";
    if (!m || !(LETTERS as readonly string[]).includes(option)) {
      await bot.sendReply(message, "Invalid answer format");
      return;
    }
    const id = m[1] as string;
    let quiz: Quiz;
    try {
      quiz = JSON.parse(await bot.storage.get<string>(id)) as Quiz;
    } catch (err) {
      if (!(err instanceof BotStorageKeyError)) throw err;
      await bot.sendReply(message, "Invalid quiz id");
      return;
    }
    const answer = quiz.answers[quiz.correct_letter] ?? "";
    const isNew = !quiz.answered_options.includes(option);
    if (isNew) quiz.answered_options.push(option);
    const count = quiz.answered_options.length;
    const correct = option === quiz.correct_letter;
    const startNew = quiz.pending && (correct || count >= 3);
    if (startNew || correct) quiz.pending = false;
    if (isNew || startNew) await bot.storage.put(id, JSON.stringify(quiz));
    const who = message.sender_full_name;
    const reply = correct
      ? `:tada: **${answer}** is correct, ${who}!`
      : count >= 3
        ? `:disappointed: WRONG, ${who}! The correct answer is **${answer}**.`
        : `:disappointed: WRONG, ${who}! ${option} is not correct.`;
    await bot.sendReply(message, reply);
    if (startNew) await startQuiz(message, bot, api);
  },
});
