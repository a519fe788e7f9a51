import { JsonableError } from "../../src/errors.js";
import { defineIntegration, unquote, Wild } from "../kit/index.js";
import type { BodyReader, HandlerResult } from "../kit/index.js";
import { pyStrip, truncateTopic } from "../kit/message-text.js";

/** Jotform posts the submission as multipart or urlencoded form fields (JSON accepted too). */
function formOrJson(): BodyReader {
  return {
    kind: "form-or-json",
    read: (input) => {
      if (input.form !== undefined) return new Wild(input.form);
      const body = input.rawBody.toString("utf8");
      try {
        const value: unknown = JSON.parse(body);
        if (typeof value === "object" && value !== null && !Array.isArray(value)) return new Wild(value);
      } catch {
        // Not JSON: read it as a urlencoded form below.
      }
      return new Wild(Object.fromEntries(new URLSearchParams(body)));
    },
  };
}

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

const isObject = (v: unknown): v is Record<string, Json> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

const truthy = (v: Json | undefined): boolean =>
  v !== undefined &&
  v !== null &&
  v !== false &&
  v !== 0 &&
  v !== "" &&
  !(Array.isArray(v) && v.length === 0) &&
  !(isObject(v) && Object.keys(v).length === 0);

/** Answered questions other than file uploads (the `q…` fields), as Jotform's `pretty` lists them. */
function isAnsweredQuestion(field: string, value: Json | undefined): boolean {
  if (!field.startsWith("q") || !truthy(value)) return false;
  if (typeof value === "string" || Array.isArray(value)) return true;
  if (isObject(value)) {
    const values = Object.values(value);
    // Empty appointment/date parts, and empty input tables, are not in `pretty`.
    const emptyTable = values.length === 2 && "colIds" in value && "rowIds" in value;
    return !values.includes("") && !emptyTable;
  }
  return false;
}

const show = (v: Json): string => (typeof v === "string" ? v : JSON.stringify(v));

function formatValue(value: Json): string {
  if (Array.isArray(value)) return value.map(show).join(" ");
  if (isObject(value)) return Object.values(value).map(show).join(" ");
  return show(value);
}

/**
 * Splits Jotform's `pretty` text ("key1:value1, key2:value2") using the known answers, since keys
 * and values may themselves contain colons and commas.
 */
export function prettyFields(pretty: string, values: readonly string[]): [string, string][] {
  const fields: [string, string][] = [];
  let start = 0;
  for (const value of values) {
    if (pretty.indexOf(`${value}:`, start) === start) {
      fields.push([value, value]);
      start += 2 * value.length + 3;
    } else {
      const at = pretty.indexOf(value, start);
      const end = at + value.length;
      fields.push([pretty.slice(start, at - 1), pretty.slice(at, end)]);
      start = end + 2;
    }
  }
  return fields;
}

/** "a.png b c.pdf" → links, matching the longest run of words that names an uploaded file. */
function fileLinks(value: string, urls: ReadonlyMap<string, string>): string {
  const links: string[] = [];
  let words: string[] = [];
  for (const word of value.split(/\s+/).filter((w) => w !== "")) {
    words.push(word);
    const name = words.join(" ");
    const url = urls.get(name);
    if (url !== undefined) {
      links.push(`[${name}](${url})`);
      words = [];
    }
  }
  return links.join(", ");
}

const fileName = (url: string): string => unquote(url.split("/").pop() ?? "");

function submission(p: Wild): HandlerResult {
  const title = pyStrip(p.opt("formTitle")?.text() ?? "");
  let raw: Record<string, Json> = {};
  try {
    const parsed: unknown = JSON.parse(p.opt("rawRequest")?.text() ?? "{}");
    if (isObject(parsed)) raw = parsed;
  } catch {
    throw new JsonableError("Unable to handle Jotform payload");
  }
  const answers = Object.entries(raw)
    .filter(([field, value]) => isAnsweredQuestion(field, value))
    .map(([, value]) => formatValue(value));
  const urls = new Map<string, string>();
  const fileAnswers: string[] = [];
  const uploads = raw["temp_upload"];
  if (isObject(uploads) && truthy(uploads)) {
    for (const key of Object.keys(uploads).map((k) => k.split(/_(.*)/s)[1] ?? k)) {
      const list = raw[key];
      const files = Array.isArray(list) ? list.filter((u): u is string => typeof u === "string") : [];
      fileAnswers.push(files.map(fileName).join(" "));
      for (const url of files) urls.set(fileName(url), url);
    }
  }
  const fields = prettyFields(p.opt("pretty")?.text() ?? "", [...answers, ...fileAnswers]);
  if (title === "" || fields.length === 0) throw new JsonableError("Unable to handle Jotform payload");
  let body = "";
  fields.forEach(([label, value], index) => {
    const separator = label.endsWith("?") ? " " : ": ";
    if (index >= answers.length) {
      // Uploaded files come last; a blank line lets images preview.
      body += `\n* **${label}**${separator}${fileLinks(value, urls)}\n`;
    } else {
      body += `* **${label}**${separator}${value}\n`;
    }
  });
  return { topic: truncateTopic(title), body: pyStrip(body) };
}

/** Jotform: each form submission, its answers listed, uploaded files linked. */
export default defineIntegration({
  name: "jotform",
  displayName: "Jotform",
  categories: ["misc"],
  description: "Posts each Jotform submission with its answers and links to uploaded files.",
  body: formOrJson(),
  events: { submission },
  // Zulip's Jotform integration names no event types: only_events / exclude_events never drop one.
  unfilteredEvents: ["submission"],
});
