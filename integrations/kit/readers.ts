import { InvalidJsonError, RequestVariableMissingError } from "../../src/errors.js";
import { Wild } from "./wild.js";

/**
 * Body readers: how an integration's payload is read from the request, declared once in its
 * definition (`body: form()`). The pipeline's "read body" stage calls `read`.
 */

/** Query and form parameters, by name. */
export type Params = Readonly<Record<string, string>>;

/** The parts of a request a body reader needs. Header names are lower-case. */
export interface BodyInput {
  rawBody: Buffer;
  contentType: string | undefined;
  /** Parsed form fields when the body was urlencoded or multipart. */
  form: Params | undefined;
  params: Params;
}

/** How an integration's payload is read from the request: `json()`, `form()`, `jsonOrForm()`, `payloadField()`. */
export interface BodyReader {
  readonly kind: string;
  read(input: BodyInput): Wild;
}

function isJsonContentType(value: string | undefined): boolean {
  return (value ?? "").split(";")[0]?.trim().toLowerCase() === "application/json";
}

function isUrlencoded(value: string | undefined): boolean {
  return (value ?? "").toLowerCase().startsWith("application/x-www-form-urlencoded");
}

function parseJsonText(text: string): Wild {
  try {
    return new Wild(JSON.parse(text) as unknown);
  } catch {
    throw new InvalidJsonError();
  }
}

function formFields(input: BodyInput): Record<string, string> {
  return input.form ?? Object.fromEntries(new URLSearchParams(input.rawBody.toString("utf8")));
}

/** The raw body parsed as JSON, whatever the Content-Type says (Malformed JSON → 400). */
export function json(): BodyReader {
  return { kind: "json", read: (input) => parseJsonText(input.rawBody.toString("utf8")) };
}

/** Urlencoded or multipart fields, as an object of strings. */
export function form(): BodyReader {
  return { kind: "form", read: (input) => new Wild(formFields(input)) };
}

/** Form fields when the body was a form, JSON otherwise. */
export function jsonOrForm(): BodyReader {
  return {
    kind: "json-or-form",
    read: (input) =>
      input.form !== undefined ? new Wild(input.form) : parseJsonText(input.rawBody.toString("utf8")),
  };
}

/**
 * JSON text in a form or query field (Slack-style `payload=`); missing → REQUEST_VARIABLE_MISSING.
 * With `unlessJsonContentType`, an `application/json` request is read from the raw body instead.
 */
export function payloadField(name: string, opts: { unlessJsonContentType?: boolean } = {}): BodyReader {
  return {
    kind: "payload-field",
    read: (input) => {
      if (opts.unlessJsonContentType === true && isJsonContentType(input.contentType)) {
        return parseJsonText(input.rawBody.toString("utf8"));
      }
      const value =
        input.form?.[name] ??
        input.params[name] ??
        // A urlencoded body the caller did not parse into `form`.
        (isUrlencoded(input.contentType)
          ? (new URLSearchParams(input.rawBody.toString("utf8")).get(name) ?? undefined)
          : undefined);
      if (value === undefined) throw new RequestVariableMissingError(name);
      return parseJsonText(value);
    },
  };
}

/** The raw body as text (XML and other formats an integration parses itself). */
export function text(): BodyReader {
  return { kind: "text", read: (input) => new Wild(input.rawBody.toString("utf8")) };
}
