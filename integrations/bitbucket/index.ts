import { defineIntegration, option, parse, payloadField } from "../kit/index.js";
import { push } from "./messages.js";

/**
 * Bitbucket's legacy POST service: POST /api/v1/external/bitbucket with the push as JSON in the
 * `payload` field. Authenticates with HTTP Basic (`email:api_key` in the URL), as Zulip does.
 */
export default defineIntegration({
  name: "bitbucket",
  displayName: "Bitbucket",
  categories: ["version-control"],
  description: "Pushes from Bitbucket's legacy POST service (use bitbucket2 for Bitbucket Cloud webhooks).",
  body: payloadField("payload"),
  options: {
    branches: option("Only notify for pushes to these branches (comma-separated)", parse.string),
  },
  classify: () => "push",
  events: {
    push: (p, ctx) => push(p, ctx.options.branches),
  },
});
