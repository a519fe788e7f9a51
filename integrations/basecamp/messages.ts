import type { WebhookMessage, Wild } from "../kit/index.js";
import { truncateTopic } from "../kit/message-text.js";

/**
 * Basecamp 3 webhooks: `kind` (`todo_completed`, `message_created`, …), the `recording` it is
 * about (title, app_url, its `bucket` = project, its `parent`) and the `creator`. Worded as Zulip's
 * Basecamp integration words them; the topic is the project's name.
 */

/** The kinds Zulip posts, by event name (the kind's prefix). */
export const SUPPORTED_KINDS: Readonly<Record<string, readonly string[]>> = {
  document: [
    "document_active",
    "document_created",
    "document_archived",
    "document_unarchived",
    "document_publicized",
    "document_title_changed",
    "document_content_changed",
    "document_trashed",
  ],
  question_answer: [
    "question_answer_archived",
    "question_answer_content_changed",
    "question_answer_created",
    "question_answer_trashed",
    "question_answer_unarchived",
  ],
  question: ["question_archived", "question_created", "question_trashed", "question_unarchived"],
  message: [
    "message_archived",
    "message_content_changed",
    "message_created",
    "message_subject_changed",
    "message_trashed",
    "message_unarchived",
  ],
  todolist: ["todolist_created", "todolist_description_changed", "todolist_name_changed"],
  todo: [
    "todo_assignment_changed",
    "todo_completed",
    "todo_uncompleted",
    "todo_created",
    "todo_due_on_changed",
  ],
  comment: ["comment_created"],
};

/** Zulip's event name of a kind (`document`, `question_answer`, …), or undefined when it is not posted. */
export function eventOfKind(kind: string): string | undefined {
  return Object.keys(SUPPORTED_KINDS).find((event) => SUPPORTED_KINDS[event]?.includes(kind));
}

/** `archived`, `activated`, or `changed <what> of` for `<what>_changed`. */
function verbOf(kind: string, prefix: string): string {
  const verb = kind.replace(prefix, "");
  if (verb === "active") return "activated";
  const m = /^([A-z]*)_changed/.exec(verb);
  return m ? `changed ${m[1] ?? ""} of` : verb;
}

/** Python's string.punctuation. */
const PUNCTUATION = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";

function ending(title: string): string {
  const last = title.slice(-1);
  return last !== "" && PUNCTUATION.includes(last) ? "" : ".";
}

const NOUN: Readonly<Record<string, string>> = {
  document: "document",
  question: "question",
  message: "message",
  todolist: "todo list",
  todo: "todo task",
};

/** The message for a payload whose kind belongs to `event`. */
export function basecampMessage(p: Wild, event: string): WebhookMessage {
  const kind = p.get("kind").text();
  const recording = p.get("recording");
  const user = p.get("creator").get("name").text();
  const url = recording.get("app_url").text();
  const verb = verbOf(kind, `${event}_`);
  let body: string;
  if (event === "question_answer" || event === "comment") {
    const parent = recording.get("parent");
    const title = parent.get("title").text();
    const what = event === "comment" ? `[comment](${url}) of the task` : `[answer](${url}) of the question`;
    body = `${user} ${verb} the ${what} [${title}](${parent.get("app_url").text()})${ending(title)}`;
  } else {
    const title = recording.get("title").text();
    body = `${user} ${verb} the ${NOUN[event] ?? event} [${title}](${url})${ending(title)}`;
  }
  return { topic: truncateTopic(recording.get("bucket").get("name").text()), body };
}
