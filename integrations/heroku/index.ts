import { RequestVariableMissingError } from "../../src/errors.js";
import { defineIntegration, form } from "../kit/index.js";
import type { Wild } from "../kit/index.js";
import { normalizeBody, truncateTopic } from "../kit/message-text.js";

/** A form field of the deploy hook; missing → Zulip's "Missing '<name>' argument". */
function field(p: Wild, name: string): string {
  const value = p.opt(name);
  if (value === undefined) throw new RequestVariableMissingError(name);
  return value.text();
}

/**
 * Heroku's Deploy Hooks (HTTP Post Hook): a new release was deployed, with its git log, in a topic
 * named after the app. Zulip passes no event type, so filters never drop it.
 */
export default defineIntegration({
  name: "heroku",
  displayName: "Heroku",
  categories: ["deployment"],
  description: "Posts Heroku deploys (Deploy Hooks' HTTP POST) with their git log.",
  body: form(),
  events: {
    deploy: (p) => {
      const app = field(p, "app");
      return {
        topic: truncateTopic(app),
        body: normalizeBody(
          `${field(p, "user")} deployed version ${field(p, "head")} of [${app}](${field(p, "url")}):\n\n` +
            "``` quote\n" +
            `${field(p, "git_log")}\n` +
            "```",
        ),
      };
    },
  },
  unfilteredEvents: ["deploy"],
});
