import { InvalidJsonError } from "../../src/errors.js";
import { Wild } from "../kit/index.js";
import type { BodyInput, BodyReader } from "../kit/index.js";

function isJson(contentType: string | undefined): boolean {
  return (contentType ?? "").split(";")[0]?.trim().toLowerCase() === "application/json";
}

/**
 * Slack posts Events API callbacks as JSON, and legacy outgoing webhooks as form fields (also
 * accepted from the query string, as Zulip does). Read as `{ events: <JSON> }` or
 * `{ outgoing: <fields> }`.
 */
export function slackBody(): BodyReader {
  return {
    kind: "slack",
    read: (input: BodyInput): Wild => {
      const text = input.rawBody.toString("utf8");
      if (isJson(input.contentType)) {
        try {
          return new Wild({ events: JSON.parse(text) as unknown });
        } catch {
          throw new InvalidJsonError();
        }
      }
      const form = input.form ?? Object.fromEntries(new URLSearchParams(text));
      return new Wild({ outgoing: { ...input.params, ...form } });
    },
  };
}
