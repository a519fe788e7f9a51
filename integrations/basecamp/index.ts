import { defineIntegration } from "../kit/index.js";
import type { Handler } from "../kit/index.js";
import { SUPPORTED_KINDS, basecampMessage, eventOfKind } from "./messages.js";

const post: Handler = (p, ctx) => basecampMessage(p, ctx.event);

/**
 * Basecamp 3: POST /api/v1/external/basecamp from a project's webhook (Project → ⋯ → Set up
 * webhooks). Events are Zulip's: the recording type of the kind (`todo`, `message`, …); kinds Zulip
 * does not post answer UNSUPPORTED_WEBHOOK_EVENT_TYPE naming the kind.
 */
export default defineIntegration({
  name: "basecamp",
  displayName: "Basecamp",
  categories: ["project-management"],
  description: "Documents, messages, questions, answers, comments, to-do lists and to-dos in Basecamp 3.",
  classify: ({ payload }) => {
    const kind = payload.get("kind").text();
    return eventOfKind(kind) ?? kind;
  },
  events: Object.fromEntries(Object.keys(SUPPORTED_KINDS).map((e) => [e, post])),
});
