import { InvalidJsonError } from "../../src/errors.js";
import { defineIntegration } from "../kit/index.js";
import type { Wild } from "../kit/index.js";
import { normalizeBody } from "../kit/message-text.js";
import { PyObject, fromJsValue, parsePythonJson, pythonJsonDumps } from "../kit/python-json.js";
import type { PyJson } from "../kit/python-json.js";

/**
 * The payload as Python's `json.loads` reads it: from the raw body when we have it, so that
 * `1.0`, `1e5` and integers beyond 2^53 print exactly as Zulip prints them.
 */
function pythonPayload(payload: Wild, rawBody: string | undefined): PyJson {
  if (rawBody !== undefined) {
    try {
      return parsePythonJson(rawBody);
    } catch {
      // The body was not JSON text (a form post): fall back to the parsed payload.
    }
  }
  return fromJsValue(payload.value);
}

/** Zulip's JSON formatter: any JSON object, pretty-printed in a `json` code block. */
export default defineIntegration({
  name: "json",
  displayName: "JSON",
  categories: ["misc"],
  description:
    "Posts any JSON payload, pretty-printed in a code block; handy to inspect a service's webhooks.",
  unfilteredEvents: ["default"],
  events: {
    default: (p, ctx) => {
      p.entries(); // Zulip accepts only a JSON object: "payload is not a dict" otherwise.
      const value = pythonPayload(p, ctx.rawBody);
      if (!(value instanceof PyObject)) {
        throw new InvalidJsonError();
      }
      return { topic: "JSON", body: normalizeBody("```json\n" + pythonJsonDumps(value, 2) + "\n```") };
    },
  },
});
