import { BadRequestError } from "../../src/errors.js";
import { defineIntegration, form } from "../kit/index.js";
import type { Handler, Wild } from "../kit/index.js";
import { pyRstrip } from "../kit/message-text.js";

/** The action the WordPress webhook names in `hook` (Zulip strips trailing whitespace). */
function hookOf(fields: Wild): string {
  return pyRstrip(fields.opt("hook")?.text() ?? "WordPress action");
}

/** A post or page published: the fields default to Zulip's placeholders when not configured. */
const published: Handler = (p) => {
  const field = (name: string, fallback: string): string => p.opt(name)?.text() ?? fallback;
  return {
    // A `topic` form field is the URL's topic override (Zulip reads both alike).
    topic: p.opt("topic")?.text() || "WordPress notification",
    body:
      `New ${field("post_type", "post")} published:\n` +
      `* [${field("post_title", "New WordPress post")}](${field("post_url", "WordPress post URL")})`,
  };
};

/**
 * WordPress: POST /api/v1/external/wordpress from the WordPress.com webhooks settings
 * (`/wp-admin/options-general.php?page=webhooks`) with the fields post_title, post_type, post_url.
 */
export default defineIntegration({
  name: "wordpress",
  displayName: "WordPress",
  categories: ["marketing"],
  description: "Posts and pages published on a WordPress site.",
  body: form(),
  classify: ({ payload }) => {
    const hook = hookOf(payload);
    if (hook === "publish_post" || hook === "publish_page") return hook;
    throw new BadRequestError(`Unknown WordPress webhook action: ${hook}`);
  },
  events: { publish_post: published, publish_page: published },
});
