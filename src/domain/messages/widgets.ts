import { JsonableError } from "../../errors.js";

/**
 * Zulip's widgets: a message starting with `/poll` or `/todo` becomes a poll or a to-do list (its
 * first submessage holds the widget), and a bot may attach a `zform` (buttons) with
 * `widget_content`. Pure functions: parsing a message's content, and checking what clients send.
 */

export type WidgetType = "poll" | "todo" | "zform";

export interface Widget {
  widget_type: WidgetType;
  extra_data: Record<string, unknown> | null;
}

/** The widget a message's content makes, if any (Zulip's get_widget_data). */
export function widgetOfContent(content: string): Widget | undefined {
  const match = /^\/(poll|todo)(?:\s|$)/.exec(content);
  if (match === null) return undefined;
  const type = match[1] as "poll" | "todo";
  const lines = content.split(/\r?\n/);
  const title = (lines[0] ?? "").slice(type.length + 1).trim();
  const rest = lines
    .slice(1)
    .map((l) => l.trim())
    .filter((l) => l !== "");
  if (type === "poll") {
    return { widget_type: "poll", extra_data: { question: title, options: rest } };
  }
  const tasks = rest.map((line) => {
    const item = line.replace(/^[-*+]\s+/, "");
    const colon = item.indexOf(":");
    return colon === -1
      ? { task: item, desc: "" }
      : { task: item.slice(0, colon).trim(), desc: item.slice(colon + 1).trim() };
  });
  return { widget_type: "todo", extra_data: { task_list_title: title, tasks } };
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

function invalid(what: string): never {
  throw new JsonableError(`Widgets: ${what}`);
}

/**
 * A bot's `widget_content` (Zulip's check_widget_content): only `zform` widgets of type `choices`,
 * each choice with `type: "multiple_choice"`, `short_name`, `long_name` and the `reply` a click sends.
 */
export function checkWidgetContent(raw: string): Widget {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    invalid("API programmer sent invalid JSON content");
  }
  if (!isObject(value)) invalid("widget_content is not a dict");
  if (value["widget_type"] !== "zform") invalid("widget_type must be zform");
  const extra = value["extra_data"];
  if (!isObject(extra)) invalid("extra_data is not a dict");
  if (extra["type"] !== "choices") invalid("unknown zform type");
  if (typeof extra["heading"] !== "string") invalid("heading is not a string");
  const choices = extra["choices"];
  if (!Array.isArray(choices)) invalid("choices is not a list");
  for (const [i, c] of choices.entries()) {
    if (!isObject(c)) invalid(`choices[${i}] is not a dict`);
    if (c["type"] !== "multiple_choice") invalid(`choices[${i}] has an unknown type`);
    for (const key of ["short_name", "long_name", "reply"]) {
      if (typeof c[key] !== "string") invalid(`choices[${i}]["${key}"] is not a string`);
    }
  }
  return { widget_type: "zform", extra_data: extra };
}

/**
 * What POST /submessage may add to a widget (Zulip's validate_poll_data and validate_todo_data):
 * votes, options and (by its author) the question of a poll; tasks, ticks and (by its author) the
 * title of a to-do list. A zform takes none: its buttons send messages.
 */
export function checkWidgetEvent(type: WidgetType, data: unknown, isAuthor: boolean): void {
  if (!isObject(data)) throw new JsonableError("Invalid submessage content");
  const kind = data["type"];
  const str = (k: string): boolean => typeof data[k] === "string";
  const int = (k: string): boolean => Number.isSafeInteger(data[k]);
  let ok = false;
  if (type === "poll") {
    if (kind === "vote") ok = str("key") && (data["vote"] === 1 || data["vote"] === -1);
    else if (kind === "new_option") ok = str("option") && int("idx");
    else if (kind === "question") {
      if (!isAuthor) throw new JsonableError("You can't edit a question unless you are the author.");
      ok = str("question");
    }
  } else if (type === "todo") {
    if (kind === "new_task")
      ok = int("key") && str("task") && str("desc") && typeof data["completed"] === "boolean";
    else if (kind === "strike") ok = str("key");
    else if (kind === "new_task_list_title") {
      if (!isAuthor) throw new JsonableError("You can't edit the task list title unless you are the author.");
      ok = str("title");
    }
  }
  if (!ok) throw new JsonableError(`Invalid ${type} data`);
}
