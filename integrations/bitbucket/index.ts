import { branchesOption } from "../kit/branches.js";
import { InvalidJsonError, RequestVariableMissingError } from "../../src/errors.js";
import { Wild, defineIntegration } from "../kit/index.js";
import type { BodyReader } from "../kit/index.js";
import { push } from "./messages.js";

function parseJson(text: string): Wild {
  try {
    return new Wild(JSON.parse(text) as unknown);
  } catch {
    throw new InvalidJsonError();
  }
}

/**
 * The push: the JSON body (as Zulip reads it), or else the JSON text of the `payload` field of a
 * form or of the query string (what Bitbucket's POST service sends).
 */
const pushReader: BodyReader = {
  kind: "json-or-payload-field",
  read: (input) => {
    const text = input.rawBody.toString("utf8");
    const field =
      input.form?.["payload"] ??
      input.params["payload"] ??
      new URLSearchParams(text).get("payload") ??
      undefined;
    if (text.trimStart().startsWith("{")) {
      try {
        return new Wild(JSON.parse(text) as unknown);
      } catch {
        if (field === undefined) throw new InvalidJsonError();
      }
    }
    if (field === undefined) throw new RequestVariableMissingError("payload");
    return parseJson(field);
  },
};

/**
 * Bitbucket's legacy POST service: POST /api/v1/external/bitbucket with the push as JSON in the
 * `payload` field. Authenticates with HTTP Basic (`email:api_key` in the URL), as Zulip does.
 */
export default defineIntegration({
  name: "bitbucket",
  displayName: "Bitbucket",
  categories: ["version-control"],
  description: "Pushes from Bitbucket's legacy POST service (use bitbucket2 for Bitbucket Cloud webhooks).",
  body: pushReader,
  options: {
    branches: branchesOption,
  },
  classify: () => "push",
  // Zulip passes no event type for this integration: only_events / exclude_events never apply.
  unfilteredEvents: ["push"],
  events: {
    push: (p, ctx) => push(p, ctx.options.branches),
  },
});
