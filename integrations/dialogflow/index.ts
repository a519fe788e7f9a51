import { RequestVariableMissingError } from "../../src/errors.js";
import { defineIntegration } from "../kit/index.js";
import type { Wild } from "../kit/index.js";
import { normalizeBody } from "../kit/message-text.js";

/**
 * The answer of a Dialogflow (API v1) fulfillment: the speech of the result, else of the alternate
 * result, else Zulip's apology; for a failed query, "<code> - <error details>".
 */
export function dialogflowAnswer(p: Wild): string {
  const status = p.get("status");
  const code = status.get("code").int();
  if (code !== 200) return `${code} - ${status.get("errorDetails").text()}`;
  const speech = p.at("result", "fulfillment", "speech").str();
  if (speech !== "") return speech;
  const alternate = p.at("alternateResult", "fulfillment", "speech").str();
  return alternate !== "" ? alternate : "Dialogflow couldn't process your query.";
}

/**
 * Dialogflow fulfillment webhooks: the answer to a query, sent privately to the user named by the
 * URL's `email`, as Zulip does. Zulip passes no event type, so filters never drop it.
 */
export default defineIntegration({
  name: "dialogflow",
  displayName: "Dialogflow",
  categories: ["customer-support"],
  description: "Sends the answers of a Dialogflow agent's fulfillment webhook as private messages.",
  events: {
    answer: (p, ctx) => {
      // Required, as in Zulip: whom the answer is for.
      const email = ctx.params["email"];
      if (email === undefined) throw new RequestVariableMissingError("email");
      return { topic: "", body: normalizeBody(dialogflowAnswer(p)), directTo: [email] };
    },
  },
  unfilteredEvents: ["answer"],
});
